#!/usr/bin/python3
"""The SD card image of scripts/image, booted in qemu-system-aarch64 (issue 22).

The image's own kernel, initramfs (from its FAT partition) and root file system boot under
`-M virt -cpu cortex-a72` (TCG), the card a virtio-blk disk over a copy of the image, the display
virtio-gpu. The Pi's own firmware boot is not exercised (QEMU 7.2 emulates no Pi 4 display).

Checks:
1. boot: a photo from the FAT partition's photos/ is on screen, within +-2 of the amd64
   `--output png:` frame; the root is mounted read-only (findmnt); the time from QEMU's start
   to the first photo and `systemd-analyze critical-chain babyalbum.service` are printed;
1b. the network and the clock, one boot (clock_step.py, wifi_step.py; issue 36): no RTC, wired
   DHCP, Wi-Fi over mac80211_hwsim, NTP from the host's loopback, quiet hours once the clock is set;
2. card wear: sectors written to vda (/sys/block/vda/stat) with 10,000 photos over a stretch of
   the slideshow at a 1 s interval, scaled to a day; <= 20 MB a day;
3. power cuts: QEMU killed (SIGKILL, no shutdown) at random moments while photos change, the
   service restarts (state saves) and a photo is copied onto the FAT partition through a second
   mount; after each cut, on the host: fsck of every partition clean or repaired by -a/-p only,
   every photo and every copy completed at an earlier cut unchanged (sha256), every copy renamed
   in this boot complete, the state file valid or absent; then
   the next boot shows a photo. A quarter of the cuts (at least one) must hit a write.

Usage: Tests/Image/image_vm.py IMAGE [--cuts N] [--deadline UNIX-TIME] [--steps A,B | --leave-out A,B]
       (prints each step; exit 0 when all passed; 8 cuts unless the deadline stops them after 4,
       which makes the power cuts a partial record, skipped with the count, never "ok")
Each step's record (xunit) goes to $BABYALBUM_RESULTS/Image.xml when BABYALBUM_RESULTS is set; the
last line is "Image tests: N passed, M failed, K skipped".
Needs qemu-system-arm, dosfstools, mtools, e2fsprogs, util-linux (losetup), python3-pil; root.
"""

import argparse
import contextlib
import hashlib
import json
import os
import random
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time

from PIL import Image

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import sync_step  # noqa: E402  (Tests/Image/sync_step.py: the family library, issue 37)
import exit_button  # noqa: E402  (Tests/Image/exit_button.py: the check, shared with test_dtb_exit_button.py)
import clock_step  # noqa: E402  (Tests/Image/clock_step.py: the network and the clock, issue 36)
import slots_step  # noqa: E402  (Tests/Image/slots_step.py: two system slots through U-Boot, issue 64)
import update_step  # noqa: E402  (Tests/Image/update_step.py: an update from a USB stick, issue 64)
import update_cuts_step  # noqa: E402  (Tests/Image/update_cuts_step.py: power cuts during an update, issue 64)
import boot_health_step  # noqa: E402  (Tests/Image/boot_health_step.py: no dead end at boot, the watchdog, issue 63)
import test_dtb_clock_bus  # noqa: E402  (the clock module's bus in a decompiled tree)

from repo_paths import REPO  # noqa: E402  (Tests/Image/repo_paths.py)
sys.path.insert(0, os.path.join(REPO, "Tests", "Reporting"))
import xunit  # noqa: E402
sys.path.insert(0, os.path.join(REPO, "Tests", "VM"))
BIN = os.environ.get("BABYALBUM_BIN", os.path.join(REPO, ".build/release/babyalbum"))
SHELL_UNIT = """[Unit]
Description=image test shell on the serial console (test copies only)
DefaultDependencies=no
After=systemd-journald.socket systemd-sysctl.service
IgnoreOnIsolate=yes
[Service]
# Kernel messages off this console (dmesg -n 1, emergencies only): a driver probed late (the Pi 3's
# Bluetooth at 167 s) once wrote into a command's end marker, between its status and its newline.
ExecStart=/bin/sh -c 'dmesg -n 1; stty -echo; echo IMAGE-READY; exec /bin/sh'
StandardInput=tty
StandardOutput=tty
TTYPath=/dev/ttyAMA0
Environment=PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root TERM=dumb PS1=
"""


class Failure(Exception):
    pass


def card_work_folder(prefix):
    """A new folder for a run's copy of the card (2 GB) and its boot files, on disk: under
    $TMPDIR, else /var/tmp, never /tmp, which may be a small tmpfs (Debian 13's default)."""
    return tempfile.mkdtemp(prefix=prefix, dir=os.environ.get("TMPDIR", "/var/tmp"))


def run(*args, **kw):
    return subprocess.run(args, check=kw.pop("check", True), capture_output=True, text=True, **kw)


class Card:
    """A copy of the image, its partitions reachable on the host through a loop device."""

    #: The card's partitions (scripts/image): the FAT, system slots A and B, the extended
    #: partition 4 that holds the state and the library (the partitions a parent owns).
    FAT, SLOT_A, SLOT_B, STATE, LIBRARY = 1, 2, 3, 5, 6

    def __init__(self, image, work):
        self.path = os.path.join(work, "card.img")
        run("cp", "--sparse=always", image, self.path)
        self.loops = []

    def attach(self):
        """One loop device a partition (no udev here to make partition nodes); again after a
        change of the partition table. Every guest is powered off first: the host never touches
        a card in use (a step that failed mid-boot still has one)."""
        power_off_all()
        self.detach()
        table = json.loads(run("sfdisk", "-J", self.path).stdout)["partitiontable"]["partitions"]
        self.loops = [run("losetup", "--find", "--show", "--offset", str(p["start"] * 512), "--sizelimit",
                          str(p["size"] * 512), self.path).stdout.strip() for p in table]

    def detach(self):
        for loop in getattr(self, "loops", []):
            run("losetup", "-d", loop)
        self.loops = []

    def part(self, n):
        return self.loops[n - 1]

    def mtools(self, *args, check=True):
        env = dict(os.environ, MTOOLS_SKIP_CHECK="1")
        return run(args[0], "-i", self.part(1), *args[1:], env=env, check=check)

    def fat_bytes(self, name):
        """The bytes of the FAT partition's file `name` (empty when it is missing)."""
        return subprocess.run(["mtype", "-i", self.part(1), name], capture_output=True,
                              env=dict(os.environ, MTOOLS_SKIP_CHECK="1")).stdout

    def settle_state(self):
        """The state partition with its journal replayed (`e2fsck -y`), so that debugfs reads and
        writes what the guest wrote last, and the guest's next mount replays nothing over a test's
        write. Every guest is powered off and the partitions attached first."""
        self.attach()
        run("e2fsck", "-y", self.part(self.STATE), check=False)

    def state_file(self):
        out = run("debugfs", "-R", "cat /shuffle.state", self.part(self.STATE), check=False)
        return out.stdout

    def add_shell(self, tty="ttyAMA0"):
        """The test shell on `tty`, written into this copy's root (never into the image)."""
        unit = os.path.join(os.path.dirname(self.path), "image-test-shell.service")
        with open(unit, "w") as f:
            f.write(SHELL_UNIT.replace("/dev/ttyAMA0", f"/dev/{tty}"))
        cmds = ["write %s /etc/systemd/system/image-test-shell.service" % unit,
                "symlink /etc/systemd/system/sysinit.target.wants/image-test-shell.service "
                "/etc/systemd/system/image-test-shell.service",
                f"symlink /etc/systemd/system/serial-getty@{tty}.service /dev/null"]
        for cmd in cmds:
            run("debugfs", "-w", "-R", cmd, self.part(self.SLOT_A))


class Guest:
    """qemu-system-aarch64 on the card; a shell on the serial line (a UNIX socket)."""

    def __init__(self, card, work, kernel, initrd, cmdline, machine=None, extra=(), accel="tcg", reboot=False):
        """`machine`: QEMU's machine and devices (with the kernel command line's console), in
        place of the `virt` board with virtio disk, GPU and keyboard; its serial port must be
        SERIAL (replaced by the socket). `extra`: more QEMU arguments (a network, the RTC).
        `accel`: QEMU's -accel (SINGLE_THREAD_TCG, or multi-threaded TCG). No `kernel`: the
        machine's own firmware boots (`-bios` in `machine`). `reboot`: a reset restarts the board
        (U-Boot's `reset`, a kernel's panic=10) instead of ending QEMU."""
        self.work = work
        self.qmp_path = os.path.join(work, "qmp.sock")
        self.serial_path = os.path.join(work, "serial.sock")
        for p in (self.qmp_path, self.serial_path):
            if os.path.exists(p):
                os.unlink(p)
        self.started = time.monotonic()
        machine = machine or [
            "-M", "virt", "-cpu", "cortex-a72", "-smp", "2", "-m", "1024", "-append", cmdline + " console=ttyAMA0",
            "-drive", f"file={card.path},if=none,id=card,format=raw,cache=writeback", "-device", "virtio-blk-pci,drive=card",
            "-device", "virtio-gpu-pci", "-device", "virtio-keyboard-pci", "-serial", "SERIAL"]
        machine = machine + list(extra)
        serial = f"unix:{self.serial_path},server=on,wait=off"
        self.proc = subprocess.Popen(
            ["qemu-system-aarch64", "-accel", accel] + (["-kernel", kernel] if kernel else [])
            + (["-initrd", initrd] if initrd else [])
            + [serial if word == "SERIAL" else word for word in machine]
            + ["-display", "none"] + ([] if reboot else ["-no-reboot"]) + ["-qmp", f"unix:{self.qmp_path},server=on,wait=off", "-monitor", "none"],
            stdout=subprocess.DEVNULL, stderr=open(os.path.join(work, "qemu.log"), "w"))
        self.console = ""
        import codecs
        self.decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        self.serial = self._connect(self.serial_path)
        self.qmp_sock = self._connect(self.qmp_path)
        self.qmp_buf = b""
        self._qmp_read()
        self.qmp("qmp_capabilities")

    def _connect(self, path):
        for _ in range(200):
            try:
                s = socket.socket(socket.AF_UNIX)
                s.connect(path)
                return s
            except OSError:
                time.sleep(0.05)
        raise Failure("QEMU did not start: " + open(os.path.join(self.work, "qemu.log")).read())

    def read_until(self, pattern, timeout):
        deadline = time.monotonic() + timeout
        while True:
            m = re.search(pattern, self.console)
            if m:
                return m
            left = deadline - time.monotonic()
            if left <= 0 or self.proc.poll() is not None:
                raise Failure(f"no /{pattern}/ on the console; its end:\n{self.console[-3000:]}")
            self.serial.settimeout(min(left, 1))
            try:
                data = self.serial.recv(65536)
            except socket.timeout:
                continue
            self.console += self.decoder.decode(data)

    def sh(self, cmd, timeout=120):
        mark = "END%08d" % random.randrange(10**8)
        start = len(self.console)
        self.serial.sendall(f"{cmd}; echo {mark} $?\n".encode())
        m = self.read_until(mark + r" (\d+)\r?\n", timeout)
        out = re.sub(r"^(# )+", "", self.console[start:m.start()].lstrip("\r\n"))
        self.console = self.console[:start] + self.console[m.end():]
        return int(m.group(1)), out.replace("\r", "")

    def _qmp_read(self):
        while b"\n" not in self.qmp_buf:
            self.qmp_buf += self.qmp_sock.recv(65536)
        line, self.qmp_buf = self.qmp_buf.split(b"\n", 1)
        return line

    def qmp(self, command, **args):
        import json
        self.qmp_sock.sendall(json.dumps({"execute": command, "arguments": args}).encode() + b"\n")
        while True:
            reply = json.loads(self._qmp_read())
            if "return" in reply or "error" in reply:
                return reply

    def screendump(self, path):
        self.qmp("screendump", filename=path)
        with Image.open(path) as image:
            return image.convert("RGB")

    def kill(self):
        if self.proc.poll() is not None:
            return
        self.proc.kill()
        self.proc.wait()
        self.serial.close()
        self.qmp_sock.close()


def expected_frame(photo, work, size):
    folder = os.path.join(work, "expected-" + os.path.basename(photo))
    os.makedirs(folder, exist_ok=True)
    shutil.copy(photo, folder)
    out = folder + "-out"
    run(BIN, "--photos", folder, "--output", f"png:{out}", "--size", f"{size[0]}x{size[1]}", "--count", "1",
        "--sticks", "none", "--state-dir", "none", "--settings", "/nonexistent", timeout=300)
    with Image.open(os.path.join(out, "frame-0001.png")) as image:
        return image.convert("RGB")


def max_difference(a, b):
    if a.size != b.size:
        return 256
    pa, pb = a.tobytes(), b.tobytes()
    return max(abs(x - y) for x, y in zip(pa, pb))


LIVE = []
#: The boot step's time to the first photo (no network device), for the clock step's comparison.
FIRST_PHOTO = {}


def power_off_all():
    """Every guest of the run killed (the card's power cut), before a boot and before the host
    touches the card (Card.attach)."""
    for old in LIVE:
        old.kill()
    LIVE.clear()


def boot(card, work, boot_files, timeout=600, extra=(), accel="tcg"):
    card.detach()
    power_off_all()
    guest = Guest(card, work, *boot_files, extra=extra, accel=accel)
    LIVE.append(guest)
    guest.read_until("IMAGE-READY", timeout)
    return guest


def journal_line(guest, unit, text, timeout, attempt_seconds=60):
    """The first line of `unit` in this boot's journal that contains `text` (no quote in it),
    waited for in the guest by `journalctl --follow`, which the journal's writes wake; None after
    `timeout` seconds. Running journalctl again each second to ask took 10 to 14 s of the guest's
    CPU in a boot before the first photo (the shell's cgroup, two boots), against 1.5 to 1.8 s
    following, and a card's boot is short of CPU until then. One follower is not trusted with the
    whole wait: in a power-cut boot of a CI run one followed for its 600 s and never printed the
    frame's 'showing' lines that `systemctl status` printed right after, so each follower waits at
    most `attempt_seconds` and a new one, reading the journal afresh, takes over."""
    fifo = "/run/image-test-journal"
    deadline = time.monotonic() + timeout
    attempts = 0
    while True:
        attempts += 1
        seconds = max(1, min(attempt_seconds, round(deadline - time.monotonic())))
        _, out = guest.sh(f"(cut -d' ' -f1 /proc/uptime; rm -f {fifo}; mkfifo {fifo}; timeout {seconds} journalctl -b "
                          f"-f --no-tail -u {unit} -o short-monotonic >{fifo} & follower=$!; grep -m1 -F '{text}' "
                          f"<{fifo}; found=$?; kill $follower 2>/dev/null; rm -f {fifo}; exit $found)",
                          timeout=seconds + 60)
        found = re.search(r"^([\d.]+)$(?s:.*?)^\[ *([\d.]+)\] [^:\n]*: ([^\n]*" + re.escape(text) + r"[^\n]*)$", out, re.M)
        if found and attempts > 1 and float(found.group(2)) < float(found.group(1)) - 1:
            print(f"  (a journalctl -f missed '{text.strip()}' of {unit}, logged {found.group(2)} s after boot; "
                  f"follower {attempts}, started at {found.group(1)} s, printed it)")
        if found or time.monotonic() >= deadline:
            return found.group(3) if found else None


def report_failed_units(guest, boot):
    """Prints the units that failed in this boot, with their journal's last lines: on the card
    only the root is required, so a unit that would once have sent the boot to emergency mode is
    a failed unit the frame runs beside (issue 63)."""
    _, failed = guest.sh("systemctl list-units --failed --no-legend --plain | awk '{print $1}'")
    units = failed.split()
    if units:
        _, journal = guest.sh("journalctl -b -o short-monotonic --no-pager " + " ".join(f"-u '{u}'" for u in units)
                              + " | tail -n 20")
        print(f"  {boot}: failed units {' '.join(units)}:\n    " + journal.strip().replace("\n", "\n    "))
    return units


def wait_showing(guest, timeout=600):
    """Seconds from QEMU's start to the frame's first 'showing' line in the journal."""
    if journal_line(guest, "babyalbum.service", "showing ", timeout) is not None:
        return time.monotonic() - guest.started
    _, out = guest.sh("systemctl status babyalbum.service --no-pager -l | tail -n 30; echo '-- failed units:'; "
                      "systemctl list-units --failed --no-legend --plain; echo '-- the boot's warnings:'; "
                      "journalctl -b -p warning -o short-monotonic --no-pager | tail -n 40")
    raise Failure(f"no photo shown in {timeout} s; babyalbum.service:\n" + out)


def disk_identifier(card):
    """The card's MBR disk identifier, 8 hex digits."""
    table = json.loads(run("sfdisk", "-J", card.path).stdout)
    return table["partitiontable"]["id"].removeprefix("0x").lower().zfill(8)


def impostor_stick(work, disk_id):
    """A USB stick as a careless or hostile one could be (issue 61), a second card flashed from
    the same image as far as names go: the card's own disk identifier (so its partitions carry the
    card's PARTUUIDs ID-01, -05 and -06) and its labels, partition 1 a FAT labelled BABYALBUM with
    a babyalbum.txt of its own, 5 and 6 (logical, in an extended 4) ext4 labelled BA-STATE and
    BA-LIBRARY. Slots 2 and 3 are empty: the kernel's root= names the root by PARTUUID, and a
    second root of the same name is the one case left to chance (docs/card.md). Returns QEMU's arguments that plug it in (xHCI)."""
    path = os.path.join(work, "impostor-stick.img")
    parts = {}
    for name, label, size in (("fat", "BABYALBUM", 40), ("state", "BA-STATE", 16), ("library", "BA-LIBRARY", 16)):
        parts[name] = os.path.join(work, f"impostor-{name}.img")
        with open(parts[name], "wb") as f:
            f.truncate(size << 20)
        if name == "fat":
            run("mkfs.vfat", "-F", "32", "-n", label, parts[name])
            settings = os.path.join(work, "impostor-babyalbum.txt")
            with open(settings, "w") as f:
                f.write("interval = 1\nwifi-name = Impostor\nwifi-password = none\nwifi-country = DE\n")
            run("mcopy", "-i", parts[name], settings, "::/babyalbum.txt", env=dict(os.environ, MTOOLS_SKIP_CHECK="1"))
        else:
            run("mkfs.ext4", "-q", "-L", label, parts[name])
    with open(path, "wb") as f:
        f.truncate(80 << 20)
    table = (f"label: dos\nlabel-id: 0x{disk_id}\nunit: sectors\n1: start=2048, size=81920, type=c\n"
             "4: start=83968, size=79872, type=5\n5: start=86016, size=32768, type=83\n"
             "6: start=120832, size=32768, type=83\n")
    subprocess.run(["sfdisk", "-q", path], input=table, text=True, check=True)
    for name, start in (("fat", 2048), ("state", 86016), ("library", 120832)):
        run("dd", f"if={parts[name]}", f"of={path}", "bs=512", f"seek={start}", "conv=notrunc,sparse", "status=none")
        os.unlink(parts[name])
    return ["-drive", f"file={path},if=none,id=stick,format=raw,snapshot=on", "-device", "qemu-xhci,id=xhci",
            "-device", "usb-storage,bus=xhci.0,drive=stick"]


def check_own_partitions(guest, disk_id):
    """The card's own partitions are mounted though the stick beside it carries their labels and
    PARTUUIDs; the stick is there and carries them (the positive control)."""
    # The stick's xhci enumeration under emulation can come after the boot's mounts and outlast
    # `udevadm settle` (nothing is queued yet): the cold run's boot step found no /dev/sda. Up to
    # 90 s are given for it to appear; the mounts are read as they are.
    _, out = guest.sh("i=0; while [ ! -b /dev/sda ] && [ $i -lt 90 ]; do sleep 1; i=$((i+1)); done; "
                      "for m in / /boot/firmware /var/lib/babyalbum /var/lib/babyalbum-sync; do "
                      "findmnt -no SOURCE --mountpoint $m; done; udevadm settle --timeout=30; "
                      "lsblk -rno NAME,LABEL,PARTUUID /dev/sda 2>&1 | tr '\\n' ' '; echo; "
                      "ls /dev/disk/babyalbum | tr '\\n' ' '; echo; grep -o 'root=[^ ]*' /proc/cmdline", timeout=240)
    # systemd's status lines share the serial console (a failed mount of the stick, in colour).
    lines = [line for line in out.strip().splitlines() if "\x1b[" not in line]
    print("mounts with a stick of the card's disk identifier and labels plugged in: " + ", ".join(lines[:4])
          + f"; the stick: {lines[4] if len(lines) > 4 else '?'}; /dev/disk/babyalbum: "
          + f"{lines[5] if len(lines) > 5 else '?'}; {lines[-1]}")
    if lines[:4] != ["/dev/vda2", "/dev/vda1", "/dev/vda5", "/dev/vda6"]:
        raise Failure("a partition was not the card's own with the impostor stick plugged in: " + out)
    if len(lines) < 7 or "BABYALBUM" not in lines[4] or f"{disk_id}-01" not in lines[4] or \
            f"{disk_id}-06" not in lines[4]:
        raise Failure("the impostor stick, with the card's labels and PARTUUIDs, was not seen by the card "
                      "(no positive control): " + out)
    if lines[5].split() != ["part1", "part2", "part3", "part4", "part5", "part6"]:
        raise Failure("/dev/disk/babyalbum does not hold the card's six partitions alone: " + out)
    if lines[-1] != f"root=PARTUUID={disk_id}-02":
        raise Failure("the root is not named by the card's disk identifier: " + lines[-1])


def step_boot(card, work, boot_files, photo):
    disk_id = disk_identifier(card)
    guest = boot(card, work, boot_files, extra=impostor_stick(work, disk_id))
    shown_after = wait_showing(guest)
    check_own_partitions(guest, disk_id)
    # The console in graphics mode (no kernel text over the photos): Debian 13 makes /dev/tty0
    # 0600, and the frame then takes its own tty1 (/dev/tty).
    _, console = guest.sh("journalctl -b -u babyalbum.service -o cat | grep -F 'console text may show' || true")
    if console.strip():
        raise Failure("the frame could not put the console in graphics mode: " + console.strip())
    print("console: in graphics mode (no 'console text may show over the photos' in the frame's log)")
    status, mounts = guest.sh("findmnt -no OPTIONS /; findmnt -no OPTIONS /boot/firmware; findmnt -no OPTIONS /var/lib/babyalbum")
    print("mounts (/, /boot/firmware, /var/lib/babyalbum):", " | ".join(mounts.split()))
    root_options = mounts.split()[0].split(",")
    if "ro" not in root_options:
        raise Failure("the root is not read-only: " + mounts)
    _, size = guest.sh("cat /sys/class/drm/card0-Virtual-1/modes | head -n1")
    w, h = (int(x) for x in size.strip().split("x"))
    expected = expected_frame(photo, work, (w, h))
    deadline = time.monotonic() + 120
    while True:
        screen = guest.screendump(os.path.join(work, "screen.ppm"))
        diff = max_difference(screen, expected)
        if diff <= 2:
            break
        if time.monotonic() > deadline:
            screen.save(os.path.join(tempfile.gettempdir(), "babyalbum-image-screen.png"))
            raise Failure(f"the screen differs from the amd64 frame by up to {diff}")
        time.sleep(1)
    print(f"screen matches the amd64 --output png: frame (max difference {diff}) at {w}x{h}")
    print(f"time to first photo: {shown_after:.1f} s from QEMU start (the log's first 'showing' line)")
    FIRST_PHOTO["without network"] = shown_after
    # The chain and the startup time exist only once the boot has finished. Waiting for it took
    # 35 s more of the step (the sync service still starting); what is still running is printed
    # instead. Printed, not checked: systemd-analyze is held to 60 s (in a cold run beside three
    # other guests it printed nothing in the shell's 120 s, 2026-12-06, and failed the step).
    _, chain = guest.sh("if systemctl is-system-running | grep -qv starting; then "
                        "echo 'systemd-analyze critical-chain babyalbum.service:'; "
                        "timeout 60 systemd-analyze critical-chain babyalbum.service --no-pager && "
                        "timeout 30 systemd-analyze --no-pager || echo '  (systemd-analyze did not answer in time)'; "
                        "else echo 'the boot had not finished at the first photo; its jobs left:'; "
                        "systemctl list-jobs --no-pager --no-legend | awk '{print \"  \" $2 \" \" $3 \" \" $4}'; fi",
                        timeout=240)
    print(chain.strip())
    guest.kill()


def vda_sectors_written(guest):
    _, out = guest.sh("cat /sys/block/vda/stat")
    fields = [line.split() for line in out.splitlines() if len(line.split()) >= 11][-1]
    return int(fields[6]), int(fields[8])  # sectors written, in flight


def partition_sectors_written(guest):
    """Sectors written to each of the card's partitions since the boot (vda1: FAT, vda2: slot A,
    vda3: slot B, vda5: state, vda6: library)."""
    _, out = guest.sh("for p in /sys/block/vda/vda[0-9]*; do echo ${p##*/} $(cat $p/stat); done")
    return {fields[0]: int(fields[7]) for fields in (line.split() for line in out.splitlines())
            if len(fields) >= 11 and fields[0].startswith("vda")}


#: What the card-wear step takes beyond its two windows: 10,000 photos copied, a boot, the first save.
WEAR_OVERHEAD = 240


def step_wear(card, work, boot_files, seconds):
    started = time.monotonic()
    card.attach()
    folder = os.path.join(work, "many")
    os.makedirs(folder, exist_ok=True)
    # The card's writes are the state saves, which neither a photo's size nor fades change. The
    # photo is duck.png made 48x27: 1,600x900 decoded every second kept the emulated guest at
    # 110 % of a host CPU for the whole step, CPU the steps beside it need.
    src = os.path.join(work, "small-duck.png")
    with Image.open(os.path.join(REPO, "Photos", "duck.png")) as duck:
        duck.convert("RGB").resize((48, 27)).save(src)
    # 100 folders of 100: mtools is quadratic in one folder's size (this kernel has no vfat).
    for i in range(10000):
        os.makedirs(os.path.join(folder, f"{i // 100:03d}"), exist_ok=True)
        shutil.copyfile(src, os.path.join(folder, f"{i // 100:03d}", f"photo-{i:05d}.png"))
    card.mtools("mcopy", "-s", "-Q", *[os.path.join(folder, d) for d in sorted(os.listdir(folder))], "::/photos/")
    set_interval(card, work, 1, transition="none")
    # Nor does the screen's size: 640x400 rather than 1280x800 (a photo a second for a minute,
    # measured: 35.2 s of host CPU against 44.3).
    guest = boot(card, work, boot_files, extra=["-global", "virtio-gpu-pci.xres=640", "-global", "virtio-gpu-pci.yres=400"])
    wait_showing(guest)
    time.sleep(20)  # the first save and the walk's end
    # Two windows of `seconds`: the first holds the start's one-off writes (the whole round's
    # rewrite once the folder walk has ended), the second only the steady 5-minute journal saves.
    marks = [(vda_sectors_written(guest)[0], time.monotonic())]
    partitions = [partition_sectors_written(guest)]
    for window in range(2):
        if window == 1:
            guest.sh("touch /run/wear-window")
        time.sleep(seconds)
        marks.append((vda_sectors_written(guest)[0], time.monotonic()))
        partitions.append(partition_sectors_written(guest))
    _, count = guest.sh("journalctl -b -u babyalbum.service -o cat | grep -c 'showing '")
    _, changed = guest.sh("find /var/lib/babyalbum /var/lib/babyalbum-sync /boot/firmware -xdev -newer "
                          "/run/wear-window 2>/dev/null | head -n 20")
    guest.kill()
    (s0, t0), (s1, t1), (s2, t2) = marks
    start_mb = (s1 - s0) * 512 / 1e6
    steady_per_day = (s2 - s1) * 512 * 86400 / (t2 - t1) / 1e6
    # A frame switched off at the wall every day starts once a day: the steady rate scaled by
    # time, plus the start's writes once.
    per_day = steady_per_day + start_mb
    print(f"card wear with 10,000 photos (48x27) at a 1 s interval, no fades, on a 640x400 screen ({count.strip()} photos shown in the boot): "
          f"{s1 - s0} sectors in the first {t1 - t0:.0f} s after start, {s2 - s1} sectors in the next "
          f"{t2 - t1:.0f} s; {steady_per_day:.2f} MB a day steady (scaled by time) + {start_mb:.2f} MB a "
          f"start = {per_day:.2f} MB a day with one start a day (goal <= 20); the step took "
          f"{time.monotonic() - started:.0f} s")
    print("  the next window's sectors by partition: " + ", ".join(
        f"{name} {partitions[2][name] - partitions[1].get(name, 0)}" for name in sorted(partitions[2]))
        + "; changed in it: " + (" ".join(changed.split()) or "nothing"))
    if per_day > 20:
        raise Failure(f"{per_day:.1f} MB a day > 20")


def set_interval(card, work, seconds, transition=None):
    """`interval = seconds` (and `transition`, when given) appended to the card's babyalbum.txt."""
    path = os.path.join(work, "babyalbum.txt")
    card.mtools("mcopy", "-o", "::/babyalbum.txt", path)
    with open(path, "a", newline="") as f:
        f.write(f"\r\ninterval = {seconds}\r\n")
        if transition:
            f.write(f"transition = {transition}\r\n")
    card.mtools("mcopy", "-o", path, "::/babyalbum.txt")


def checksums(card):
    out = card.mtools("mdir", "-b", "-/", "::/photos").stdout.split()
    sums = {}
    for name in out:
        if name.endswith("/"):
            continue
        sums[name] = hashlib.sha256(card.fat_bytes(name)).hexdigest()
    return sums


def fsck_all(card, reports=None):
    """fsck of each partition: clean, or repaired by what -a/-p may do; returns what was repaired.
    `reports`, when given, gets each repaired partition's whole first report ({number: text})."""
    repaired = []
    ext4 = (["e2fsck", "-n", "-f"], ["e2fsck", "-p"])
    # The FAT, slot A (the system that runs), the state and the library: not the empty slot B,
    # nor the extended partition 4 (a container whose loop device starts with a partition table).
    for n, check, fix in ((card.FAT, ["fsck.vfat", "-n"], ["fsck.vfat", "-a"]), (card.SLOT_A, *ext4),
                          (card.STATE, *ext4), (card.LIBRARY, *ext4)):
        first = run(*check, card.part(n), check=False)
        if first.returncode == 0:
            continue
        second = run(*fix, card.part(n), check=False)
        if second.returncode not in (0, 1):
            raise Failure(f"partition {n}: fsck could not repair it automatically:\n{first.stdout}\n{second.stdout}")
        if reports is not None:
            reports[n] = first.stdout
        found = [line for line in first.stdout.splitlines() if line.strip() and not line.startswith(("fsck.fat", "e2fsck"))]
        # The first lines say what and where (fsck.vfat: the differing bytes, offset:original/backup).
        repaired.append(f"p{n}: {' '.join(line.strip() for line in found[:3]) if found else first.returncode}")
    return repaired


def state_valid(text):
    if text == "":
        return True
    lines = text.split("\n")
    if lines[0] != "babyalbum-shuffle 1" or lines[-1] != "" or not lines[-2].startswith("end "):
        return False
    entries = sum(1 for line in lines if line.startswith(("remaining ", "shown ")))
    return int(lines[-2][4:]) == entries


#: Runs in the guest during a cut's window: restarts of the service (state saves) and photos
#: copied onto the FAT partition through a second, read-write mount, the way a careful copier
#: does it (to a .part name, sync, rename, sync) through a read-write remount. copy-C-N.bin (cut
#: C, copy N) holds "copy-C-N" repeated. Each cut's copier writes names of its own, so no rename
#: replaces a file, which FAT cannot do atomically (cut 5 of a cold run found copy-6.bin, which had
#: replaced the previous boot's copy-6.bin, damaged; its report did not say how), and a copy
#: completed at an earlier cut is a file that must survive every later cut unchanged, as the
#: photos must. A failure now prints the damaged file's size and first bytes and fsck's report.
ACTIVITY = r"""
# A second mount of the partition would share the frame's read-only superblock: the copy goes
# through the same partition remounted read-write, as a parent's computer would write it.
mount -o remount,rw /boot/firmware
dest=/boot/firmware
(while true; do sleep 2; systemctl restart babyalbum.service; done) &
i=0
while true; do
    i=$((i+1))
    yes copy-CUT-$i | head -c 3000000 >$dest/photos/copy-CUT-$i.bin.part && sync && mv $dest/photos/copy-CUT-$i.bin.part $dest/photos/copy-CUT-$i.bin && sync
done
"""


def copy_content(name):
    """What the copier's copy `name` holds when complete; None for any other file."""
    m = re.fullmatch(r"::/photos/(copy-\d+-\d+)\.bin", name)
    return (((m.group(1) + "\n").encode()) * 3000000)[:3000000] if m else None


def damage(card, name):
    """How the file `name` of the FAT partition differs from what it should hold: its size and its
    first bytes (empty when it is missing)."""
    data = card.fat_bytes(name)
    expected = copy_content(name)
    first = next((i for i, (a, b) in enumerate(zip(data, expected or b"")) if a != b), None)
    return (f" ({len(data)} bytes; starts {data[:24]!r}"
            + (f"; first difference at byte {first}" if first is not None else "") + ")")


def fat_after_cut(card, reports):
    """For a failure's message: fsck's first report of the FAT partition (`reports` of fsck_all)
    and the listing of photos/ after the cut."""
    return (f"; fsck of the FAT partition:\n{reports.get(1, 'clean')}\nphotos/ after the cut:\n"
            + card.mtools("mdir", "-/", "::/photos", check=False).stdout[-3000:])


def copy_of_cut(name, cut):
    return name.startswith(f"::/photos/copy-{cut}-") and copy_content(name) is not None


def copy_index(name, cut):
    """N of the cut's copy copy-CUT-N.bin or copy-CUT-N.bin.part; None for any other name."""
    m = re.fullmatch(rf"::/photos/copy-{cut}-(\d+)\.bin(\.part)?", name)
    return int(m.group(1)) if m else None


def rename_not_yet_synced(name, names, cut):
    """Whether `name` is the cut's last copy, with nothing of a later one on the partition: the
    cut may then have come between its rename and the sync after it. FAT's rename (vfat_rename)
    writes the new name's entry with no clusters and size 0, and the file's clusters and size into
    it only when the inode is written back: a cut in between leaves the new name empty (seen in a
    cold run, 2026-12-07: copy-1-16.bin 0 bytes, fsck reclaimed its 3 MB). A copy followed by
    another is past its second sync and must be whole."""
    index = copy_index(name, cut)
    return index is not None and all((copy_index(other, cut) or 0) <= index for other in names)


def start_activity(guest, cut):
    import base64
    script = base64.b64encode(ACTIVITY.replace("CUT", str(cut)).encode()).decode()
    guest.sh(f"echo {script} | base64 -d >/run/activity.sh; (setsid sh /run/activity.sh >/run/activity.log 2>&1 </dev/null &)")


#: Cuts always made, whatever the time budget.
MINIMUM_CUTS = 4
#: The cuts of the test command (Tests/Image/run --cuts 20 is the soak).
DEFAULT_CUTS = 8


def require_writes_hit(made, hit):
    """At least a quarter of the cuts made (and at least one) hit a write: cuts of an idle disk
    alone would prove nothing about a write cut short."""
    needed = max(1, made // 4)
    if hit < needed:
        raise Failure(f"only {hit} of {made} cuts hit a write (at least {needed} must): "
                      "the cuts did not test a write cut short")


def out_of_time(deadline, durations, reserve):
    """Whether another cut (as long as the slowest so far) and `reserve` seconds would pass the deadline."""
    return bool(deadline) and time.time() + max(durations) + reserve > deadline


def step_power_cuts(card, work, boot_files, cuts, seed, deadline=0, reserve=0):
    """`cuts` power cuts; past MINIMUM_CUTS, no cut starts that would end after `deadline` (a Unix
    time; 0 for none) less `reserve` seconds for the steps after this one. Returns None when all
    were made, or why fewer were (the step is then a partial record, not "ok")."""
    rng = random.Random(seed)
    durations = []
    card.attach()
    for name in ("duck.png", "balloons.png"):  # more than one photo: each restart saves a new state
        card.mtools("mcopy", "-o", os.path.join(REPO, "Photos", name), "::/photos/")
    before = checksums(card)
    hit = 0
    made = 0
    for n in range(1, cuts + 1):
        # The reserve adds the boot that ends this step (about as long as a cut) to the later steps'.
        if n > MINIMUM_CUTS and out_of_time(deadline, durations, reserve + max(durations)):
            print(f"cuts stopped after {made} of {cuts}: the next would pass the test command's time budget "
                  f"(BABYALBUM_IMAGE_DEADLINE; the slowest cut took {max(durations):.0f} s)")
            break
        cut_started = time.monotonic()
        card.detach()
        guest = boot(card, work, boot_files)
        wait_showing(guest)
        report_failed_units(guest, f"the boot before cut {n}")
        start_activity(guest, n)
        delay = rng.uniform(0.5, 12)
        time.sleep(max(0, delay - 0.5))
        w0, _ = vda_sectors_written(guest)
        time.sleep(0.5)
        w1, inflight = vda_sectors_written(guest)
        guest.kill()
        writing = w1 > w0 or inflight > 0
        hit += writing
        card.attach()
        reports = {}
        repaired = fsck_all(card, reports)
        after = checksums(card)
        for name, digest in before.items():
            if after.get(name) != digest:
                raise Failure(f"cut {n}: {name}, complete before the cut, "
                              + (f"changed{damage(card, name)}" if name in after else "is missing")
                              + fat_after_cut(card, reports))
        copied = [name for name in after if copy_of_cut(name, n)]
        for name in copied:
            if after[name] != hashlib.sha256(copy_content(name)).hexdigest():
                if rename_not_yet_synced(name, after, n):
                    print(f"cut {n}: {name}, the last copy, renamed but cut before the sync after its rename: "
                          f"not whole{damage(card, name)}; allowed (FAT writes a renamed entry's size later)")
                    continue
                raise Failure(f"cut {n}: {name}, renamed after a sync and followed by another copy, is "
                              f"damaged{damage(card, name)}" + fat_after_cut(card, reports))
        state = card.state_file()
        if not state_valid(state):
            raise Failure(f"cut {n}: the state file is not valid:\n{state[:500]}")
        print(f"cut {n}/{cuts} after {delay:.1f} s: {'during writes' if writing else 'idle disk'}; "
              f"fsck {'clean' if not repaired else 'repaired by -a/-p: ' + '; '.join(repaired)}; "
              f"{len(before)} files unchanged (photos and earlier cuts' copies); {len(copied)} copies completed; state "
              f"{'absent' if not state else 'valid'}")
        # What must survive the next cut: the photos and every completed copy (no later copier
        # writes its name again); not a .part, a copy still under way.
        before = {k: v for k, v in after.items() if not k.endswith(".part")}
        made = n
        durations.append(time.monotonic() - cut_started)
    card.detach()
    guest = boot(card, work, boot_files)
    wait_showing(guest)
    guest.kill()
    print(f"power cuts: {made} of {made} survived, {hit} of them while the disk was being written; the last boot "
          f"shows a photo; {sum(durations) / len(durations):.0f} s a cut on average")
    require_writes_hit(made, hit)
    if made < cuts:
        return (f"only {made} of {cuts} cuts made (each survived, {hit} hit a write); the next would "
                "have passed the test command's time budget (BABYALBUM_IMAGE_DEADLINE)")
    return None


#: How much larger than the image the library step makes the card (a real card is GBs larger).
LIBRARY_GROWTH_MIB = 256


def mbr(card):
    with open(card.path, "rb") as f:
        return f.read(512)


def library_sizes(guest):
    """The library's end (partition 6) and the disk's size (sectors), its size and its ext4's (MiB,
    from the superblock)."""
    _, out = guest.sh("cat /sys/class/block/vda6/start /sys/class/block/vda6/size /sys/class/block/vda/size; "
                      "tune2fs -l /dev/vda6 | sed -n 's/^Block count: *//p; s/^Block size: *//p'")
    start, size, disk, blocks, block_size = (int(x) for x in out.split())
    return start + size, disk, size // 2048, blocks * block_size // (1024 * 1024)


def shown_names(guest):
    _, out = guest.sh("journalctl -b -u babyalbum.service -o cat | grep 'showing '")
    return out


def cut_after_partition_write(card, work, boot_files, before, timeout=600):
    """Boots the card and cuts its power (QEMU killed) as soon as the first boot's write to the
    MBR reaches the card (the extended partition grown; the library's own entry may or may not
    be): the worst moment, partition table changed, file system not grown."""
    card.detach()
    power_off_all()
    guest = Guest(card, work, *boot_files)
    LIVE.append(guest)
    deadline = time.monotonic() + timeout
    while mbr(card) == before:
        if guest.proc.poll() is not None or time.monotonic() > deadline:
            guest.kill()
            raise Failure("the first boot never rewrote the partition table (QEMU ended or it took too long)")
        time.sleep(0.02)
    guest.kill()
    print(f"  power cut {time.monotonic() - guest.started:.1f} s after power-on, just after the partition table "
          "was rewritten (the file system not yet grown)")


def step_library(card, work, boot_files):
    """The family library partition (issue 37): the first boot of a card larger than the image
    grows the extended partition 4 and the library in it, partition 6, to the card's end, and its
    power is cut the moment the MBR is written; the next boot finishes the job (its ext4 grown online) and shows the library's
    photos with the FAT partition's, and the library's ext4 is clean after it. That a later boot
    grows nothing is checked on the sync step's first boot (check_grown_once), which saves a card
    boot (about 80 s of host CPU)."""
    card.detach()
    with open(card.path, "r+b") as f:
        f.truncate(os.path.getsize(card.path) + LIBRARY_GROWTH_MIB * 1024 * 1024)
    card.attach()
    put_in_library(card, os.path.join(REPO, "Photos", "duck.png"), "library-duck.png")
    settings = os.path.join(work, "babyalbum.txt.before-library")
    card.mtools("mcopy", "-o", "::/babyalbum.txt", settings)
    # Cut in, not faded: under TCG a blended picture takes longer than a refresh, so each fade
    # kept the guest's CPU busy for its whole second. The card runs its default fades in the boot
    # and power-cut steps.
    set_interval(card, work, 2, transition="none")
    try:
        check_library_grown(card, work, boot_files)
    finally:
        card.attach()
        card.mtools("mcopy", "-o", settings, "::/babyalbum.txt")  # the later steps' own settings
        empty_library(card)


def check_library_grown(card, work, boot_files):
    before = mbr(card)
    cut_after_partition_write(card, work, boot_files, before)
    guest = boot(card, work, boot_files)
    wait_showing(guest)
    _, grew = guest.sh("journalctl -b -o cat -u babyalbum-grow-library.service -u 'systemd-growfs@*' | grep -v '^Finished\\|^Starting'")
    print("  the boot after the cut:", " | ".join(grew.strip().splitlines()))
    # The cut came after the MBR's write (the extended partition 4 grown); the library's own entry
    # (partition 6, in the extended partition) is written next, and the cut may come before it.
    if not ("already fills" in grew or "grown by" in grew) or "Successfully resized" not in grew:
        raise Failure("the boot after the cut did not finish growing the library (its file system):\n" + grew)
    end, disk, part_mib, fs_mib = library_sizes(guest)
    print(f"  partition 6 ends at sector {end} of {disk}: {part_mib} MiB, its ext4 {fs_mib} MiB")
    if disk - end >= 2048 or fs_mib < part_mib - 1:
        raise Failure(f"the library does not fill the card: partition end {end} of {disk}, ext4 {fs_mib} of {part_mib} MiB")
    _, options = guest.sh("findmnt -no OPTIONS /var/lib/babyalbum-sync")
    if not {"rw", "noatime"} <= set(options.strip().split(",")):
        raise Failure("the library is not mounted rw,noatime: " + options)
    deadline = time.monotonic() + 180
    while not all(n in shown_names(guest) for n in ("library-duck.png", "balloons.png")):
        if time.monotonic() > deadline:
            _, seen = guest.sh("findmnt /var/lib/babyalbum-library; ls -la /var/lib/babyalbum-library; "
                               "journalctl -b -o short-monotonic -u babyalbum.service -u 'var-lib-babyalbum*' "
                               "| tail -n 25")
            raise Failure("the library's photo and the FAT's were not both shown:\n" + shown_names(guest)[-2000:]
                          + "\n" + seen)
        time.sleep(2)
    print("  shown from both folders: library-duck.png (library), balloons.png (FAT)")
    freeze_library(guest)
    guest.kill()
    grown = mbr(card)
    if grown == before:
        raise Failure("the partition table did not change on the card")
    GROWN_TABLE["mbr"] = grown
    card.attach()
    check = run("e2fsck", "-n", "-f", card.part(card.LIBRARY), check=False)
    if check.returncode != 0:
        raise Failure("the library's fsck is not clean:\n" + check.stdout)


#: The partition table the library step's growth wrote ("mbr": its first sector), for the next
#: boot's check that nothing more is grown (check_grown_once).
GROWN_TABLE = {}


def check_grown_once(guest):
    """On the first boot after the library step (the sync step's): grow-library finds partition 4
    filling the card and leaves the partition table as the growth wrote it (the card's first
    sector, read in the guest, unchanged). Without the library step in this run the card is the
    image's size, and this checks that the image's own library partition is not grown."""
    _, again = guest.sh("journalctl -b -o cat -u babyalbum-grow-library.service | grep grow-library")
    print("  the first boot after the library step's:", " | ".join(again.strip().splitlines()))
    if "already fills" not in again:
        raise Failure("the boot after the library's growth did not find the library grown:\n" + again)
    if "mbr" in GROWN_TABLE:
        _, digest = guest.sh("head -c 512 /dev/vda | sha256sum")
        if digest.split()[0] != hashlib.sha256(GROWN_TABLE["mbr"]).hexdigest():
            raise Failure("the boot after the library's growth changed the partition table")
        print("  its partition table is the one the growth wrote (sha256 of the first sector)")


#: Where the card mounts its family library (partition 4).
LIBRARY_MOUNT = "/var/lib/babyalbum-sync"


def freeze_library(guest):
    """Freezes the library's file system before the host checks it with a read-only fsck. Frozen,
    ext4 has its journal written back into place (as for a snapshot), so `e2fsck -n`, which skips
    the journal's recovery, sees what the journal holds. After a mere sync the newest metadata may
    be in the journal only, and e2fsck -n then reports the stale blocks as errors (a CI run:
    'deleted/unused inode' and bitmap differences in a file system whose journal was sound)."""
    status, out = guest.sh(f"fsfreeze --freeze {LIBRARY_MOUNT}", timeout=120)
    if status != 0:
        raise Failure(f"fsfreeze {LIBRARY_MOUNT} before the host's fsck failed: {out}")


@contextlib.contextmanager
def library_mounted(card):
    """The card's library partition mounted on the host. Never written with debugfs: a power cut
    leaves its journal to replay, and a replay at the next mount would undo debugfs's writes
    (the file's inode handed to the next new file)."""
    card.attach()
    mount = tempfile.mkdtemp(prefix="library.")
    run("mount", card.part(card.LIBRARY), mount)
    try:
        yield os.path.join(mount, "photos")
    finally:
        run("umount", mount)
        os.rmdir(mount)


def put_in_library(card, source, name):
    """`source` in the library's photos/ as `name`, readable by all as Syncthing's files are by
    the frame's group."""
    with library_mounted(card) as photos:
        shutil.copyfile(source, os.path.join(photos, name))
        os.chmod(os.path.join(photos, name), 0o644)


def empty_library(card):
    """Removes every photo a step put on the library partition, so that the later steps show the
    FAT partition's photo alone (Syncthing's own files stay)."""
    with library_mounted(card) as photos:
        for name in os.listdir(photos):
            path = os.path.join(photos, name)
            if os.path.isdir(path) and not os.path.islink(path):
                shutil.rmtree(path)
            else:
                os.unlink(path)


def step_device_trees(card, work):
    """Every Pi device tree on the FAT partition describes the exit button itself (decompiled with
    dtc), and config.txt names no overlay (the card carries no overlays/ folder)."""
    names = card.mtools("mdir", "-b", "::/").stdout.split()
    trees = sorted(os.path.basename(n) for n in names if n.endswith(".dtb"))
    missing = [name for name in exit_button.PI_TREES if name not in trees]
    if missing:
        raise Failure(f"the card lacks the device trees {missing} (it has {trees})")
    for name in trees:
        path = os.path.join(work, name)
        card.mtools("mcopy", "-o", "::/" + name, path)
        source = run("dtc", "-q", "-I", "dtb", "-O", "dts", path).stdout
        problems = exit_button.problems(source) + test_dtb_clock_bus.bus_problems(source)
        if problems:
            raise Failure(f"{name}: {'; '.join(problems)}")
    config = card.mtools("mtype", "::/config.txt").stdout
    overlays = re.findall(r"^\s*dtoverlay=\S+", config, re.M)
    if overlays:
        raise Failure(f"config.txt names overlays the card does not carry: {overlays}")
    print(f"  the exit button (gpio-keys, KEY_POWER, GPIO 3 active low) and the clock module's bus (i2c-gpio, "
          f"GPIO 23/24) in all {len(trees)} device trees: "
          + ", ".join(trees))


def debian_tree_tests(records):
    """scripts/dtb-exit-button and scripts/dtb-clock-bus on the Pi trees of Debian's
    linux-image-arm64, card or no card (Tests/Image/test_dtb_exit_button.py and
    test_dtb_clock_bus.py, which also run on their own): one record a test."""
    import unittest
    import test_dtb_exit_button
    print("the exit button and the clock module's bus on Debian's own trees (Tests/Image/test_dtb_*.py):")
    for module in (test_dtb_exit_button, test_dtb_clock_bus):
        suite = unittest.defaultTestLoader.loadTestsFromModule(module)
        xunit.run_unittest(records, suite, verbosity=1)


def slot_link_target(slot, link):
    """The path in the slot's file system (the partition `slot`) that the symbolic link `link`
    (Debian's /vmlinuz, /initrd.img: relative to /) points at; `link` itself when it is no link."""
    name = re.search(r'Fast link dest: "([^"]+)"', run("debugfs", "-R", f"stat {link}", slot).stdout)
    return "/" + name.group(1).lstrip("/") if name else link


def virt_boot_files(card, work):
    """Slot A's kernel and initramfs (/vmlinuz, /initrd.img), copied from its root into `work`, and
    the command line its boot.scr gives (root= slot A by the card's disk identifier, rauc.slot=A,
    panic=10, /boot/cmdline.env) without its console= words (the guest's console is the serial
    port). `virt` has no U-Boot of the card's: QEMU loads the slot's kernel as U-Boot would."""
    kernel, initrd = os.path.join(work, "vmlinuz"), os.path.join(work, "initrd.img")
    slot = card.part(card.SLOT_A)
    for link, local in (("/vmlinuz", kernel), ("/initrd.img", initrd)):
        run("debugfs", "-R", f"dump {slot_link_target(slot, link)} {local}", slot)
        if not os.path.getsize(local):
            raise Failure(f"slot A has no {link} for U-Boot to load")
    env = run("debugfs", "-R", "cat /boot/cmdline.env", slot).stdout.strip()
    if not env.startswith("ba_cmdline="):
        raise Failure(f"slot A's /boot/cmdline.env is not one ba_cmdline= line: {env!r}")
    cmdline = f"root=PARTUUID={disk_identifier(card)}-02 rauc.slot=A panic=10 " + env.removeprefix("ba_cmdline=")
    return kernel, initrd, " ".join(w for w in cmdline.split() if not w.startswith("console="))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("image")
    parser.add_argument("--cuts", type=int, default=int(os.environ.get("BABYALBUM_IMAGE_CUTS", DEFAULT_CUTS)))
    parser.add_argument("--deadline", type=float, default=float(os.environ.get("BABYALBUM_IMAGE_DEADLINE", "0")),
                        help="a Unix time: past MINIMUM_CUTS cuts, none starts that would end the suite after it")
    parser.add_argument("--wear-seconds", type=int, default=int(os.environ.get("BABYALBUM_IMAGE_WEAR_SECONDS", "330")))
    parser.add_argument("--seed", type=int, default=int(time.time()))
    parser.add_argument("--steps", help="only these steps, by the name before the colon, comma-separated "
                        "(e.g. clock); the others are left out of the run and its records")
    parser.add_argument("--leave-out", default="", help="every step but these (as --steps); left out of the "
                        "run and its records: another run makes them")
    options = parser.parse_args()
    # A misspelt step name would leave its step out of every lane in silence.
    named = (options.steps.split(",") if options.steps is not None else []) + [
        name for name in options.leave_out.split(",") if name]
    named += [name for name in os.environ.get("BABYALBUM_IMAGE_STEPS", "").split(",") if name]
    unknown = sorted(set(named) - set(STEP_NAMES))
    if unknown:
        parser.error(f"no such step: {', '.join(unknown)} (the steps: {', '.join(STEP_NAMES)})")
    work = card_work_folder("babyalbum-image-test.")
    records = xunit.Records("Image")
    try:
        card = Card(options.image, work)
        card.attach()
        photo = os.path.join(REPO, "Photos", "balloons.png")
        card.mtools("mcopy", photo, "::/photos/")
        card.add_shell()
        boot_files = virt_boot_files(card, work)
        cmdline = boot_files[2]
        print(f"seed {options.seed}; kernel command line: {cmdline}")
        if chosen(options, "device trees") and listed_in_environment("device trees"):
            debian_tree_tests(records)
        for name, body in (("device trees: the exit button in every Pi tree", lambda: step_device_trees(card, work)),
                           ("boot: a photo of the FAT partition on screen, read-only root", lambda: step_boot(card, work, boot_files, photo)),
                           ("boot health: the watchdog resets a hung PID 1; a lost state partition, a hung unit "
                            "and emergency mode never stop at a prompt",
                            lambda: boot_health_step.step_boot_health(sys.modules[__name__], card, work, boot_files)),
                           ("library: grown once at the first boot, its photos shown", lambda: step_library(card, work, boot_files)),
                           ("slots: U-Boot falls back from a slot whose initramfs is damaged; the slot that shows a photo is marked good",
                            lambda: slots_step.step_slots(sys.modules[__name__], card, work)),
                           ("update: a signed bundle from a USB stick boots in slot B, another key's, a tampered and an unsigned one are refused, "
                            "nothing a parent owns changes", lambda: update_step.step_update(sys.modules[__name__], card, work)),
                           ("update cuts: five power cuts during an install and slot B's first boots; a photo after "
                            "each, slot B marked good in the end", lambda: update_cuts_step.step_update_cuts(
                                sys.modules[__name__], card, work, options.seed)),
                           ("sync: the family library paired from babyalbum.txt, 30 photos arrive",
                            lambda: sync_step.step_sync(sys.modules[__name__], card, work, boot_files)),
                           ("clock: no RTC, wired DHCP, NTP sets the clock, quiet hours follow it",
                            lambda: clock_step.step_clock(sys.modules[__name__], card, work, boot_files,
                                                          FIRST_PHOTO.get("without network"))),
                           ("power cuts", lambda: step_power_cuts(card, work, boot_files, options.cuts, options.seed,
                                                                  options.deadline, wear_reserve(options))),
                           ("card wear", lambda: step_wear(card, work, boot_files, options.wear_seconds))):
            step = name.split(":")[0]
            assert step in STEP_NAMES, f"the step {step!r} is missing from STEP_NAMES"
            if not chosen(options, step):
                continue
            if not listed_in_environment(step):
                records.add(name, "skipped", 0, "not in BABYALBUM_IMAGE_STEPS")
                print(f"skipped - {name}: not in BABYALBUM_IMAGE_STEPS")
                continue
            run_step(records, name, body, card)
    finally:
        shutil.rmtree(work, ignore_errors=True)
        print(records.line())
    return 1 if records.count("failed") else 0


def wear_reserve(options):
    """The seconds the card-wear step takes after the power cuts, when this run makes it."""
    return WEAR_OVERHEAD + 2 * options.wear_seconds if chosen(options, "card wear") else 0


#: Every step's name (the words before the colon of its record), for --steps, --leave-out and
#: BABYALBUM_IMAGE_STEPS; scripts/test's lanes together run them all.
STEP_NAMES = ["device trees", "boot", "boot health", "library", "slots", "update", "update cuts", "sync", "clock",
              "power cuts", "card wear"]


def chosen(options, step):
    """Whether this run makes `step` (the name before the colon), by --steps and --leave-out."""
    if options.steps is not None:
        return step in options.steps.split(",")
    return step not in options.leave_out.split(",")


def listed_in_environment(step):
    """Whether BABYALBUM_IMAGE_STEPS, when set, names `step`: the steps it leaves out are recorded
    as skipped (unlike --steps and --leave-out, whose steps another run makes)."""
    wanted = os.environ.get("BABYALBUM_IMAGE_STEPS")
    return not wanted or step in wanted.split(",")


def run_step(records, name, body, card):
    """Runs one step and records it: passed ("ok"), failed, or skipped when it did less than it
    promises (its body returns why)."""
    started = time.monotonic()
    try:
        partial = body()
        if partial:
            records.add(name, "skipped", time.monotonic() - started, partial)
            print(f"partial - {name}: {partial}")
        else:
            records.add(name, "passed", time.monotonic() - started)
            print("ok - " + name)
    except Exception as failure:  # noqa: BLE001 (recorded; anything but a Failure still ends the run)
        records.add(name, "failed", time.monotonic() - started, f"{failure}")
        print(f"FAIL - {name}: {failure}")
        if not isinstance(failure, Failure):
            raise
    finally:
        for guest in LIVE:
            guest.kill()
        card.detach()


if __name__ == "__main__":
    sys.exit(main())
