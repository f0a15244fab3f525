#!/usr/bin/python3
"""USB sticks and the settings file, in the Debian-with-systemd guest of systemd_vm.py.

deploy/install.sh runs in the guest as on a board (its udev rule for sticks included), and the
settings file it wrote gets a CRLF typo line appended, as a parent's Windows editor would. The
sticks are disk images made on the host without root (mkfs.vfat + mcopy, mkfs.ext4 -d) and
hot-plugged with QMP (blockdev-add + device_add usb-storage on an xHCI controller). Checked:

1. the CRLF settings file with a typo: the frame runs with the other lines (transition none
   from the file is in effect), the journal and `babyalbum doctor` name the line;
2. a FAT stick: udev has systemd mount it read-only (nosuid,nodev,noexec) under
   /media/babyalbum/LABEL, and its photo comes on screen: the screendump equals the
   `--output png:` frame of that photo;
3. the stick pulled mid-slideshow: the mount goes, the service never restarts, and the
   folder's photos go on;
4. an ext4 stick: not mounted, with a log line; a FAT image with a zeroed boot sector: not
   mounted, with a log line saying no file system was found; `babyalbum doctor` says why for
   each (the FAT stick of step 2 mounted in the same run is the positive control);
5. a FAT32 stick of 5,000 photos in 10 folders: the time from the mount (as the frame logs it)
   to its first photo on the journal is reported, not asserted (QEMU without KVM).

Usage: Tests/Deploy/usb_vm.py   (BABYALBUM_BIN selects the binary, as for Tests/VM)
"""

import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "VM"))
import systemd_vm  # noqa: E402
import vmrig  # noqa: E402
from PIL import Image  # noqa: E402
from systemd_vm import Failure, rendered_frame, show, step, wait_for, wait_for_photo_on_screen  # noqa: E402
from vmrig import BABYALBUM_BIN  # noqa: E402

#: systemd_vm's setup, then a parent's edit of the settings file: CRLF lines, one with a typo.
#: The root is made shared, as systemd makes it on a board: here busybox's switch_root moved it,
#: systemd left it private, and the service's namespace (a slave of it) would never see a mount.
SETUP = systemd_vm.SETUP.replace("echo setup-done\n", r"""printf 'intervall = 9\r\ntransition = none\r\n' >>/etc/babyalbum/babyalbum.conf
mount --make-rshared /
echo setup-done
""")

TYPO_LINE = None  # set from the installed file's length


def make_photo(path):
    """A photo no sample looks like: four coloured quarters."""
    image = Image.new("RGB", (640, 400))
    for index, colour in enumerate([(220, 30, 30), (30, 200, 60), (40, 60, 230), (240, 220, 30)]):
        x, y = (index % 2) * 320, (index // 2) * 200
        image.paste(colour, (x, y, x + 320, y + 200))
    image.save(path)


def expected_frame(work, photo):
    folder = os.path.join(work, "expected")
    os.makedirs(folder)
    shutil.copy(photo, folder)
    return rendered_frame(folder)


def make_images(work, photo):
    """The stick images: FAT with the photo, ext4 with the photo, FAT with its boot sector zeroed."""
    fat = os.path.join(work, "fat.img")
    subprocess.run(["mkfs.vfat", "-C", "-n", "KIDS", fat, "8192"], check=True, capture_output=True)
    subprocess.run(["mcopy", "-i", fat, photo, "::/stick-photo.png"], check=True, capture_output=True)
    content = os.path.join(work, "ext4-content")
    os.makedirs(content)
    shutil.copy(photo, content)
    ext4 = os.path.join(work, "ext4.img")
    subprocess.run(["mkfs.ext4", "-q", "-F", "-L", "LINUX", "-d", content, ext4, "8M"], check=True, capture_output=True)
    broken = os.path.join(work, "broken.img")
    shutil.copy(fat, broken)
    with open(broken, "r+b") as f:
        f.write(bytes(512))
    return fat, ext4, broken


def make_many(work, photo, count=5000, folders=10):
    """A FAT32 stick of `count` copies of a small photo in `folders` folders (mcopy, no root)."""
    small = os.path.join(work, "small.png")
    with Image.open(photo) as image:
        image.resize((64, 40)).save(small)
    tree = os.path.join(work, "many")
    for index in range(count):
        folder = os.path.join(tree, f"album{index % folders:02d}")
        os.makedirs(folder, exist_ok=True)
        shutil.copy(small, os.path.join(folder, f"IMG_{index:04d}.png"))
    many = os.path.join(work, "many.img")
    subprocess.run(["mkfs.vfat", "-F", "32", "-C", "-n", "MANY", many, str(64 * 1024)], check=True, capture_output=True)
    subprocess.run(["mcopy", "-s", "-i", many] + [os.path.join(tree, name) for name in sorted(os.listdir(tree))] + ["::/"],
                   check=True, capture_output=True, timeout=300)
    return many


def plug(vm, name, image):
    vm.qmp("blockdev-add", driver="raw", **{"node-name": name, "read-only": True},
           file={"driver": "file", "filename": image, "read-only": True})
    vm.device_add("usb-storage", id=name, drive=name, bus="xhci.0", removable=True)


def pull(vm, name):
    """Pulls the stick `name` out: the device, then its block node. Fails when the node is still
    there after 30 s (the checks after it would test a stick that was never pulled)."""
    vm.device_del(name)
    deadline = time.monotonic() + 30
    last = None
    while time.monotonic() < deadline:
        try:
            vm.qmp("blockdev-del", **{"node-name": name})
            return
        except Exception as error:  # noqa: BLE001 - the device is still being removed
            last = error
            time.sleep(0.5)
    raise Failure(f"the stick {name} was not pulled out in 30 s (blockdev-del: {last})")


def journal(vm, what="-u babyalbum.service"):
    return vm.sh(f"journalctl -b --no-pager -o cat {what}", timeout=60)[1]


def check_settings(vm):
    step("1. a CRLF settings file with a typo: the other lines apply, the journal and doctor name the line")
    _, lines = vm.sh("wc -l </etc/babyalbum/babyalbum.conf")
    typo = int(lines.strip()) - 1
    wait_for(vm, "journalctl -b -u babyalbum.service --no-pager -o cat",
             rf"babyalbum.conf line {typo}: 'intervall' is not a setting", 120, "the typo in the journal")
    _, report = vm.sh("/usr/local/bin/babyalbum doctor 2>&1", timeout=120)
    wanted = f"FIX: /etc/babyalbum/babyalbum.conf line {typo}: 'intervall' is not a setting (did you mean 'interval'?)"
    if wanted not in report:
        raise Failure(f"doctor does not name line {typo}:\n{report}")
    transition = next((line for line in report.splitlines() if line.strip().startswith("transition ")), "")
    print(f"    doctor: {wanted}\n    doctor: {transition.strip()}", flush=True)
    if "none" not in transition or f"line {typo + 1}" not in transition:
        raise Failure(f"the line after the typo is not in effect: {transition}")


def check_fat_stick(vm, fat, pixels, shot):
    step("2. a FAT stick hot-plugged: mounted read-only by systemd, and its photo on screen")
    restarts = show(vm)["NRestarts"]
    plug(vm, "stick1", fat)
    mount = wait_for(vm, "findmnt -n -o FSTYPE,OPTIONS /media/babyalbum/KIDS", r"vfat\s+(\S+)", 60, "the stick mounted")
    options = mount.group(1).split(",")
    print(f"    mounted: /media/babyalbum/KIDS vfat {mount.group(1)}", flush=True)
    for option in ("ro", "nosuid", "nodev", "noexec"):
        if option not in options:
            raise Failure(f"the stick is mounted without {option}: {options}")
    wait_for(vm, "journalctl -b -u babyalbum.service --no-pager -o cat", r"stick mounted: /media/babyalbum/KIDS", 30,
             "the frame notices the mount")
    started = time.monotonic()
    wait_for_photo_on_screen(vm, {"stick-photo.png": pixels}, shot, 90)
    print(f"    the stick's photo on screen, pixel for pixel, {time.monotonic() - started:.0f} s after the mount was seen",
          flush=True)
    _, report = vm.sh("/usr/local/bin/babyalbum doctor 2>&1", timeout=120)
    listed = re.search(r'"KIDS" \(sd[a-z]+\), vfat: mounted on /media/babyalbum/KIDS, 1 photo\b', report)
    if not listed:
        raise Failure(f"doctor does not list the mounted stick:\n{report}")
    print(f"    doctor: {listed.group(0)}", flush=True)
    return restarts


def check_pull(vm, restarts):
    step("3. the stick pulled mid-slideshow: unmounted, no restart, the folder's photos go on")
    shown_before = journal(vm).count("showing /var/lib/babyalbum/photos/")
    pull(vm, "stick1")
    wait_for(vm, "findmnt -n /media/babyalbum/KIDS || echo gone", r"^gone", 60, "the stick unmounted")
    wait_for(vm, "journalctl -b -u babyalbum.service --no-pager -o cat", r"stick removed: /media/babyalbum/KIDS", 30,
             "the frame notices the removal")
    deadline = time.monotonic() + 40
    while journal(vm).count("showing /var/lib/babyalbum/photos/") < shown_before + 2:
        if time.monotonic() > deadline:
            raise Failure("the folder's photos did not go on after the stick was pulled")
        time.sleep(2)
    state = show(vm)
    print(f"    after the pull: {state.get('ActiveState')}/{state.get('SubState')}, restarts {state.get('NRestarts')}",
          flush=True)
    if state.get("SubState") != "running" or state.get("NRestarts") != restarts:
        raise Failure(f"the service restarted or stopped when the stick was pulled: {state}")


def check_ignored(vm, ext4, broken):
    step("4. an ext4 stick and a FAT stick with a zeroed boot sector: not mounted, each with a log line")
    plug(vm, "stick2", ext4)
    line = wait_for(vm, "journalctl -b -t babyalbum-usb --no-pager -o cat", r"ignored \S+: file system ext4[^\n]*", 60,
                    "the ext4 log line").group(0)
    print(f"    log: {line}", flush=True)
    plug(vm, "stick3", broken)
    line = wait_for(vm, "journalctl -b -t babyalbum-usb --no-pager -o cat", r"ignored \S+: no file system found[^\n]*", 60,
                    "the broken FAT log line").group(0)
    print(f"    log: {line}", flush=True)
    time.sleep(3)
    _, mounts = vm.sh("findmnt -rn -o TARGET | grep '^/media/babyalbum/' || echo none")
    if mounts.strip() != "none":
        raise Failure(f"something was mounted: {mounts}")
    _, report = vm.sh("/usr/local/bin/babyalbum doctor 2>&1", timeout=120)
    lines = [line.strip() for line in report.splitlines() if "not used" in line]
    for line in lines:
        print(f"    doctor: {line}", flush=True)
    if not any("ext4 is not read" in line for line in lines) or not any("no file system found" in line for line in lines):
        raise Failure(f"doctor does not say why each stick is not used:\n{report}")
    pull(vm, "stick2")
    pull(vm, "stick3")


def check_many(vm, many):
    step("5. a stick of 5,000 photos: the time to its first photo (reported)")
    plug(vm, "stick4", many)
    wait_for(vm, "journalctl -b -u babyalbum.service --no-pager -o cat", r"stick mounted: /media/babyalbum/MANY", 90,
             "the frame notices the big stick")
    command = "journalctl -b -u babyalbum.service --no-pager -o short-monotonic"
    shown = wait_for(vm, command, r"\[\s*([\d.]+)\][^\n]*showing /media/babyalbum/MANY/", 120,
                     "a photo of the big stick shown")
    _, log = vm.sh(command, timeout=60)
    mounted = re.search(r"\[\s*([\d.]+)\][^\n]*stick mounted: /media/babyalbum/MANY", log)
    print(f"    first of 5,000 photos shown {float(shown.group(1)) - float(mounted.group(1)):.1f} s after the frame "
          "saw the mount", flush=True)
    _, report = vm.sh("/usr/local/bin/babyalbum doctor 2>&1 | grep MANY", timeout=180)
    print(f"    doctor: {report.strip()}", flush=True)
    if "5000 photos" not in report:
        raise Failure(f"doctor does not count the big stick's photos: {report}")


def main():
    if not os.access(BABYALBUM_BIN, os.X_OK):
        print(f"{BABYALBUM_BIN} not built (swift build -c release: babyalbum and babyalbum-decoder)")
        return 1
    work = tempfile.mkdtemp(prefix="babyalbum-usb-vm-")
    os.chmod(work, 0o755)
    photo = os.path.join(work, "stick-photo.png")
    make_photo(photo)
    pixels = expected_frame(work, photo)
    fat, ext4, broken = make_images(work, photo)
    made = time.monotonic()
    many = make_many(work, photo)
    print(f"made the 5,000-photo stick image in {time.monotonic() - made:.0f} s", flush=True)
    devices = ["virtio-keyboard-pci", "virtio-tablet-pci", "qemu-xhci,id=xhci"]
    vm = systemd_vm.make_vm(work, systemd_vm.BINARY_INSTALL, setup_script=SETUP, devices=devices)
    started = time.monotonic()
    try:
        vm.start()
        print(f"booted systemd in {time.monotonic() - started:.0f} s", flush=True)
        wait_for(vm, "systemctl is-active babyalbum.service", r"^active", 180, "babyalbum.service start")
        check_settings(vm)
        restarts = check_fat_stick(vm, fat, pixels, os.path.join(vm.out, "screen.png"))
        check_pull(vm, restarts)
        check_ignored(vm, ext4, broken)
        check_many(vm, many)
        print(f"USB and settings VM checks passed in {time.monotonic() - started:.0f} s")
        return 0
    except (Failure, vmrig.VMError) as error:
        print(f"FAILED: {error}")
        try:
            _, mounts = vm.sh("findmnt -o TARGET,PROPAGATION / /media; pid=$(systemctl show -p MainPID --value "
                              "babyalbum.service); grep -E ' / | /media' /proc/$pid/mountinfo; grep -E ' / | /media' "
                              "/proc/1/mountinfo", timeout=30)
            print(mounts)
            print(journal(vm)[-3000:])
            print(journal(vm, "-t babyalbum-usb -t systemd-udevd -t systemd")[-3000:])
        except Exception:  # noqa: BLE001 - best effort diagnostics from a guest that may be gone
            print(vm.console[-3000:])
        return 1
    finally:
        vm.stop()
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
