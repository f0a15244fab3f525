#!/usr/bin/python3
"""The card booted the way a Raspberry Pi 3's firmware hands it over, on QEMU's `raspi3b` board
(Cortex-A53, 1 GiB, the BCM2835 SD host, no vc4): the kernel config.txt names (U-Boot, issue 64)
and the Pi 3 device tree, read from the card's FAT partition with mtools as the firmware reads
them; U-Boot then runs the card's boot.scr, which takes a try from slot A and loads the slot's
own kernel, initramfs, tree and command line (/boot/cmdline.env, plus the mini UART (ttyS1) as
the console in the test's copy); the card image itself as the SD card (a copy grown to a power of
two, which QEMU requires).

It shows: U-Boot's script choosing slot A with a try taken (its line on the console, and the
environment it saved read back by Linux's fw_printenv), the root found by the card's disk
identifier on mmcblk0p2 with rauc.slot=A, the three partitions mounted as fstab says (/
read-only, noatime), babyalbum.service started, the device tree's gpio-keys exit button as an
input device with KEY_POWER, and `babyalbum doctor`'s Input section naming it; the clock
module's bus (the tree's /clock-i2c node, scripts/dtb-clock-bus) as an i2c-gpio adapter, and
with `clock-module = ds3231` in the test's copy of babyalbum.txt and nothing on the bus, one
clear line in the journal and a warning in doctor; with no vc4 (no DRM device), the frame running
its slideshow with no screen (the card's --without-display run), ready, its status after a minute
of it, and the slot it runs from given its tries back by slot-good (a Pi switched on with its TV
unplugged keeps its slot); an update's trial with no display (slot A put on trial as update-check
leaves a slot it installed into, the frame restarted): not ended at the frame's readiness, ended by
slot-trial once the slideshow has run for a minute with no screen; and the time from QEMU's start
to the service's start (the guest's clock, plus when the kernel started). The test
shell on ttyS1 survives emergency mode, which then fails the test with the journal's warnings.

First, a test of its own (RESTART): slot B, a copy of slot A whose command line keeps the SD
host's drivers out of the initramfs (as one built without them would leave an update, signed and
intact), tried first with its last try. Its initramfs gives up on the root after 30 s and, with
boot.scr's panic=10, reboots; the Pi restarts only through its watchdog's driver, which the
card's initramfs holds, so the board resets into U-Boot, which boots slot A (without the driver,
Linux printed "reboot: Restarting system" and the board stayed there). Slot B and the slots file
are then removed again, so the card's own boot above is a new card's.

What QEMU cannot prove: the GPU firmware (bootcode.bin, start*.elf and its config.txt parsing),
vc4 and HDMI, the SD host's real timing, Wi-Fi and Bluetooth, and the SoC watchdog's countdown
(QEMU's model resets at once on the restart's register write).

Usage: Tests/Image/raspi3b.py CARD.img      (as root; 6 to 10 minutes under TCG; Tests/Image/run runs
       it on the card it builds, or only it with --raspi3b). Last line "Raspi3b tests: N passed, M
       failed, K skipped"; the record goes to $BABYALBUM_RESULTS/Raspi3b.xml when that is set.
"""
import os
import re
import shutil
import sys
import time

from PIL import Image

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import image_vm  # noqa: E402
from image_vm import REPO, Card, Failure, Guest, card_work_folder, run, xunit  # noqa: E402
from slots_step import SLOTS, copy_slot_a_to_b, slots_file  # noqa: E402
from vmrig import SINGLE_THREAD_TCG  # noqa: E402  (Tests/VM/vmrig.py, on the path image_vm sets)

TREE = "bcm2837-rpi-3-b.dtb"
#: The card's partitions (scripts/image): the FAT, slot A, and the state (logical, in the extended 4).
FAT, SLOT_A, STATE = 1, 2, 5
NAME = "raspi3b: the card booted as a Pi 3's firmware hands it over"
RESTART = ("raspi3b: a slot whose initramfs cannot find the card restarts the Pi through its watchdog's driver "
           "(in the initramfs), and U-Boot falls back to the other slot")
#: What slot B's command line adds in RESTART's test: the mini UART as the console, and the SD
#: host's drivers kept out, as an initramfs built without them (and signed) would leave the slot.
NO_CARD = "console=ttyS1,115200 modprobe.blacklist=sdhci_iproc,bcm2835"
#: Added to slot A's command line (/boot/cmdline.env): the mini UART as the console (the PL011 is the Bluetooth UART in this
#: tree), and systemd's wait for a device raised from 90 s: under TCG with a loaded host, udev's
#: coldplug took more than a minute to make the state partition's /dev/disk link in one run, and a run on
#: a busier host went to emergency mode, most likely from that wait (a real Pi takes seconds); the
#: card's fstab sets no wait of its own, which would override this (check_device_wait).
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
    """The kernel config.txt names (U-Boot) and the Pi 3 tree, from the FAT; slot A's command line
    (/boot/cmdline.env) with EXTRA added, written back into the test's copy of the slot."""
    config = card.mtools("mtype", "::/config.txt").stdout
    name = re.search(r"^kernel=(\S+)", config, re.M).group(1)
    if re.search(r"^initramfs ", config, re.M):
        raise Failure("config.txt still names an initramfs: the slot's own is U-Boot's to load")
    files = {"kernel": os.path.join(work, os.path.basename(name)), "dtb": os.path.join(work, TREE)}
    card.mtools("mcopy", "-o", "::/" + name, files["kernel"])
    card.mtools("mcopy", "-o", "::/" + TREE, files["dtb"])
    slot = card.part(SLOT_A)
    cmdline = run("debugfs", "-R", "cat /boot/cmdline.env", slot).stdout.strip()
    if not cmdline.startswith("ba_cmdline="):
        raise Failure(f"slot A's /boot/cmdline.env is not one ba_cmdline= line: {cmdline!r}")
    local = os.path.join(work, "cmdline.env")
    with open(local, "w") as f:
        f.write(f"{cmdline} {EXTRA}\n")
    run("debugfs", "-w", "-R", "rm /boot/cmdline.env", slot)
    run("debugfs", "-w", "-R", f"write {local} /boot/cmdline.env", slot)
    return files, cmdline.removeprefix("ba_cmdline=")


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
        # A photo for the slideshow with no screen (the card is made without any): duck.png made
        # 160x90, cheap to decode on the emulated CPU.
        photo = os.path.join(work, "small-duck.png")
        with Image.open(os.path.join(REPO, "Photos", "duck.png")) as duck:
            duck.convert("RGB").resize((160, 90)).save(photo)
        card.mtools("mmd", "::/photos", check=False)
        card.mtools("mcopy", "-o", photo, "::/photos/small-duck.png")
        copied = copy_slot_a_to_b(image_vm, card)
        slot_b_cannot_find_the_card(card, work, cmdline)
        card.detach()
        size = grown_copy(card, work)
        print(f"raspi3b: {os.path.basename(files['kernel'])} and {TREE} from the FAT; "
              f"SD card {size >> 20} MiB; slot A's command line: {cmdline}; added: {EXTRA}")
        machine = ["-M", "raspi3b", "-dtb", files["dtb"],
                   "-drive", f"file={card.path},if=sd,format=raw", "-serial", "null", "-serial", "SERIAL"]
        restart_started = time.monotonic()
        try:
            check_restart_from_the_initramfs(card, work, files, machine, copied)
            records.add(RESTART, "passed", time.monotonic() - restart_started)
            print("ok - " + RESTART)
        except Failure as failure:
            records.add(RESTART, "failed", time.monotonic() - restart_started, f"{failure}")
            print(f"FAIL - {RESTART}: {failure}")
        finally:
            forget_slot_b(card)
        started = time.monotonic()
        guest = Guest(card, work, files["kernel"], None, cmdline, machine=machine,
                      accel=SINGLE_THREAD_TCG)
        try:
            guest.read_until("IMAGE-READY", 1500)
            shell = time.monotonic() - guest.started
            checks(guest, shell)
            check_slideshow_without_a_display(guest)
            check_boot_script(guest)
            check_trial_without_a_display(guest)
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


def slot_b_cannot_find_the_card(card, work, cmdline):
    """Slot B (a copy of slot A: its kernel and initramfs as built) with a command line that keeps
    the SD host's drivers out of its initramfs (NO_CARD), and the slots file and its copy saying
    B first with one try left, as after an update whose initramfs was built wrong."""
    local = os.path.join(work, "cmdline-b.env")
    with open(local, "w") as f:
        f.write(f"ba_cmdline={cmdline} {NO_CARD}\n")
    slot = card.part(card.SLOT_B)
    run("debugfs", "-w", "-R", "rm /boot/cmdline.env", slot)
    run("debugfs", "-w", "-R", f"write {local} /boot/cmdline.env", slot)
    state = slots_file(work, "B A", 3, 1)
    for name in SLOTS:
        card.mtools("mcopy", "-o", state, "::/" + name)


def check_restart_from_the_initramfs(card, work, files, machine, copied):
    """Slot B (slot_b_cannot_find_the_card) is booted: its initramfs waits 30 s for the root, gives
    up, and with boot.scr's panic=10 reboots; a Pi's only restart is the SoC watchdog's, whose
    driver is a module, so the board resets only when the initramfs has loaded it (scripts/image's
    INITRAMFS_MODULES; without it, "reboot: Restarting system" and then nothing, until someone
    switches the Pi off and on). U-Boot then finds B with no tries left and boots slot A (the test
    stops at A's "Starting kernel"; the card's own boot follows in main())."""
    print(f"raspi3b: slot B: slot A's file system ({copied >> 20} MiB) with {NO_CARD} on its command line; "
          "the slots file and its copy: BOOT_ORDER=B A, B 1 try, A 3")
    guest = Guest(card, work, files["kernel"], None, "", machine=machine, accel=SINGLE_THREAD_TCG, reboot=True)
    try:
        try:
            guest.read_until(r"babyalbum: slot A \(mmc[^\n]*\n[\s\S]*Starting kernel", 900)
        except Failure:
            # Seen on a card made before the driver was in the initramfs (2026-12-07): "reboot:
            # Restarting system", then nothing for minutes.
            halted = "reboot: Restarting system" in guest.console.rpartition("Starting kernel")[2]
            raise Failure(("Linux restarted the system after slot B's initramfs gave up, and the board did not "
                           "reset (is bcm2835_wdt in the initramfs?)" if halted else
                           "slot B's boot did not end in U-Boot's slot A") + ":\n" + guest.console[-3000:]) from None
        elapsed = time.monotonic() - guest.started
    finally:
        guest.kill()
    console = guest.console
    lines = SLOT_LINE.findall(console)
    print("raspi3b: boot.scr's lines: " + " | ".join(f"slot {s} (part {p}), BOOT_ORDER={o}, {left} left, from {src}"
                                                      for s, p, o, left, src in lines))
    if [(s, left, src) for s, _, _, left, src in lines] != [("B", "0", "babyalbum-slots.env"),
                                                             ("A", "2", "babyalbum-slots.env")]:
        raise Failure(f"boot.scr did not boot slot B with its last try, then slot A: {lines}")
    between = console[console.index("babyalbum: slot B ("):console.index("babyalbum: slot A (")]
    said = [line for line in ("babyalbum: slot B: its kernel and initramfs are as built", "Starting kernel",
                              "does not exist", "Rebooting automatically due to panic= boot argument",
                              "reboot: Restarting system") if line not in between]
    if said:
        raise Failure(f"slot B's boot did not go as built, Linux, no root, panic=, restart; missing: {said}:\n"
                      + between[-3000:])
    print(f"raspi3b: slot B's initramfs gave up on its root, Linux restarted the board into U-Boot, which booted "
          f"slot A {elapsed:.0f} s after power-on")


def forget_slot_b(card):
    """The card as made again for the boot that follows: no slots file, slot B without a file
    system."""
    card.attach()
    for name in SLOTS:
        card.mtools("mdel", "::/" + name, check=False)
    run("wipefs", "-a", "-q", card.part(card.SLOT_B), check=False)
    card.detach()


#: fstab's mount points and what each must be (scripts/image's fstab): device, options required.
MOUNTS = (("/", "/dev/mmcblk0p2", ("ro", "noatime")), ("/boot/firmware", "/dev/mmcblk0p1", ("ro",)),
          ("/var/lib/babyalbum", "/dev/mmcblk0p5", ("rw",)))
#: U-Boot's boot.scr on the console: the slot it chose, and the tries left after this boot's.
SLOT_LINE = re.compile(r"babyalbum: slot (\w) \(mmc \d+:(\d+)\), BOOT_ORDER=([AB ]+), (\w+) tries left after this one "
                       r"\(read from ([^)]*)\)")


#: The frame's status (ServiceReadiness) once its slideshow with no screen has run for a minute, and
#: slot-good's line for slot A then (deploy/card/slot-good).
UNSEEN_MINUTE = "slideshow with no screen for a minute: no DRM display device: there is no /dev/dri/card*"
#: (Its status when it became ready: its first photo with no screen, or "reading the photos" when
#: that took a minute, ServiceReadiness.readyAtTheLatest.)
MARKED = re.compile(r"slot-good: slot A is up \(its frame: [^)]*\): marked good \(BOOT_A_LEFT 2 -> 3\)")


def status_after_a_minute_unseen(guest, started, limit=900):
    """The frame's status (StatusText) once it says its slideshow ran a minute with no screen
    (UNSEEN_MINUTE), asked every 5 s; its last status when `limit` s from `started` pass first."""
    while True:
        _, status = guest.sh("systemctl show -P StatusText babyalbum.service")
        status = status.strip()
        if status.startswith(UNSEEN_MINUTE) or time.monotonic() - started >= limit:
            return status
        time.sleep(5)


def check_slideshow_without_a_display(guest):
    """QEMU's raspi3b has no vc4: the card's frame (--without-display run) runs its slideshow with no
    screen, says so in its log, becomes ready (slot-good then gives slot A its tries back: a Pi
    switched on with nothing on its HDMI must not use up its slot's tries) and, a minute after its
    first photo, says that in its status, the proof a freshly updated slot gives with no display."""
    started = time.monotonic()
    status = status_after_a_minute_unseen(guest, started)
    _, log = guest.sh("journalctl -b -u babyalbum.service --no-pager -o cat | grep -E 'no screen|showing' | head -n 4; "
                      "journalctl -b -u babyalbum-ready.service --no-pager -o cat | grep slot-good")
    print(f"raspi3b: the frame's status {time.monotonic() - started:.0f} s later: {status!r}; its lines:\n  "
          + log.strip().replace("\n", "\n  "))
    if not status.startswith(UNSEEN_MINUTE):
        raise Failure(f"the frame did not run its slideshow for a minute with no screen: status {status!r}\n{log}")
    if "the slideshow runs with no screen (--without-display run)" not in log or "showing " not in log:
        raise Failure("the frame's log does not say it runs with no screen and shows photos:\n" + log)
    if not MARKED.search(log):
        raise Failure("slot-good did not give slot A its tries back when the frame became ready:\n" + log)


def check_device_wait(guest):
    """The card's fstab leaves the wait for its late partitions' devices to systemd's default, which
    EXTRA raises to 600 s here: an x-systemd.device-timeout= of their own would override it, and a
    busy host's udev has taken more than 90 s to make their links (a CI run, 2026-12-06)."""
    _, waits = guest.sh("for n in 1 5 6; do systemctl show -P JobRunningTimeoutUSec dev-disk-babyalbum-part$n.device; "
                        "done")
    print("raspi3b: the wait for the FAT's, the state's and the library's devices: " + " ".join(waits.split()))
    if waits.split() != ["10min"] * 3:
        raise Failure("the card's late partitions do not wait for their devices as long as the command line's "
                      f"systemd.default_device_timeout_sec=600 says (does fstab set its own?): {' '.join(waits.split())}")


def check_boot_script(guest):
    """U-Boot ran boot.scr, which chose slot A (partition 2) on a fresh card (no slots file yet) and
    took one of its 3 tries before loading it, and found its kernel and initramfs as built (their
    CRC32s in /boot/boot-files.crc32); Linux's fw_printenv reads the slots file and its copy
    on the FAT (/etc/fw_env.config, /etc/babyalbum/fw_env.backup.config) (once the FAT is mounted:
    after checks()): slot A with its 3 tries, given back by slot-good once the frame was ready
    (check_slideshow_without_a_display); the kernel got rauc.slot=A."""
    line = SLOT_LINE.search(guest.console)
    if not line:
        raise Failure("U-Boot's boot.scr printed no slot line before Linux:\n" + guest.console[:3000])
    print(f"raspi3b: U-Boot's boot.scr: {line.group(0)}")
    if line.groups() != ("A", "2", "A B", "2", "nothing: a new card"):
        raise Failure(f"a fresh card's first boot must be slot A on partition 2 with 2 tries left: {line.group(0)}")
    checked = re.search(r"babyalbum: slot A: its kernel (?:and initramfs are as built|or initramfs is damaged[^\n]*)",
                        guest.console)
    print(f"raspi3b: {checked.group(0).strip() if checked else 'boot.scr printed no line on the CRC32s of the kernel and initramfs'}")
    if not checked or not checked.group(0).endswith("and initramfs are as built"):
        raise Failure("boot.scr did not find slot A's kernel and initramfs as built (/boot/boot-files.crc32):\n"
                      + guest.console[:3000])
    _, env = guest.sh("fw_printenv BOOT_ORDER BOOT_A_LEFT BOOT_B_LEFT; "
                      "fw_printenv -c /etc/babyalbum/fw_env.backup.config BOOT_ORDER BOOT_A_LEFT BOOT_B_LEFT; "
                      "sed -n 's/.*\\(rauc\\.slot=[^ ]*\\).*/\\1/p' /proc/cmdline", timeout=600)
    print("raspi3b: Linux reads U-Boot's environment (fw_printenv) and the command line:\n  "
          + env.strip().replace("\n", "\n  "))
    if env.split() != ["BOOT_ORDER=A", "B", "BOOT_A_LEFT=3", "BOOT_B_LEFT=3"] * 2 + ["rauc.slot=A"]:
        raise Failure("fw_printenv does not read slot A with its 3 tries back (boot.scr's 2, then slot-good): " + env)


#: The two slots files (boot.scr's and its copy), as fw_setenv and slot-good name them.
FW_CONFIGS = "/etc/fw_env.config /etc/babyalbum/fw_env.backup.config"
#: slot-good's lines for slot A on trial (deploy/card/slot-good): at the frame's readiness, with no
#: proof yet; and once its slideshow ran for a minute with no screen (run by slot-trial).
TRIAL_WAITS = re.compile(r"slot-good: the update in slot A is on trial and its frame shows no photo \(([^)]*)\): "
                         r"not marked good")
TRIAL_PROVED = ("slot-good: slot A ran its slideshow for a minute with no display: marked good (BOOT_A_LEFT 2 -> 3)",
                "slot-good: the update in slot A ran its slideshow for a minute with no display: its trial is over")


def check_trial_without_a_display(guest):
    """An update's trial on a Pi with no display (issue 64: the slot proves itself by a minute of
    slideshow when no screen is connected): slot A put on trial in the slots file and its copy as
    update-check leaves a slot it installed into (BA_TRIAL=A) and boot.scr's try taken
    (BOOT_A_LEFT=2), then the frame restarted. Its readiness does not end the trial (slot-good:
    not marked good); once its slideshow has run for a minute with no screen, slot-trial (its timer
    starts it ten minutes after the boot; the test starts it then) marks slot A good and ends the
    trial in both files."""
    guest.sh(f"mount -o remount,rw /boot/firmware && for c in {FW_CONFIGS}; do fw_setenv -c $c BOOT_A_LEFT 2 && "
             "fw_setenv -c $c BA_TRIAL A; done; mount -o remount,ro /boot/firmware", timeout=300)
    ready = "journalctl -b -u babyalbum-ready.service --no-pager -o cat | grep slot-good"
    _, before = guest.sh(ready)
    started = time.monotonic()
    guest.sh("systemctl restart babyalbum.service", timeout=900)
    said = []
    while not said and time.monotonic() - started < 900:
        _, after = guest.sh(ready)
        said = after.strip().splitlines()[len(before.strip().splitlines()):]
        if not said:
            time.sleep(5)
    if not said or not TRIAL_WAITS.search(said[0]):
        raise Failure(f"slot-good at the restarted frame's readiness, with slot A on trial, did not wait: {said}")
    status = status_after_a_minute_unseen(guest, started)
    if not status.startswith(UNSEEN_MINUTE):
        raise Failure(f"the restarted frame did not run its slideshow for a minute with no screen: status {status!r}")
    _, trial = guest.sh("systemctl start babyalbum-slot-trial.service; "
                        "journalctl -b -u babyalbum-slot-trial.service --no-pager -o cat | grep slot-good", timeout=600)
    _, env = guest.sh(f"for c in {FW_CONFIGS}; do fw_printenv -c $c BOOT_A_LEFT BA_TRIAL; done 2>&1", timeout=300)
    print(f"raspi3b: slot A on trial (BA_TRIAL=A, BOOT_A_LEFT=2) and the frame restarted: at its readiness "
          f"'{said[0]}'; {time.monotonic() - started:.0f} s later, slot-trial: "
          + " | ".join(trial.strip().splitlines()) + "; then: " + " ".join(env.split()))
    if any(line not in trial for line in TRIAL_PROVED):
        raise Failure(f"slot-trial did not mark slot A good after a minute of slideshow with no display: {trial}")
    if env.split().count("BOOT_A_LEFT=3") != 2 or "BA_TRIAL=A" in env:
        raise Failure(f"the slots file and its copy do not hold slot A good with no trial: {env}")


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

    check_device_wait(guest)
    points = " ".join(point for point, _, _ in MOUNTS)
    _, mounts = guest.sh(f"for m in {points}; do findmnt -rno TARGET,SOURCE,OPTIONS --mountpoint $m || echo $m -; done")
    print("raspi3b: mounts (target, source, options):\n  " + mounts.strip().replace("\n", "\n  "))
    found = {line.split()[0]: line.split()[1:] for line in mounts.strip().splitlines() if line.split()}
    for point, source, options in MOUNTS:
        seen = found.get(point, ["-"])
        if len(seen) < 2 or seen[0] != source or not set(options) <= set(seen[1].split(",")):
            raise Failure(f"{point} is not {source} with {','.join(options)} as fstab says: {' '.join(seen)}")

    _, root = guest.sh("cat /proc/cmdline; id=$(sed -n 's/.*root=PARTUUID=\\([0-9a-f]*\\)-02.*/\\1/p' /proc/cmdline); "
                       "for n in 02 01 05; do readlink -f /dev/disk/by-partuuid/$id-$n; done; "
                       "h=$(readlink -f /sys/block/mmcblk0/device/../../..); "
                       "echo ${h##*/} $(basename $(readlink -f $h/driver))")
    lines = root.strip().splitlines()
    print(f"raspi3b: root= on the command line: {' '.join(w for w in lines[0].split() if w.startswith('root'))}; "
          f"by the card's disk identifier: {', '.join(lines[1:4])}; "
          f"the SD card's host driver: {lines[4] if len(lines) > 4 else '?'}")
    if not re.search(r"(^| )root=PARTUUID=[0-9a-f]{8}-02( |$)", lines[0]) or lines[1:4] != [
            "/dev/mmcblk0p2", "/dev/mmcblk0p1", "/dev/mmcblk0p5"]:
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
