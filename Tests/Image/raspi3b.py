#!/usr/bin/python3
"""The card booted the way a Raspberry Pi 3's firmware hands it over, on QEMU's `raspi3b` board
(Cortex-A53, 1 GiB, the BCM2835 SD host, no vc4): the kernel, initramfs and device tree that
config.txt names, read from the card's FAT partition with mtools as the firmware reads them;
cmdline.txt as the card has it, plus the mini UART (ttyS1) as the console; the card image itself
as the SD card (a copy grown to a power of two, which QEMU requires).

It shows: the root found by label on mmcblk0p2, the three partitions mounted as fstab says (/
read-only, noatime), babyalbum.service started, the device tree's gpio-keys exit button as an
input device with KEY_POWER, and `babyalbum doctor`'s Input section naming it; the clock
module's bus (the tree's /clock-i2c node, scripts/dtb-clock-bus) as an i2c-gpio adapter, and
with `clock-module = ds3231` in the test's copy of babyalbum.txt and nothing on the bus, one
clear line in the journal and a warning in doctor; it prints what the
frame says without vc4 (no DRM device: it exits 1 and systemd restarts it) and the time from
QEMU's start to the service's start (the guest's clock, plus when the kernel started). The test
shell on ttyS1 survives emergency mode, which then fails the test with the journal's warnings. What QEMU cannot prove: the GPU firmware (bootcode.bin, start*.elf and
its config.txt parsing), vc4 and HDMI, the SD host's real timing, Wi-Fi and Bluetooth.

Usage: Tests/Image/raspi3b.py CARD.img      (as root; 3 to 5.5 minutes under TCG; Tests/Image/run runs
       it on the card it builds, or only it with --raspi3b). Last line "Raspi3b tests: N passed, M
       failed, K skipped"; the record goes to $BABYALBUM_RESULTS/Raspi3b.xml when that is set.
"""
import os
import re
import shutil
import sys
import time

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from image_vm import Card, Failure, Guest, card_work_folder, xunit  # noqa: E402
from vmrig import SINGLE_THREAD_TCG  # noqa: E402  (Tests/VM/vmrig.py, on the path image_vm sets)

TREE = "bcm2837-rpi-3-b.dtb"
NAME = "raspi3b: the card booted as a Pi 3's firmware hands it over"
#: Added to cmdline.txt: the mini UART as the console (the PL011 is the Bluetooth UART in this
#: tree), and systemd's wait for a device raised from 90 s: under TCG with a loaded host, udev's
#: coldplug took more than a minute to make the state partition's /dev/disk link in one run, and a run on
#: a busier host went to emergency mode, most likely from that wait (a real Pi takes seconds).
#: And the SoC watchdog's driver kept out: the card arms it (RuntimeWatchdogSec=15s), and QEMU's
#: raspi3b resets the board within a minute of that (seen 2026-12-04 on the trixie card: QEMU
#: exited, -no-reboot, about 60 s after the test shell started), so the watchdog is proven on
#: `virt` with an i6300esb instead (Tests/Image/boot_health_step.py).
EXTRA = "console=ttyS1,115200 systemd.default_device_timeout_sec=600 modprobe.blacklist=bcm2835_wdt"
#: The gpio-keys device's line in /proc/bus/input/devices, and KEY_POWER (116) in its key bitmap.
EXIT_BUTTON = re.compile(r'N: Name="exit-button"\s*\nP: Phys=gpio-keys/input0.*?B: KEY=([0-9a-f ]+)', re.S)


def grown_copy(card, work):
    """The card's copy, sparse, grown to the next power of two (QEMU's SD card needs one)."""
    size = os.path.getsize(card.path)
    power = 1 << (size - 1).bit_length()
    os.truncate(card.path, power)
    return power


def boot_files(card, work):
    """The kernel, initramfs and Pi 3 tree config.txt names, and cmdline.txt, from the FAT."""
    config = card.mtools("mtype", "::/config.txt").stdout
    files = {}
    for key, pattern in (("kernel", r"^kernel=(\S+)"), ("initrd", r"^initramfs (\S+)")):
        name = re.search(pattern, config, re.M).group(1)
        files[key] = os.path.join(work, os.path.basename(name))
        card.mtools("mcopy", "-o", "::/" + name, files[key])
    files["dtb"] = os.path.join(work, TREE)
    card.mtools("mcopy", "-o", "::/" + TREE, files["dtb"])
    cmdline = card.mtools("mtype", "::/cmdline.txt").stdout.strip()
    return files, cmdline


def has_key_power(bitmap):
    """Whether an input device's KEY bitmap (/proc/bus/input/devices: the arm64 kernel's 64-bit
    words, highest first) has KEY_POWER (116)."""
    value = 0
    for word in bitmap.split():
        value = (value << 64) | int(word, 16)
    return bool(value >> 116 & 1)


def main(image):
    records = xunit.Records("Raspi3b")
    work = card_work_folder("babyalbum-raspi3b.")
    started = time.monotonic()
    try:
        card = Card(image, work)
        card.attach()
        files, cmdline = boot_files(card, work)
        card.add_shell("ttyS1")
        settings = os.path.join(work, "babyalbum.txt")
        card.mtools("mcopy", "-o", "::/babyalbum.txt", settings)
        with open(settings, "a", newline="") as f:  # the test's copy of the card only
            f.write("\r\nclock-module = ds3231\r\n")
        card.mtools("mcopy", "-o", settings, "::/babyalbum.txt")
        card.detach()
        size = grown_copy(card, work)
        print(f"raspi3b: {os.path.basename(files['kernel'])}, {os.path.basename(files['initrd'])}, {TREE}; "
              f"SD card {size >> 20} MiB; cmdline.txt: {cmdline}; added: {EXTRA}")
        machine = ["-M", "raspi3b", "-dtb", files["dtb"], "-append", cmdline + " " + EXTRA,
                   "-drive", f"file={card.path},if=sd,format=raw", "-serial", "null", "-serial", "SERIAL"]
        guest = Guest(card, work, files["kernel"], files["initrd"], cmdline, machine=machine,
                      accel=SINGLE_THREAD_TCG)
        try:
            guest.read_until("IMAGE-READY", 1500)
            shell = time.monotonic() - guest.started
            checks(guest, shell)
        finally:
            guest.kill()
        records.add(NAME, "passed", time.monotonic() - started)
        print("ok - " + NAME)
    except Exception as failure:  # noqa: BLE001 (recorded, then the exit status says it)
        records.add(NAME, "failed", time.monotonic() - started, f"{failure}")
        print(f"FAIL - {NAME}: {failure}")
    finally:
        shutil.rmtree(work, ignore_errors=True)
        records.write()
        print(records.line())
    return 1 if records.count("failed") else 0


#: fstab's mount points and what each must be (scripts/image's fstab): device, options required.
MOUNTS = (("/", "/dev/mmcblk0p2", ("ro", "noatime")), ("/boot/firmware", "/dev/mmcblk0p1", ("ro",)),
          ("/var/lib/babyalbum", "/dev/mmcblk0p3", ("rw",)))


def checks(guest, shell):
    # The clocks: the guest's CLOCK_MONOTONIC starts with its kernel; QEMU started `offset` s before.
    _, uptime = guest.sh("cat /proc/uptime", timeout=600)  # a loaded host: the shell may wait for minutes
    offset = (time.monotonic() - guest.started) - float(uptime.split()[0])
    _, system = guest.sh("timeout 900 systemctl is-system-running --wait; systemctl --failed --no-legend --plain",
                         timeout=1000)
    check_not_emergency(guest)
    _, journal = guest.sh("journalctl -b -u babyalbum.service -o short-monotonic --no-pager | head -n 40")
    _, state = guest.sh("systemctl show babyalbum.service -p ActiveState -p SubState -p NRestarts -p Result")
    service = dict(line.split("=", 1) for line in state.split() if "=" in line)
    first = re.search(r"^\[ *([\d.]+)\] .*Starting babyalbum\.service", journal, re.M)
    if not first:
        raise Failure("babyalbum.service never started; the system: " + " ".join(system.split()))
    since_qemu = offset + float(first.group(1))
    print(f"raspi3b: babyalbum.service started {since_qemu:.1f} s after QEMU started (the kernel "
          f"{offset:.1f} s after it, the test shell answered at {shell:.0f} s); the system: "
          + " ".join(system.split()))
    print("raspi3b: babyalbum.service now: " + " ".join(state.split()))
    print("raspi3b: the frame's log (QEMU's raspi3b has no vc4):\n  " + journal.strip().replace("\n", "\n  "))
    if service["ActiveState"] not in ("active", "activating", "reloading"):
        raise Failure(f"babyalbum.service is {service['ActiveState']} on raspi3b")

    points = " ".join(point for point, _, _ in MOUNTS)
    _, mounts = guest.sh(f"for m in {points}; do findmnt -rno TARGET,SOURCE,OPTIONS --mountpoint $m || echo $m -; done")
    print("raspi3b: mounts (target, source, options):\n  " + mounts.strip().replace("\n", "\n  "))
    found = {line.split()[0]: line.split()[1:] for line in mounts.strip().splitlines() if line.split()}
    for point, source, options in MOUNTS:
        seen = found.get(point, ["-"])
        if len(seen) < 2 or seen[0] != source or not set(options) <= set(seen[1].split(",")):
            raise Failure(f"{point} is not {source} with {','.join(options)} as fstab says: {' '.join(seen)}")

    _, root = guest.sh("cat /proc/cmdline; id=$(sed -n 's/.*root=PARTUUID=\\([0-9a-f]*\\)-02.*/\\1/p' /proc/cmdline); "
                       "for n in 02 01 03; do readlink -f /dev/disk/by-partuuid/$id-$n; done; "
                       "h=$(readlink -f /sys/block/mmcblk0/device/../../..); "
                       "echo ${h##*/} $(basename $(readlink -f $h/driver))")
    lines = root.strip().splitlines()
    print(f"raspi3b: root= on the command line: {' '.join(w for w in lines[0].split() if w.startswith('root'))}; "
          f"by the card's disk identifier: {', '.join(lines[1:4])}; "
          f"the SD card's host driver: {lines[4] if len(lines) > 4 else '?'}")
    if not re.search(r"(^| )root=PARTUUID=[0-9a-f]{8}-02( |$)", lines[0]) or lines[1:4] != [
            "/dev/mmcblk0p2", "/dev/mmcblk0p1", "/dev/mmcblk0p3"]:
        raise Failure("the root was not found by the card's disk identifier on mmcblk0p2: " + root)

    deadline, match = time.monotonic() + 120, None
    while not match and time.monotonic() < deadline:  # udev loads gpio_keys from the tree's node
        _, devices = guest.sh("cat /proc/bus/input/devices")
        match = EXIT_BUTTON.search(devices)
        if not match:
            time.sleep(2)
    if not match or not has_key_power(match.group(1)):
        raise Failure("no gpio-keys exit button with KEY_POWER in /proc/bus/input/devices:\n" + devices)
    print(f"raspi3b: the exit button: gpio-keys/input0, KEY bitmap {match.group(1).strip()} (KEY_POWER)")
    check_clock_bus(guest)
    _, doctor = guest.sh("babyalbum doctor 2>&1 | sed -n '/^BabyAlbum doctor/,$p' | head -n 40", timeout=600)
    print("raspi3b: babyalbum doctor says:\n  " + doctor.strip().replace("\n", "\n  "))
    inputs = re.search(r"^Input .*?(?=\n\S|\Z)", doctor, re.M | re.S)
    named = [line.strip() for line in (inputs.group(0) if inputs else "").splitlines()[1:] if "exit-button" in line
             or "gpio-keys" in line]
    if not named:
        raise Failure("babyalbum doctor's Input section names no gpio-keys exit button:\n" + doctor)
    print("raspi3b: doctor's Input section names the button: " + " | ".join(named))


def check_clock_bus(guest):
    """The tree's /clock-i2c node (scripts/dtb-clock-bus) is an I2C adapter: udev loads i2c-gpio
    from the node's compatible, and the adapter's of_node is the node."""
    command = ("for a in /sys/bus/i2c/devices/i2c-*; do [ \"$(readlink -f $a/of_node)\" = "
               "/sys/firmware/devicetree/base/clock-i2c ] && echo \"${a##*/} $(cat $a/name)\"; done")
    deadline, found = time.monotonic() + 120, ""
    while not found and time.monotonic() < deadline:
        _, found = guest.sh(command)
        found = found.strip()
        if not found:
            time.sleep(2)
    if not found:
        _, why = guest.sh("ls /sys/firmware/devicetree/base/clock-i2c; lsmod | grep i2c; ls /sys/bus/i2c/devices")
        raise Failure("the clock module's bus (/clock-i2c, i2c-gpio) is no I2C adapter:\n" + why)
    print(f"raspi3b: the clock module's bus: {found} (i2c-gpio on GPIO 23/24, of_node /clock-i2c)")
    # clock-module = ds3231 with nothing on QEMU's GPIO 23/24: one clear line, in doctor too.
    wanted = "clock module: no DS3231 answers on the clock bus"
    _, line = guest.sh("journalctl -b -u babyalbum-clock-module.service -o cat --no-pager | grep 'clock'")
    if wanted not in line:
        _, why = guest.sh("systemctl status babyalbum-clock-module.service --no-pager -l | tail -n 20")
        raise Failure(f"clock-module = ds3231 on an unwired bus did not say '{wanted}':\n{line}\n{why}")
    _, doctor = guest.sh("babyalbum doctor 2>&1 | grep -F 'clock module:'", timeout=600)
    if "warning: " + wanted not in doctor:
        raise Failure(f"babyalbum doctor does not warn '{wanted}': {doctor!r}")
    print(f"raspi3b: clock-module = ds3231, nothing wired: the journal says '{line.strip()}'; doctor:\n  "
          + doctor.strip().replace("\n", "\n  "))


def check_not_emergency(guest):
    """Fails with the journal's warnings when the card went to emergency mode. The boot's end is
    waited for by `systemctl is-system-running --wait`, which blocks on systemd's signal: a
    `systemctl show` every second until the service started, as before, ran beside the boot on
    the board's one emulated CPU thread."""
    if "emergency mode" in guest.console:
        guest.serial.sendall(b"\n")  # sulogin's "Press Enter" (the root is locked); the shell survives
        time.sleep(2)
        _, why = guest.sh("systemctl --failed --no-pager; journalctl -b -p warning --no-pager | tail -n 40")
        raise Failure("the card went to emergency mode:\n" + why)

if __name__ == "__main__":
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        sys.exit(64)
    sys.exit(main(sys.argv[1]))
