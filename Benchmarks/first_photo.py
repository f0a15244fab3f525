#!/usr/bin/python3
"""The time to the first photo of two cards, side by side in one run (issue 63, item 7).

Each card (scripts/image --suite bookworm and --suite trixie, the same package) boots in turn,
ROUNDS times, interleaved so that the host's load falls on both alike:
- on QEMU's `virt` board (the Image suite's boot: the card's own kernel, initramfs and root,
  virtio disk and GPU): from QEMU's start to the frame's first "showing" line, and from the
  kernel's start (the line's monotonic timestamp in the journal);
- on QEMU's `raspi3b` (Tests/Image/raspi3b.py's boot, as the Pi 3's firmware hands over): to
  babyalbum.service's start, from QEMU's start and from the kernel's (raspi3b has no display, so
  the frame itself cannot show a photo there).
Prints each boot and the medians, and the trixie card's ratio to the bookworm card's.

Usage: Benchmarks/first_photo.py BOOKWORM.img TRIXIE.img [--rounds N] [--no-raspi3b] [--append WORDS]
                                 [--single-thread]
       (as root; BABYALBUM_BIN as for Tests/Image/image_vm.py; about 3 minutes a boot under TCG)
"""

import argparse
import os
import re
import shutil
import statistics
import sys
import tempfile
import time

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(REPO, "Tests", "Image"))
import image_vm as vm  # noqa: E402
import raspi3b  # noqa: E402
from vmrig import SINGLE_THREAD_TCG  # noqa: E402  (Tests/VM/vmrig.py, on the path image_vm sets)


def prepared(image, work):
    """A copy of the card with a photo and the test shell; the boot files for `virt`."""
    card = vm.Card(image, work)
    card.attach()
    card.mtools("mcopy", os.path.join(REPO, "Photos", "balloons.png"), "::/photos/")
    card.add_shell()
    files = vm.virt_boot_files(card, work)
    card.detach()
    return card, files


def kernel_seconds(guest, unit, text):
    """The monotonic timestamp (seconds since the kernel's start) of `unit`'s first line with `text`."""
    _, out = guest.sh(f"journalctl -b -u {unit} -o short-monotonic --no-pager | grep -m1 -F '{text}'")
    found = re.search(r"^\[ *([\d.]+)\]", out.strip(), re.M)
    return float(found.group(1)) if found else float("nan")


def cpu_seconds(guest, unit):
    """The CPU time `unit` (its cgroup: for udev, its workers and the programs they ran) has used."""
    _, out = guest.sh(f"systemctl show -P CPUUsageNSec {unit}")
    found = re.search(r"^(\d+)\s*$", out, re.M)
    return int(found.group(1)) / 1e9 if found else float("nan")


def virt_boot(card, work, boot_files, accel):
    """Seconds to the first photo from QEMU's start and from the kernel's, and udev's CPU seconds then."""
    guest = vm.boot(card, work, boot_files, accel=accel)
    from_qemu = vm.wait_showing(guest)
    from_kernel = kernel_seconds(guest, "babyalbum.service", "showing ")
    udev = cpu_seconds(guest, "systemd-udevd.service") + cpu_seconds(guest, "systemd-udev-trigger.service")
    guest.kill()
    return from_qemu, from_kernel, udev


def raspi3b_boot(image, work):
    """QEMU's start and the kernel's start to babyalbum.service's start on raspi3b."""
    # As Tests/Image/raspi3b.py boots it: U-Boot from the FAT (config.txt's kernel=), which loads
    # slot A's own kernel, initramfs and command line (EXTRA added to it in the test's copy).
    card = vm.Card(image, work)
    card.attach()
    files, cmdline = raspi3b.boot_files(card, work)
    card.add_shell("ttyS1")
    card.detach()
    raspi3b.grown_copy(card, work)
    machine = ["-M", "raspi3b", "-dtb", files["dtb"],
               "-drive", f"file={card.path},if=sd,format=raw", "-serial", "null", "-serial", "SERIAL"]
    guest = vm.Guest(card, work, files["kernel"], None, cmdline, machine=machine, accel=SINGLE_THREAD_TCG)
    try:
        guest.read_until("IMAGE-READY", 900)
        deadline = time.monotonic() + 900
        while True:
            _, out = guest.sh("systemctl show -p ExecMainStartTimestampMonotonic --value babyalbum.service", timeout=300)
            # The kernel's console shares the serial line: its lines ("[FAILED] Failed to start
            # babyalbum.service", the frame finding no display) may come before the answer.
            started = [int(line) for line in re.findall(r"^\s*(\d+)\s*$", out, re.M)]
            if started and started[-1] > 0:
                break
            if time.monotonic() > deadline:
                raise vm.Failure("babyalbum.service did not start within 900 s on raspi3b")
            time.sleep(2)
        from_qemu = time.monotonic() - guest.started
        return from_qemu, started[-1] / 1e6
    finally:
        guest.kill()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("bookworm")
    parser.add_argument("trixie")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--no-raspi3b", action="store_true")
    parser.add_argument("--append", default="", help="words added to the kernel command line of the virt boots "
                        "(both cards), e.g. nokaslr")
    parser.add_argument("--single-thread", action="store_true",
                        help="virt's two vCPUs on one host thread (as raspi3b's), not one thread each")
    options = parser.parse_args()
    results = {(suite, board): [] for suite in ("bookworm", "trixie") for board in ("virt", "raspi3b")}
    with open("/proc/loadavg") as f:
        print("load average at the start: " + " ".join(f.read().split()[:3]))
    for round_ in range(1, options.rounds + 1):
        for suite, image in (("bookworm", options.bookworm), ("trixie", options.trixie)):
            work = tempfile.mkdtemp(prefix=f"babyalbum-first-photo-{suite}.")
            try:
                card, files = prepared(image, work)
                if options.append:
                    files = (files[0], files[1], files[2] + " " + options.append)
                figures = virt_boot(card, work, files, SINGLE_THREAD_TCG if options.single_thread else "tcg")
                results[(suite, "virt")].append(figures)
                print(f"round {round_} {suite} virt: first photo {figures[0]:.1f} s from QEMU's start, "
                      f"{figures[1]:.1f} s from the kernel's; udev's CPU {figures[2]:.1f} s", flush=True)
                vm.power_off_all()
                card.detach()
                if not options.no_raspi3b:
                    os.unlink(card.path)
                    figures = raspi3b_boot(image, work)
                    results[(suite, "raspi3b")].append(figures)
                    print(f"round {round_} {suite} raspi3b: babyalbum.service started {figures[0]:.1f} s from "
                          f"QEMU's start, {figures[1]:.1f} s from the kernel's", flush=True)
            finally:
                vm.power_off_all()
                shutil.rmtree(work, ignore_errors=True)
    with open("/proc/loadavg") as f:
        print("load average at the end: " + " ".join(f.read().split()[:3]))
    print("\nmedians (seconds)          from QEMU's start   from the kernel's")
    for board in ("virt", "raspi3b"):
        medians = {}
        for suite in ("bookworm", "trixie"):
            figures = results[(suite, board)]
            if not figures:
                continue
            medians[suite] = [statistics.median(f[i] for f in figures) for i in range(2)]
            what = "first photo" if board == "virt" else "service start"
            print(f"{board:8} {suite:9} {what:14} {medians[suite][0]:8.1f} {medians[suite][1]:18.1f}")
        if len(medians) == 2:
            print(f"{board:8} trixie / bookworm         {medians['trixie'][0] / medians['bookworm'][0]:8.2f}x "
                  f"{medians['trixie'][1] / medians['bookworm'][1]:17.2f}x")


if __name__ == "__main__":
    main()
