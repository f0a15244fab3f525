"""The card's two system slots through U-Boot (issue 64), on QEMU's `virt` board with Debian's
U-Boot for it (u-boot-qemu's qemu_arm64, `-bios`), which runs the card's own boot.scr from its FAT
as the Pi's U-Boot does (the Pi's cannot show a screen under QEMU: Tests/Image/raspi3b.py).

The test's copy of the card gets what a bad update would leave, twice; each time it is switched
on once and left alone.
1. A damaged initramfs: slot B a copy of slot A with the file its /initrd.img points at
   overwritten with junk, the slots file as update-check leaves it after an install (`B A`, 3
   tries, `BA_TRIAL=B`). boot.scr takes a try from B, finds its initramfs is not the CRC32 of
   /boot/boot-files.crc32, marks B with no tries left, resets; then it boots A, whose frame shows
   a photo, and slot-good gives A its 3 tries back and says the update was rolled back (its
   journal line and update-result): the slots file and its copy say B 0, A 3, no trial. (Before
   2026-12-07 boot.scr checked nothing: Linux started with the junk, panicked, and on a Pi could
   not restart; here it was a kernel of junk, which booti refuses.)
2. A frame that starts but cannot show a photo: slot B a copy of slot A without its decode
   workers (/usr/libexec/babyalbum/babyalbum-decoder-*, as an update that lost a library leaves
   a system), the slots file as update-check leaves it after an install (`B A`, 3 tries,
   `BA_TRIAL=B`), and B's slot-trial timer at 100 s instead of 10 minutes (a drop-in in the
   test's copy). B's frame starts, draws black and says ready with "no photo on the screen: none
   of the ... photos could be read", which must not mark B good (before 2026-12-07 the frame said
   ready at its first black screen, and such an update proved itself): in B's first boot the test
   holds the timer until it has read slot-good's line, then starts slot-trial itself. B boots 3
   times and each time slot-trial reboots it; then U-Boot boots A, whose first photo ends the trial: "rolled
   back: the update in slot B never showed a photo".
Slot B's copy and the slots files are removed again for the later steps.
"""
import os
import re
import subprocess
import time

UBOOT = "/usr/lib/u-boot/qemu_arm64/u-boot.bin"  # Debian's u-boot-qemu (scripts/install-deps --test)
SLOTS = ("babyalbum-slots.env", "babyalbum-slots.bak")
DECODERS = "/usr/libexec/babyalbum"  # the package's decode workers, one a format family
#: update-result's line after the rollback (deploy/card/slot-good): the time, then what happened.
ROLLED_BACK = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ rolled back: the update in slot B never showed a photo; "
                         r"slot A runs \S+", re.M)
SLOT_LINE = r"babyalbum: slot (\w) \((\w+) \d+:(\d)\), BOOT_ORDER=([AB ]+), (\w+) tries left after this one \(read from ([^)]*)\)"


def slots_file(work, order, a_left, b_left, trial=None):
    """The slots file as boot.scr writes it (`env export -c -s 0x4000`): CRC32 and the variables."""
    text = os.path.join(work, "slots.txt")
    with open(text, "w") as f:
        f.write(f"BOOT_ORDER={order}\nBOOT_A_LEFT={a_left}\nBOOT_B_LEFT={b_left}\n")
        if trial:
            f.write(f"BA_TRIAL={trial}\n")
    binary = os.path.join(work, "slots.env")
    subprocess.run(["mkenvimage", "-s", "0x4000", "-o", binary, text], check=True, capture_output=True)
    return binary


def copy_slot_a_to_b(vm, card):
    """Slot B as an update writes it: slot A's file system, block for block (its own size only)."""
    header = vm.run("dumpe2fs", "-h", card.part(card.SLOT_A)).stdout
    blocks = int(re.search(r"^Block count:\s*(\d+)", header, re.M).group(1))
    size = int(re.search(r"^Block size:\s*(\d+)", header, re.M).group(1))
    vm.run("dd", f"if={card.part(card.SLOT_A)}", f"of={card.part(card.SLOT_B)}", "bs=4M", f"count={blocks * size}",
           "iflag=count_bytes", "conv=sparse,fsync", "status=none")
    return blocks * size


def break_initramfs(vm, card, work):
    """Slot B's initramfs (the file /initrd.img points at) overwritten with 4 MiB of junk."""
    target = vm.slot_link_target(card.part(card.SLOT_B), "/initrd.img")
    junk = os.path.join(work, "junk-initramfs")
    with open(junk, "wb") as f:
        f.write(os.urandom(4 << 20))
    vm.run("debugfs", "-w", "-R", f"rm {target}", card.part(card.SLOT_B))
    vm.run("debugfs", "-w", "-R", f"write {junk} {target}", card.part(card.SLOT_B))
    return target


def break_decoders(vm, card, work):
    """Slot B's decode workers (every /usr/libexec/babyalbum/babyalbum-decoder-*) removed, so its
    frame starts and reads no photo, and its slot-trial timer at 100 s. Returns their names."""
    slot = card.part(card.SLOT_B)
    listing = vm.run("debugfs", "-R", f"ls {DECODERS}", slot).stdout
    programs = sorted(set(re.findall(r"babyalbum-decoder-[\w-]+", listing)))
    if not programs:
        raise vm.Failure(f"slot B has no decode workers in {DECODERS} to remove: {listing!r}")
    drop_in = os.path.join(work, "trial-test.conf")
    with open(drop_in, "w") as f:
        f.write("[Timer]\nOnBootSec=\nOnBootSec=100s\n")
    for command in ([f"rm {DECODERS}/{name}" for name in programs] +
                    ["mkdir /etc/systemd/system/babyalbum-slot-trial.timer.d",
                     f"write {drop_in} /etc/systemd/system/babyalbum-slot-trial.timer.d/test.conf"]):
        vm.run("debugfs", "-w", "-R", command, slot)
    return programs


def forget_update_result(vm, card):
    """No update-result on the state partition, so the line a case reads is the one its own boot
    wrote, not an earlier case's."""
    card.settle_state()
    vm.run("debugfs", "-w", "-R", "rm /update-result", card.part(card.STATE), check=False)


def update_result(guest, limit=120):
    """/var/lib/babyalbum/update-result once it says ROLLED_BACK, or as it is after `limit` s:
    slot-good writes it after its journal line, which the journal follower sees at once (a cold
    run's look right after the line found no file, 2026-12-06)."""
    deadline = time.monotonic() + limit
    while True:
        _, result = guest.sh("cat /var/lib/babyalbum/update-result 2>&1")
        if ROLLED_BACK.search(result) or time.monotonic() > deadline:
            return result
        time.sleep(2)


def u_boot_guest(vm, card, work):
    card.detach()
    vm.power_off_all()
    machine = ["-M", "virt", "-cpu", "cortex-a72", "-smp", "2", "-m", "1024", "-bios", UBOOT,
               "-drive", f"file={card.path},if=none,id=card,format=raw,cache=writeback", "-device",
               "virtio-blk-pci,drive=card", "-device", "virtio-gpu-pci", "-device", "virtio-keyboard-pci",
               "-serial", "SERIAL"]
    guest = vm.Guest(card, work, None, None, "", machine=machine, reboot=True)
    vm.LIVE.append(guest)
    return guest


def step_slots(vm, card, work):
    if not os.path.exists(UBOOT):
        raise vm.Failure(f"{UBOOT} is missing: scripts/install-deps --test installs u-boot-qemu")
    try:
        damaged_initramfs(vm, card, work)
        broken_frame(vm, card, work)
    finally:
        card.attach()
        for name in SLOTS:
            card.mtools("mdel", "::/" + name, check=False)
        vm.run("wipefs", "-a", "-q", card.part(card.SLOT_B), check=False)


def damaged_initramfs(vm, card, work):
    forget_update_result(vm, card)
    copied = copy_slot_a_to_b(vm, card)
    target = break_initramfs(vm, card, work)
    state = slots_file(work, "B A", 3, 3, trial="B")
    for name in SLOTS:
        card.mtools("mcopy", "-o", state, "::/" + name)
    print(f"  slot B: slot A's file system ({copied >> 20} MiB) with {target} overwritten by junk; "
          "the slots file and its copy: BOOT_ORDER=B A, 3 tries each, BA_TRIAL=B (as update-check leaves them)")
    guest = u_boot_guest(vm, card, work)
    try:
        guest.read_until("IMAGE-READY", 900)
        lines = re.findall(SLOT_LINE, guest.console)
        print("  boot.scr's lines: " + " | ".join(
            f"slot {s} ({dev} {part}), BOOT_ORDER={order}, {left} left, from {source}" for s, dev, part, order, left, source in lines))
        refused = re.search(r"babyalbum: slot B cannot be booted[^\n]*", guest.console)
        why = re.search(r"babyalbum: slot B: its kernel or initramfs is damaged[^\n]*", guest.console)
        if len(lines) != 2 or lines[0][0] != "B" or lines[0][2] != "3" or not refused or not why:
            raise vm.Failure("boot.scr did not try slot B, find its initramfs damaged and give it up before slot A:\n" +
                             guest.console[-4000:])
        if "Starting kernel" in guest.console[:refused.start()]:
            raise vm.Failure("U-Boot started slot B's kernel with its damaged initramfs:\n" + guest.console[-4000:])
        if lines[1][:5] != ("A", "virtio", "2", "B A", "2") or lines[1][5] != "babyalbum-slots.env":
            raise vm.Failure(f"after slot B, boot.scr did not boot slot A from its slots file: {lines[1]}")
        if "babyalbum: slot A: its kernel and initramfs are as built" not in guest.console[refused.end():]:
            raise vm.Failure("boot.scr did not find slot A's kernel and initramfs as built:\n" + guest.console[-4000:])
        print(f"  U-Boot on slot B: {why.group(0).strip()}; {refused.group(0).strip()}")
        shown = vm.wait_showing(guest)
        _, cmdline = guest.sh("grep -o 'rauc.slot=[AB]' /proc/cmdline; findmnt -no SOURCE /")
        if cmdline.split() != ["rauc.slot=A", "/dev/vda2"]:
            raise vm.Failure(f"Linux did not run slot A from vda2: {cmdline!r}")
        marked = vm.journal_line(guest, "babyalbum-ready.service", "slot-good:", 120)
        _, env = guest.sh("fw_printenv BOOT_ORDER BOOT_A_LEFT BOOT_B_LEFT; "
                          "fw_printenv -c /etc/babyalbum/fw_env.backup.config BOOT_ORDER BOOT_A_LEFT BOOT_B_LEFT; "
                          "findmnt -no OPTIONS /boot/firmware | cut -d, -f1")
        print(f"  slot A showed a photo {shown:.0f} s after power-on; {marked or 'no slot-good line'}; "
              f"the slots file and its copy: {' '.join(env.split())}")
        if not marked or "marked good" not in marked:
            raise vm.Failure(f"slot A showed a photo but slot-good did not mark it: {marked!r}")
        rolled_back = vm.journal_line(guest, "babyalbum-ready.service", "rolled back", 120)
        result = update_result(guest)
        _, trial = guest.sh("t=$(fw_printenv -n BA_TRIAL 2>/dev/null); echo BA_TRIAL=${t:-none}")
        print(f"  then: {rolled_back}; {trial.strip()}; update-result: {result.strip()}")
        if env.split() != ["BOOT_ORDER=B", "A", "BOOT_A_LEFT=3", "BOOT_B_LEFT=0"] * 2 + ["ro"]:
            raise vm.Failure("the slots file does not say B given up and A good (or the FAT stayed read-write): " + env)
        if not rolled_back or not ROLLED_BACK.search(result) or trial.split() != ["BA_TRIAL=none"]:
            raise vm.Failure(f"slot B's damaged update was not said to be rolled back: {rolled_back!r}, "
                             f"update-result {result!r}, {trial.strip()}")
    finally:
        guest.kill()


def broken_frame(vm, card, work):
    forget_update_result(vm, card)
    copy_slot_a_to_b(vm, card)
    removed = break_decoders(vm, card, work)
    state = slots_file(work, "B A", 3, 3, trial="B")
    for name in SLOTS:
        card.mtools("mcopy", "-o", state, "::/" + name)
    print(f"  slot B: slot A's file system without {', '.join(removed)} and slot-trial at 100 s; the slots "
          "file and its copy: BOOT_ORDER=B A, 3 tries each, BA_TRIAL=B (as update-check leaves them)")
    guest = u_boot_guest(vm, card, work)
    started = time.monotonic()
    try:
        # B's first boot: its frame starts and says why it shows nothing; slot-good leaves B on trial.
        # The trial's timer is held until that line is read, and its service then started by hand.
        guest.read_until(r"slot B \(virtio 0:3\)[\s\S]*IMAGE-READY", 900)
        guest.sh("systemctl stop babyalbum-slot-trial.timer")
        refused = vm.journal_line(guest, "babyalbum-ready.service", "slot-good:", 180)
        print(f"  slot B's first boot: {refused}")
        if not refused or "on trial and its frame shows no photo (no photo on the screen: none of" not in refused:
            raise vm.Failure(f"slot B's frame, which can read no photo, was not left on trial: {refused!r}")
        guest.sh("systemctl --no-block start babyalbum-slot-trial.service")
        guest.read_until(r"slot A \(virtio 0:2\)[\s\S]*IMAGE-READY", 1800)
        lines = re.findall(SLOT_LINE, guest.console)
        print("  boot.scr's lines: " + " | ".join(f"slot {s}, {left} left" for s, _, _, _, left, _ in lines)
              + f" ({time.monotonic() - started:.0f} s)")
        if [(s, left) for s, _, _, _, left, _ in lines] != [("B", "2"), ("B", "1"), ("B", "0"), ("A", "2")]:
            raise vm.Failure(f"slot B was not booted 3 times before slot A: {lines}")
        vm.wait_showing(guest)
        marked = vm.journal_line(guest, "babyalbum-ready.service", "rolled back", 120)
        # The trial closed: fw_setenv without a value leaves BA_TRIAL empty or gone.
        _, env = guest.sh("fw_printenv BOOT_ORDER BOOT_A_LEFT BOOT_B_LEFT; t=$(fw_printenv -n BA_TRIAL 2>/dev/null); "
                          "echo BA_TRIAL=${t:-none}")
        result = update_result(guest)
        print(f"  slot A's frame: {marked}; then: {' '.join(env.split())}; update-result: {result.strip()}")
        if not marked or "rolled back: the update in slot B never showed a photo" not in marked:
            raise vm.Failure(f"slot A showed a photo but no rollback was said: {marked!r}")
        if env.split()[:5] != ["BOOT_ORDER=B", "A", "BOOT_A_LEFT=3", "BOOT_B_LEFT=0", "BA_TRIAL=none"]:
            raise vm.Failure("after the rollback, A is not marked good, B not given up, or the trial still open: " + env)
        if not ROLLED_BACK.search(result):
            _, why = guest.sh("mountpoint /var/lib/babyalbum; journalctl -b -u babyalbum-ready.service -o cat | tail -n 5")
            raise vm.Failure(f"update-result does not say the update was rolled back: {result!r}; {why}")
    finally:
        guest.kill()
