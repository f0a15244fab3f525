"""A card that never stops at a prompt, and its hardware watchdog (issue 63), for image_vm.py.

(w) The watchdog: the `virt` board with an i6300esb (a PCI watchdog Debian's kernel drives),
    QEMU's -watchdog-action reset (with -no-reboot, QEMU exits on the reset). systemd arms it
    (RuntimeWatchdogSec=, deploy/card/watchdog.conf); the guest keeps running while PID 1 pings it
    (the control: 45 s, three of its 15 s timeouts); then PID 1 is stopped (ptrace, from perl: a
    signal cannot stop PID 1) and the board must reset within the timeout and a margin.
(s) In one boot: a state partition that will not mount (wiped whole: with only its first MiB
    wiped, fsck repairs it from a backup superblock), a root whose check would fail (a feature
    flag e2fsck does not know, which the kernel still mounts read-only; with `fsck.repair=no` on
    the kernel's command line e2fsck -n exits 12, errors left uncorrected: the card's fstab gives
    the root pass 0, so nothing checks it at boot), and a unit that
    hangs before sysinit.target for ever. The frame shows a photo, systemd is not in emergency or
    rescue mode, and `babyalbum doctor` names the failed mount and the failed check.
(e) Emergency mode itself (a mount the boot requires, of a device that never comes), the frame
    kept from starting: no root prompt; deploy/card/boot-failed names what failed in the
    journal, shows its line on tty1 (read back from /dev/vcs1, the console's text), counts the
    failed boot (1, as it logs it and as the host reads it) and restarts the board. At its limit
    (a count of 3 written before the boot), the line says it does not restart and the board
    does not. With the same fault and the frame free to start (emergency mode does not stop the
    boot), the frame shows a photo, boot-failed does not restart the board, and no count is
    left on the partition.
(l) Partitions that come late: every device waited for 1 s only (systemd.default_device_timeout_sec=1
    on the kernel's command line; under emulation udev makes the card's links tens of seconds
    after systemd starts waiting), so the FAT, state and library mounts time out and the frame
    starts without them, as on a card whose udev is slow at a loaded first boot. When the devices
    come they are mounted (fstab's x-systemd.wanted-by= their device), and deploy/card/late-mount
    catches up: the FAT's photo is shown, babyalbum.txt is read again (a value of its own, so the
    frame starts again with it, in its own process: no restart by systemd), the units that
    failed for want of a partition run, and the slot is marked good (the slots file left at 2
    tries, as boot.scr leaves it, is back at 3).
The card's partitions, root and state are put back as they were before the next step.
"""

import os
import re
import struct
import subprocess
import time

import slots_step  # noqa: E402  (Tests/Image is on the path: image_vm, raspi3b)
from repo_paths import CARD_FILES  # noqa: E402


def card_seconds(name, pattern):
    """A number of seconds the card's own file `name` (in deploy/card) sets, read where `pattern`
    (a regular expression with one group) finds it, so that the test follows the card."""
    with open(os.path.join(CARD_FILES, name), encoding="utf-8") as file:
        found = re.search(pattern, file.read(), re.MULTILINE)
    if not found:
        raise RuntimeError(f"deploy/card/{name} no longer sets what {pattern!r} looks for")
    return int(found.group(1))


#: The watchdog's timeout on the card (deploy/card/watchdog.conf's RuntimeWatchdogSec).
RUNTIME_WATCHDOG_SECONDS = card_seconds("watchdog.conf", r"^RuntimeWatchdogSec=(\d+)s?$")
#: boot-failed's wait before it restarts the board, in the test copy (the card's is longer).
RESTART_AFTER = 20
#: The card's own wait (deploy/card/boot-failed's RESTART_AFTER).
CARD_RESTART_AFTER = card_seconds("boot-failed", r"^RESTART_AFTER=\$\{BABYALBUM_BOOT_FAILED_RESTART_AFTER:-(\d+)\}$")
HANG_UNIT = """[Unit]
Description=image test: a unit that hangs before sysinit.target for ever (test copies only)
DefaultDependencies=no
Before=sysinit.target
[Service]
Type=oneshot
ExecStart=/bin/sleep infinity
TimeoutStartSec=infinity
[Install]
WantedBy=sysinit.target
"""
RESTART_SOON = f"[Service]\nEnvironment=BABYALBUM_BOOT_FAILED_RESTART_AFTER={RESTART_AFTER}\n"
#: The test's drop-in that keeps the frame from starting (a failed boot in which nothing comes up),
#: beside the card's own (frame-card.conf) in that folder.
FRAME_DROP_INS = "/etc/systemd/system/babyalbum.service.d"
FRAME_HELD_BACK = "[Service]\nExecStartPre=/bin/false\n"
#: A mount the boot requires (not nofail) of a partition this card does not have.
MISSING_MOUNT = "PARTUUID=0badcafe-09 /mnt ext4 ro,x-systemd.device-timeout=10s 0 0\n"
STOP_PID1 = ("perl -e 'syscall(117, 0x4206, 1, 0, 0) == 0 or die \"PTRACE_SEIZE: $!\"; "
             "syscall(117, 0x4207, 1, 0, 0) == 0 or die \"PTRACE_INTERRUPT: $!\"; print \"PID 1 stopped\\n\"; sleep 600'")


def debugfs(vm, device, *commands):
    """Runs each debugfs command on `device`; debugfs exits 0 whatever happens, so anything it
    says past its banner is a failure."""
    for command in commands:
        said = vm.run("debugfs", "-w", "-R", command, device).stderr
        complaints = [line for line in said.splitlines() if line.strip() and not line.startswith("debugfs ")]
        if complaints:
            raise vm.Failure(f"debugfs '{command}' on {device}: " + " / ".join(complaints))


def root_file(vm, card, path):
    return vm.run("debugfs", "-R", f"cat {path}", card.part(card.SLOT_A)).stdout


def put_root_file(vm, card, work, path, text):
    """`path` on the card's root (debugfs: the root is read-only in the guest) holds `text`."""
    local = os.path.join(work, "root-file")
    with open(local, "w") as f:
        f.write(text)
    debugfs(vm, card.part(card.SLOT_A), f"rm {path}", f"write {local} {path}")


def remove_root_file(vm, card, path):
    vm.run("debugfs", "-w", "-R", f"rm {path}", card.part(card.SLOT_A), check=False)


def screen_text(guest):
    """What tty1 shows, as text (the console's memory, /dev/vcs1), and the active console."""
    _, out = guest.sh("cat /sys/class/tty/tty0/active; tr -s ' ' </dev/vcs1; echo")
    return out


def screen_showing(guest, text, timeout=20):
    """What tty1 shows once it holds `text`, or at `timeout`: a frame that keeps trying to start
    resets tty1 every 5 s (its TTYVTDisallocate=), and boot-failed shows its line again."""
    deadline = time.monotonic() + timeout
    while True:
        screen = screen_text(guest)
        if text in screen or time.monotonic() >= deadline:
            return screen
        time.sleep(1)


def wait_exit(guest, timeout):
    """Seconds until QEMU exits (the board reset, with -no-reboot), or None after `timeout`."""
    started = time.monotonic()
    try:
        guest.proc.wait(timeout)
    except subprocess.TimeoutExpired:
        return None
    return time.monotonic() - started


def check_watchdog(vm, card, work, boot_files):
    guest = vm.boot(card, work, boot_files, extra=["-device", "i6300esb", "-watchdog-action", "reset"])
    vm.wait_showing(guest)
    _, armed = guest.sh("cat /sys/class/watchdog/watchdog0/identity /sys/class/watchdog/watchdog0/state "
                        "/sys/class/watchdog/watchdog0/timeout 2>&1 | tr '\\n' ' '; echo; "
                        "journalctl -b -o cat _PID=1 | grep -i -m2 'watchdog' || true")
    words = armed.split()
    print("the watchdog: " + " ".join(armed.split("\n", 1)[0].split()) + " | PID 1: "
          + " / ".join(line.strip() for line in armed.strip().splitlines()[1:]))
    if "i6300ESB" not in armed or "active" not in words:
        raise vm.Failure("systemd did not arm the i6300esb watchdog: " + armed)
    if wait_exit(guest, 3 * RUNTIME_WATCHDOG_SECONDS) is not None:
        raise vm.Failure("the board reset while PID 1 was pinging its watchdog")
    guest.serial.sendall((STOP_PID1 + " &\n").encode())
    guest.read_until("PID 1 stopped", 60)
    seconds = wait_exit(guest, 4 * RUNTIME_WATCHDOG_SECONDS)
    if seconds is None:
        raise vm.Failure(f"PID 1 stopped, yet the board had not reset {4 * RUNTIME_WATCHDOG_SECONDS} s later")
    print(f"the watchdog: the board kept running {3 * RUNTIME_WATCHDOG_SECONDS} s while PID 1 pinged it, and "
          f"reset {seconds:.1f} s after PID 1 stopped (timeout {RUNTIME_WATCHDOG_SECONDS} s)")


#: A read-only-compatible feature bit no e2fsck knows (the kernel mounts such a file system read-only).
UNKNOWN_RO_COMPAT = 0x40000000


def crc32c(data, crc=0xFFFFFFFF):
    """CRC-32C (Castagnoli, reflected), as ext4's metadata_csum uses it, without the final xor."""
    for byte in data:
        crc ^= byte
        for _ in range(8):
            crc = (crc >> 1) ^ (0x82F63B78 if crc & 1 else 0)
    return crc


def with_unknown_feature(superblock):
    """The primary superblock (1024 bytes) with UNKNOWN_RO_COMPAT added to s_feature_ro_compat
    (offset 0x64) and its checksum (s_checksum, offset 0x3FC: CRC-32C of the bytes before it)
    made again. Only the primary is changed (debugfs cannot open the file system afterwards to
    change it back, and this leaves the backups as they were)."""
    block = bytearray(superblock)
    features = struct.unpack_from("<I", block, 0x64)[0]
    struct.pack_into("<I", block, 0x64, features | UNKNOWN_RO_COMPAT)
    struct.pack_into("<I", block, 0x3FC, crc32c(bytes(block[:0x3FC])))
    return bytes(block)


def superblock(device, block=None):
    """The primary superblock of `device` (bytes 1024 to 2047); written first when `block` is given."""
    with open(device, "r+b") as f:
        f.seek(1024)
        if block is not None:
            f.write(block)
            f.seek(1024)
        return f.read(1024)


def check_faults_at_boot(vm, card, work, boot_files):
    card.attach()
    state = card.part(card.STATE)
    with open(state, "rb") as f:
        kept = f.read()
    with open(state, "r+b") as f:
        f.write(bytes(len(kept)))
    hang = os.path.join(work, "image-test-hang.service")
    with open(hang, "w") as f:
        f.write(HANG_UNIT)
    debugfs(vm, card.part(card.SLOT_A), f"write {hang} /etc/systemd/system/image-test-hang.service",
            "symlink /etc/systemd/system/sysinit.target.wants/image-test-hang.service "
            "/etc/systemd/system/image-test-hang.service")
    # Last: debugfs cannot write to a file system with a feature it does not know.
    original = superblock(card.part(card.SLOT_A))
    superblock(card.part(card.SLOT_A), with_unknown_feature(original))
    if not vm.run("e2fsck", "-n", card.part(card.SLOT_A), check=False).returncode & 8:
        raise vm.Failure("the root with an unknown feature does not fail e2fsck (status 8, operational error)")
    try:
        kernel, initrd, cmdline = boot_files
        guest = vm.boot(card, work, (kernel, initrd, cmdline.replace("fsck.repair=yes", "fsck.repair=no")))
        shown = vm.wait_showing(guest, timeout=900)
        _, out = guest.sh("systemctl is-system-running; systemctl is-active emergency.target rescue.target; "
                          "systemctl list-units --failed --no-legend --plain | awk '{print $1}' | tr '\\n' ' '; echo; "
                          "systemctl is-active image-test-hang.service; "
                          "systemctl show -p ExecMainStartTimestampMonotonic --value systemd-fsck-root.service; echo")
        lines = out.strip().splitlines()
        print(f"the state partition wiped, the root's check failing and a unit hung before sysinit.target: a "
              f"photo {shown:.0f} s after QEMU's start; systemd: {' | '.join(lines)}")
        if any(line.strip() == "active" for line in lines[1:3]):
            raise vm.Failure("emergency or rescue mode: " + out)
        if lines[4].strip() != "activating":
            raise vm.Failure("the hanging unit is not hanging (the fault was not made): " + out)
        # The card's fstab gives the root pass 0: nothing checks it at boot, so its failing check
        # cannot stop the boot (with pass 1 Debian 13 went to emergency mode here, 2026-12-04).
        if lines[5].strip() not in ("", "0"):
            raise vm.Failure("the read-only root was checked at boot (fstab pass 0 expected): " + out)
        if "var-lib-babyalbum.mount" not in out:
            raise vm.Failure("var-lib-babyalbum.mount is not among the failed units: " + out)
        _, doctor = guest.sh("babyalbum doctor 2>&1 | grep -F 'failed in this boot' || true", timeout=300)
        print("babyalbum doctor: " + " / ".join(line.strip() for line in doctor.strip().splitlines()))
        for words in ["var-lib-babyalbum.mount failed in this boot: the state partition did not mount"]:
            if words not in doctor:
                raise vm.Failure(f"babyalbum doctor does not say '{words}': " + doctor)
        guest.kill()
    finally:
        card.attach()
        with open(card.part(card.STATE), "r+b") as f:
            f.write(kept)
        superblock(card.part(card.SLOT_A), original)
        remove_root_file(vm, card, "/etc/systemd/system/sysinit.target.wants/image-test-hang.service")
        remove_root_file(vm, card, "/etc/systemd/system/image-test-hang.service")
    if vm.run("e2fsck", "-n", card.part(card.SLOT_A), check=False).returncode != 0:
        raise vm.Failure("the root was not put back as it was")


def failures_counted(vm, card):
    card.settle_state()
    return vm.run("debugfs", "-R", "cat /boot-failures", card.part(card.STATE), check=False).stdout.strip()


def set_failures_counted(vm, card, work, count):
    """The state partition holds `count` failed boots in a row, as boot-failed writes them."""
    card.settle_state()
    local = os.path.join(work, "boot-failures")
    with open(local, "w") as f:
        f.write(f"{count}\n")
    vm.run("debugfs", "-w", "-R", "rm /boot-failures", card.part(card.STATE), check=False)
    debugfs(vm, card.part(card.STATE), f"write {local} /boot-failures")


def check_emergency(vm, card, work, boot_files):
    card.attach()
    fstab = root_file(vm, card, "/etc/fstab")
    put_root_file(vm, card, work, "/etc/fstab", fstab + MISSING_MOUNT)
    # The card's own emergency.service.d (deploy/card/emergency.conf) takes the test's drop-in too.
    restart_soon = os.path.join(work, "restart-soon.conf")
    with open(restart_soon, "w") as f:
        f.write(RESTART_SOON)
    debugfs(vm, card.part(card.SLOT_A), f"write {restart_soon} /etc/systemd/system/emergency.service.d/image-test.conf")
    hold_back = os.path.join(work, "frame-held-back.conf")
    with open(hold_back, "w") as f:
        f.write(FRAME_HELD_BACK)
    debugfs(vm, card.part(card.SLOT_A), f"write {hold_back} {FRAME_DROP_INS}/image-test.conf")
    try:
        # 1. A failed boot in which the frame cannot start either: the line, the journal, the
        # count of 1 (logged, and on the partition), a restart after RESTART_AFTER seconds.
        guest = vm.boot(card, work, boot_files)
        line = vm.journal_line(guest, "emergency.service", "babyalbum boot-failed:", 600)
        if line is None:
            _, out = guest.sh("systemctl is-active emergency.target; systemctl --failed --no-legend --plain")
            raise vm.Failure("no boot-failed line in emergency mode: " + out)
        screen = screen_showing(guest, "The frame could not start")
        print(f"emergency mode: '{line.strip()}'; tty1 shows: {' '.join(screen.split())[:300]}")
        if "The frame could not start" not in screen or "mnt.mount" not in screen:
            raise vm.Failure("tty1 does not show the line naming what failed: " + screen)
        if not screen.startswith("tty1"):
            raise vm.Failure("tty1 is not the console on screen: " + screen)
        # What the line names first: the mounts of fstab the boot needs that are not mounted, read
        # from the system (the journal's first lines of PID 1 were the frame's own failures in a
        # cold run, 2026-12-06).
        _, unmounted = guest.sh("/usr/lib/babyalbum/boot-failed unmounted")
        print(f"emergency mode: boot-failed's look at the mounts names: {unmounted.strip()}")
        if "mnt.mount - /mnt did not mount" not in unmounted:
            raise vm.Failure("boot-failed's own look at the mounts does not name the missing one: " + unmounted)
        # The card has no procps: the processes' names from /proc.
        _, prompt = guest.sh("cat /proc/[0-9]*/comm 2>/dev/null | grep -x -e sulogin -e systemd-sulogin- "
                             "|| echo 'no sulogin'")
        if "no sulogin" not in prompt:
            raise vm.Failure("a root prompt (sulogin) waits on the console: " + prompt)
        seconds = wait_exit(guest, RESTART_AFTER + 120)
        if seconds is None:
            raise vm.Failure(f"boot-failed did not restart the board within {RESTART_AFTER + 120} s")
        guest.kill()
        counted = failures_counted(vm, card)
        print(f"emergency mode: the board restarted {seconds:.0f} s after the line; failed boots in a row as "
              f"read on the host: {counted or 'no count'}")
        if "(failed boots in a row: 1)" not in line or counted != "1":
            raise vm.Failure(f"the first failed boot is not counted as 1: logged '{line.strip()}', on the "
                             f"state partition: {counted or 'no count'}")
        # 2. At the limit: a card that failed 3 boots in a row keeps its line and does not restart.
        set_failures_counted(vm, card, work, 3)
        guest = vm.boot(card, work, boot_files)
        line = vm.journal_line(guest, "emergency.service", "babyalbum boot-failed: not restarting", 600)
        screen = screen_showing(guest, "It does not restart by itself")
        print(f"at the limit: '{(line or 'no line').strip()}'; tty1 shows: {' '.join(screen.split())[:300]}")
        if line is None or "it tried 3 times" not in line or "It does not restart by itself" not in screen:
            raise vm.Failure("the fourth failed boot in a row does not say that it stops restarting: " + screen)
        seconds = wait_exit(guest, RESTART_AFTER + 30)
        if seconds is not None:
            raise vm.Failure(f"the board restarted {seconds:.0f} s after its fourth failed boot in a row")
        guest.kill()
        # 3. The same fault, the frame free to start: systemd's emergency mode does not stop the
        # boot (local-fs.target's OnFailure=), so the frame shows its photos beside it; boot-failed
        # then neither restarts the board nor counts the boot, and the frame's start clears the
        # count on the partition at once (a power cut seconds after the first photo keeps none).
        # With the card's own wait (300 s), not the test's 20: the frame is up once a photo is on
        # screen, and on a loaded machine that came more than 20 s after boot-failed's start (CI,
        # 2026-12-06: boot-failed gave up while the frame was decoding its first photo).
        card.attach()
        remove_root_file(vm, card, f"{FRAME_DROP_INS}/image-test.conf")
        remove_root_file(vm, card, "/etc/systemd/system/emergency.service.d/image-test.conf")
        guest = vm.boot(card, work, boot_files)
        vm.wait_showing(guest)
        line = vm.journal_line(guest, "emergency.service", "babyalbum boot-failed: not restarting", CARD_RESTART_AFTER + 300)
        print(f"the frame beside emergency mode: a photo on screen; '{(line or 'no line').strip()}'")
        if line is None or "the frame runs" not in line:
            raise vm.Failure("boot-failed does not leave the screen to a frame that runs: " + (line or "no line"))
        seconds = wait_exit(guest, 20)
        if seconds is not None:
            raise vm.Failure(f"the board restarted {seconds:.0f} s after boot-failed said the frame runs")
        guest.kill()
        counted = failures_counted(vm, card)
        print(f"the frame beside emergency mode: failed boots in a row as read on the host, the board cut: "
              f"{counted or 'none'}")
        if counted:
            raise vm.Failure(f"a boot whose frame ran left a count of failed boots: {counted}")
    finally:
        card.attach()
        put_root_file(vm, card, work, "/etc/fstab", fstab)
        remove_root_file(vm, card, "/etc/systemd/system/emergency.service.d/image-test.conf")
        remove_root_file(vm, card, f"{FRAME_DROP_INS}/image-test.conf")


#: The mounts that wait for the card's partitions (scripts/image's fstab), the root's excepted.
LATE_MOUNTS = ("/boot/firmware", "/var/lib/babyalbum", "/var/lib/babyalbum-sync", "/var/lib/babyalbum-library",
               "/var/lib/systemd/timesync")


def check_late_partitions(vm, card, work, boot_files):
    card.attach()
    kept = {name: card.fat_bytes("::/" + name) for name in ("babyalbum.txt",) + slots_step.SLOTS}
    vm.set_interval(card, work, 7)
    for name in slots_step.SLOTS:
        card.mtools("mcopy", "-o", slots_step.slots_file(work, "A B", 2, 3), "::/" + name)
    try:
        kernel, initrd, cmdline = boot_files
        guest = vm.boot(card, work, (kernel, initrd, cmdline + " systemd.default_device_timeout_sec=1"))
        shown = vm.journal_line(guest, "babyalbum.service", "showing /boot/firmware/photos/", 600)
        # Read again by the frame's reload, or by its start on the display (the frame may start
        # before the display's device comes, too): either way in the same process.
        again = vm.journal_line(guest, "babyalbum.service", " from /boot/firmware/babyalbum.txt, ", 120)
        marked = vm.journal_line(guest, "babyalbum-ready.service", "marked good (BOOT_A_LEFT 2 -> 3)", 180)
        _, out = guest.sh("i=0; while [ $i -lt 60 ]; do n=0; for m in " + " ".join(LATE_MOUNTS) + "; do "
                          "mountpoint -q $m && n=$((n+1)); done; [ $n = " + str(len(LATE_MOUNTS)) + " ] && break; "
                          "sleep 1; i=$((i+1)); done; for m in " + " ".join(LATE_MOUNTS) + "; do "
                          "mountpoint -q $m && echo mounted $m || echo NOT-mounted $m; done; "
                          "journalctl -b -o cat | grep -c 'Timed out waiting for device dev-disk-babyalbum-part'; "
                          "journalctl -b -o cat -u babyalbum-late-mount.service | grep -F 'late-mount:' | head -n 1; "
                          "systemctl show -P NRestarts babyalbum.service; systemctl show -P StatusText babyalbum.service; "
                          "systemctl is-active systemd-timesyncd.service babyalbum-library-open.path | tr '\n' ' '; echo; "
                          "fw_printenv -n BOOT_A_LEFT; fw_printenv -c /etc/babyalbum/fw_env.backup.config -n BOOT_A_LEFT",
                          timeout=300)
        lines = [line.removeprefix("> ") for line in out.strip().splitlines()]
        print(f"partitions 1 s late: {' | '.join(lines)}; the FAT's photo: {shown!r}; {again!r}; {marked!r}")
        if len(lines) < len(LATE_MOUNTS) + 7 or lines[len(LATE_MOUNTS)].strip() != "3":
            raise vm.Failure("the card's three partitions did not time out (the fault was not made): " + out)
        if any(not line.startswith("mounted ") for line in lines[:len(LATE_MOUNTS)]):
            raise vm.Failure("a partition that came late was not mounted when it came: " + out)
        if "late-mount: a partition of the card came after the frame had started" not in out:
            raise vm.Failure("late-mount did not catch up after the late mounts: " + out)
        if shown is None or again is None:
            raise vm.Failure(f"the frame did not show the FAT's photo ({shown!r}) or read babyalbum.txt again "
                             f"({again!r}) once the FAT came")
        restarts, status, active = (line.strip() for line in lines[len(LATE_MOUNTS) + 2:len(LATE_MOUNTS) + 5])
        if restarts != "0" or status != "showing photos":
            raise vm.Failure(f"the frame, started again with babyalbum.txt, was restarted by systemd {restarts} "
                             f"times (a frame that starts again must stay the service's process), or shows no photo "
                             f"({status!r}): " + out)
        if active.split() != ["active", "active"]:
            raise vm.Failure("the units that failed for want of a partition were not started when it came: " + out)
        if marked is None or [line.strip() for line in lines[-2:]] != ["3", "3"]:
            raise vm.Failure(f"the slot was not marked good once the FAT came ({marked!r}): " + out)
        guest.kill()
    finally:
        card.attach()
        for name, data in kept.items():
            if not data:
                card.mtools("mdel", "::/" + name, check=False)
                continue
            path = os.path.join(work, "kept-" + name)
            with open(path, "wb") as f:
                f.write(data)
            card.mtools("mcopy", "-o", path, "::/" + name)


def step_boot_health(vm, card, work, boot_files):
    """(w), (s), (e) and (l), as the module says."""
    check_late_partitions(vm, card, work, boot_files)
    check_watchdog(vm, card, work, boot_files)
    check_faults_at_boot(vm, card, work, boot_files)
    check_emergency(vm, card, work, boot_files)
