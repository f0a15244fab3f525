#!/usr/bin/python3
"""The card booted the way a Raspberry Pi 3's firmware hands it over, on QEMU's `raspi3b` board
(Cortex-A53, 1 GiB, the BCM2835 SD host, no vc4): the kernel, initramfs and device tree that
config.txt names, read from the card's FAT partition with mtools as the firmware reads them;
cmdline.txt as the card has it, plus the mini UART (ttyS1) as the console; the card image itself
as the SD card (a copy grown to a power of two, which QEMU requires).

It shows: the root found by label on mmcblk0p2, the three partitions mounted as fstab says (/
read-only), babyalbum.service started, and the device tree's gpio-keys exit button as an input
device with KEY_POWER; it prints what the frame says without vc4 and the time from QEMU's start
to the service's start. What QEMU cannot prove: the GPU firmware (bootcode.bin, start*.elf and
its config.txt parsing), vc4 and HDMI, the SD host's real timing, Wi-Fi and Bluetooth.

Usage: Tests/Image/raspi3b.py CARD.img      (as root; prints "raspi3b: ok" or raises)
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from image_vm import Card, Failure, Guest, run  # noqa: E402

TREE = "bcm2837-rpi-3-b.dtb"
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
    work = tempfile.mkdtemp(prefix="babyalbum-raspi3b.")
    try:
        card = Card(image, work)
        card.attach()
        files, cmdline = boot_files(card, work)
        card.add_shell("ttyS1")
        card.detach()
        size = grown_copy(card, work)
        print(f"raspi3b: {os.path.basename(files['kernel'])}, {os.path.basename(files['initrd'])}, {TREE}; "
              f"SD card {size >> 20} MiB; cmdline.txt: {cmdline}")
        machine = ["-M", "raspi3b", "-dtb", files["dtb"], "-append", cmdline + " console=ttyS1,115200",
                   "-drive", f"file={card.path},if=sd,format=raw", "-serial", "null", "-serial", "SERIAL"]
        guest = Guest(card, work, files["kernel"], files["initrd"], cmdline, machine=machine)
        try:
            guest.read_until("IMAGE-READY", 1500)
            shell = time.monotonic() - guest.started
            checks(guest, shell)
        finally:
            guest.kill()
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print("raspi3b: ok")


def checks(guest, shell):
    guest.sh("dmesg -n 1")  # the kernel's messages off the test shell's serial line
    started, state = wait_for_service(guest)
    _, journal = guest.sh("journalctl -b -u babyalbum.service -o cat --no-pager | head -n 30")
    print(f"raspi3b: babyalbum.service started {started:.0f} s after QEMU started (the test shell "
          f"{shell:.0f} s); now {state}; its log (no vc4 here):\n  " + journal.strip().replace("\n", "\n  "))
    _, root = guest.sh("findmnt -no SOURCE,OPTIONS /; findmnt -no SOURCE,OPTIONS /boot/firmware; "
                       "findmnt -no SOURCE,OPTIONS /var/lib/babyalbum")
    print("raspi3b: mounts (/, /boot/firmware, /var/lib/babyalbum):\n  " + root.strip().replace("\n", "\n  "))
    lines = root.strip().split("\n")
    if not lines[0].startswith("/dev/mmcblk0p2 ") or "ro" not in lines[0].split()[1].split(","):
        raise Failure("the root is not mmcblk0p2 read-only: " + root)
    if not (len(lines) >= 3 and lines[1].startswith("/dev/mmcblk0p1 ") and lines[2].startswith("/dev/mmcblk0p3 ")):
        raise Failure("the FAT and state partitions are not mounted from mmcblk0p1 and p3: " + root)
    _, label = guest.sh("readlink -f /dev/disk/by-label/BA-ROOT /dev/disk/by-label/BABYALBUM")
    print("raspi3b: by label: " + label.strip().replace("\n", ", "))
    deadline, match = time.monotonic() + 120, None
    while not match and time.monotonic() < deadline:  # udev loads gpio_keys from the tree's node
        _, devices = guest.sh("cat /proc/bus/input/devices")
        match = EXIT_BUTTON.search(devices)
        if not match:
            time.sleep(2)
    if not match or not has_key_power(match.group(1)):
        _, why = guest.sh("cat /sys/firmware/devicetree/base/exit-button/compatible; echo; "
                          "ls /sys/bus/platform/devices | grep -i exit; lsmod | grep -i gpio; "
                          "modprobe -v gpio_keys 2>&1; dmesg | grep -iE 'gpio|exit-button' | tail -n 20")
        raise Failure("no gpio-keys exit button with KEY_POWER in /proc/bus/input/devices:\n" + devices + why)
    print(f"raspi3b: the exit button: gpio-keys/input0, KEY bitmap {match.group(1).strip()} (KEY_POWER)")
    _, doctor = guest.sh("babyalbum doctor 2>&1 | grep -iE 'exit|button|display|card|PROBLEM' | head -n 12", timeout=300)
    print("raspi3b: babyalbum doctor says:\n  " + doctor.strip().replace("\n", "\n  "))


def wait_for_service(guest, timeout=900):
    """Seconds from QEMU's start until systemd has started babyalbum.service's program, and the
    unit's state then (without vc4 the frame finds no display, so it may be restarting)."""
    deadline = time.monotonic() + timeout
    while True:
        _, shown = guest.sh("systemctl show babyalbum.service -p ExecMainStartTimestampMonotonic "
                            "-p ActiveState -p SubState -p NRestarts")
        fields = dict(line.split("=", 1) for line in shown.split() if "=" in line)
        if int(fields.get("ExecMainStartTimestampMonotonic", "0") or 0) > 0:
            return time.monotonic() - guest.started, shown.replace("\n", " ").strip()
        if time.monotonic() > deadline:
            raise Failure("babyalbum.service never started: " + shown)
        time.sleep(1)


if __name__ == "__main__":
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        sys.exit(64)
    main(sys.argv[1])
