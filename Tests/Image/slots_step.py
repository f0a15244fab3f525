"""The card's two system slots through U-Boot (issue 64), on QEMU's `virt` board with Debian's
U-Boot for it (u-boot-qemu's qemu_arm64, `-bios`), which runs the card's own boot.scr from its FAT
as the Pi's U-Boot does (the Pi's cannot show a screen under QEMU: Tests/Image/raspi3b.py).

The test's copy of the card gets what a bad update would leave: slot B a copy of slot A with a
kernel that is not one (its /vmlinuz overwritten with junk), and the slots file saying B first
with its 3 tries (`BOOT_ORDER=B A`, as RAUC's `uboot` backend writes after an install). Then it
is switched on once and left alone:
- boot.scr takes a try from B, cannot boot its kernel, marks B with no tries left, resets;
- after the reset it boots A (read from the slots file), the frame shows a photo, and
  deploy/card/slot-good gives A its 3 tries back;
- the slots file and its copy, read by Linux's fw_printenv, say B 0, A 3.
Slot B's copy and the slots files are removed again for the later steps.
"""
import os
import re
import subprocess

UBOOT = "/usr/lib/u-boot/qemu_arm64/u-boot.bin"  # Debian's u-boot-qemu (scripts/install-deps --test)
SLOTS = ("babyalbum-slots.env", "babyalbum-slots.bak")
SLOT_LINE = r"babyalbum: slot (\w) \((\w+) \d+:(\d)\), BOOT_ORDER=([AB ]+), (\w+) tries left after this one \(read from ([^)]*)\)"


def slots_file(work, order, a_left, b_left):
    """The slots file as boot.scr writes it (`env export -c -s 0x4000`): CRC32 and the variables."""
    text = os.path.join(work, "slots.txt")
    with open(text, "w") as f:
        f.write(f"BOOT_ORDER={order}\nBOOT_A_LEFT={a_left}\nBOOT_B_LEFT={b_left}\n")
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


def break_kernel(vm, card, work):
    """Slot B's kernel (the file /vmlinuz points at) overwritten with 4 KiB of junk."""
    link = vm.run("debugfs", "-R", "stat /vmlinuz", card.part(card.SLOT_B)).stdout
    target = "/" + re.search(r'Fast link dest: "([^"]+)"', link).group(1)
    junk = os.path.join(work, "junk-kernel")
    with open(junk, "wb") as f:
        f.write(os.urandom(4096))
    vm.run("debugfs", "-w", "-R", f"rm {target}", card.part(card.SLOT_B))
    vm.run("debugfs", "-w", "-R", f"write {junk} {target}", card.part(card.SLOT_B))
    return target


def step_slots(vm, card, work):
    if not os.path.exists(UBOOT):
        raise vm.Failure(f"{UBOOT} is missing: scripts/install-deps --test installs u-boot-qemu")
    card.attach()
    copied = copy_slot_a_to_b(vm, card)
    target = break_kernel(vm, card, work)
    state = slots_file(work, "B A", 3, 3)
    for name in SLOTS:
        card.mtools("mcopy", "-o", state, "::/" + name)
    print(f"  slot B: slot A's file system ({copied >> 20} MiB) with {target} overwritten by junk; "
          "the slots file and its copy: BOOT_ORDER=B A, 3 tries each")
    card.detach()
    vm.power_off_all()
    machine = ["-M", "virt", "-cpu", "cortex-a72", "-smp", "2", "-m", "1024", "-bios", UBOOT,
               "-drive", f"file={card.path},if=none,id=card,format=raw,cache=writeback", "-device",
               "virtio-blk-pci,drive=card", "-device", "virtio-gpu-pci", "-device", "virtio-keyboard-pci",
               "-serial", "SERIAL"]
    guest = vm.Guest(card, work, None, None, "", machine=machine, reboot=True)
    vm.LIVE.append(guest)
    try:
        guest.read_until("IMAGE-READY", 900)
        lines = re.findall(SLOT_LINE, guest.console)
        print("  boot.scr's lines: " + " | ".join(
            f"slot {s} ({dev} {part}), BOOT_ORDER={order}, {left} left, from {source}" for s, dev, part, order, left, source in lines))
        refused = re.search(r"babyalbum: slot B cannot be booted[^\n]*", guest.console)
        why = re.search(r"Bad Linux ARM64 Image magic[^\n]*|booti[^\n]*fail[^\n]*", guest.console)
        if len(lines) != 2 or lines[0][0] != "B" or lines[0][2] != "3" or not refused:
            raise vm.Failure("boot.scr did not try slot B and give it up before slot A:\n" + guest.console[-4000:])
        if lines[1][:5] != ("A", "virtio", "2", "B A", "2") or lines[1][5] != "babyalbum-slots.env":
            raise vm.Failure(f"after slot B, boot.scr did not boot slot A from its slots file: {lines[1]}")
        print(f"  U-Boot on slot B's kernel: {why.group(0).strip() if why else '?'}; {refused.group(0).strip()}")
        shown = vm.wait_showing(guest)
        _, cmdline = guest.sh("grep -o 'rauc.slot=[AB]' /proc/cmdline; findmnt -no SOURCE /")
        if cmdline.split() != ["rauc.slot=A", "/dev/vda2"]:
            raise vm.Failure(f"Linux did not run slot A from vda2: {cmdline!r}")
        marked = vm.journal_line(guest, "babyalbum.service", "slot-good:", 120)
        _, env = guest.sh("fw_printenv BOOT_ORDER BOOT_A_LEFT BOOT_B_LEFT; "
                          "fw_printenv -c /etc/babyalbum/fw_env.backup.config BOOT_ORDER BOOT_A_LEFT BOOT_B_LEFT; "
                          "findmnt -no OPTIONS /boot/firmware | cut -d, -f1")
        print(f"  slot A showed a photo {shown:.0f} s after power-on; {marked or 'no slot-good line'}; "
              f"the slots file and its copy: {' '.join(env.split())}")
        if not marked or "marked good" not in marked:
            raise vm.Failure(f"slot A showed a photo but slot-good did not mark it: {marked!r}")
        if env.split() != ["BOOT_ORDER=B", "A", "BOOT_A_LEFT=3", "BOOT_B_LEFT=0"] * 2 + ["ro"]:
            raise vm.Failure("the slots file does not say B given up and A good (or the FAT stayed read-write): " + env)
    finally:
        guest.kill()
        card.attach()
        for name in SLOTS:
            card.mtools("mdel", "::/" + name, check=False)
        vm.run("wipefs", "-a", "-q", card.part(card.SLOT_B), check=False)
