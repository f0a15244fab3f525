"""An update from a USB stick (issue 64), on QEMU's `virt` board through Debian's U-Boot for it
(u-boot-qemu's qemu_arm64, `-bios`, which runs the card's boot.scr as the Pi's U-Boot does).

The bundles are made by scripts/bundle from a copy of the test's card whose slot A says a newer
babyalbum version (its dpkg status; the system is otherwise the card's, test shell included):
one signed with the development key that the card trusts, one with a throwaway key it does not,
and one of a version older than the card's (signed with the development key; babyalbum.txt does
not say `older-updates = yes`); and two the card must not trust: the good one with a byte of its
signature changed, and an unsigned squashfs with a manifest (Tests/Update/run refuses more
kinds on the host with the card's RAUC configuration). All are in the root folder of a FAT stick
plugged in at power-on. The card boots slot A and shows a photo; its update timer finds the
stick's bundles: the older, the other key's, the tampered and the unsigned one are refused with
one line each, nothing written; the good one is installed into slot B beside the slideshow, and the card
reboots into it: U-Boot boots slot B, the frame shows a photo, slot-good marks B good, and
dpkg says the new version. The FAT's photos, the state partition and the library's photo are the
same before and after, and the shuffle state slot A's frame began is still there. Measured: the
bundle's size and the time to make it, the install's time (to U-Boot's line of the reboot), the
time from that line to slot B's first photo. (The bytes written are the slot image's, 646 MiB:
RAUC writes the whole image; the card reboots at once, so the guest's own count is lost.)
"""
import hashlib
import os
import re
import subprocess
import time

UBOOT = "/usr/lib/u-boot/qemu_arm64/u-boot.bin"
from repo_paths import REPO  # noqa: E402
NEW_VERSION_SUFFIX = "+update1"
OLDER_VERSION_SUFFIX = "~older1"  # before the version itself in dpkg's order


def newer_card(vm, card, work, suffix=NEW_VERSION_SUFFIX):
    """A copy of the test's card whose slot A's dpkg status says babyalbum VERSION`suffix`."""
    path = os.path.join(work, "newer-card.img")
    vm.run("cp", "--sparse=always", card.path, path)
    offset = json_partition_start(vm, path, 2)
    loop = vm.run("losetup", "--find", "--show", "--offset", str(offset * 512), path).stdout.strip()
    try:
        status = vm.run("debugfs", "-R", "cat /var/lib/dpkg/status", loop).stdout
        stanza = re.search(r"^Package: babyalbum\n(?:.+\n)*?Version: (\S+)$", status, re.M)
        version = stanza.group(1) + suffix
        start, end = stanza.span(1)
        local = os.path.join(work, "status")
        with open(local, "w") as f:
            f.write(status[:start] + version + status[end:])
        vm.run("debugfs", "-w", "-R", "rm /var/lib/dpkg/status", loop)
        vm.run("debugfs", "-w", "-R", f"write {local} /var/lib/dpkg/status", loop)
    finally:
        vm.run("losetup", "-d", loop)
    return path, stanza.group(1), version


def json_partition_start(vm, path, number):
    import json
    table = json.loads(vm.run("sfdisk", "-J", path).stdout)["partitiontable"]["partitions"]
    return table[number - 1]["start"]


def make_bundles(vm, card, work, other_key=True, older=False):
    """The good bundle (development key) and, with `other_key`, one signed by a throwaway key;
    with `older`, one of an older version than the card's, signed with the development key."""
    if older:
        image, _, _ = newer_card(vm, card, work, OLDER_VERSION_SUFFIX)
        folder = os.path.join(work, "older")
        vm.run(os.path.join(REPO, "scripts", "bundle"), "--out", folder, image)
        os.unlink(image)
    image, old, new = newer_card(vm, card, work)
    good = os.path.join(work, "good")
    vm.run(os.path.join(REPO, "scripts", "bundle"), "--out", good, image)
    (name,) = os.listdir(good)
    bundles = {"b-good.raucb": os.path.join(good, name)}
    if other_key:
        other = os.path.join(work, "other")
        key, cert = os.path.join(work, "other.key"), os.path.join(work, "other.cert")
        vm.run("openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", cert, "-days",
               "30", "-subj", "/CN=not BabyAlbum")
        vm.run(os.path.join(REPO, "scripts", "bundle"), "--out", other, "--key", key, "--cert", cert, image)
        bundles["a-other-key.raucb"] = os.path.join(other, os.listdir(other)[0])
    if older:
        bundles["a-older.raucb"] = os.path.join(folder, os.listdir(folder)[0])
    os.unlink(image)
    return bundles, old, new


def unsigned_and_tampered(vm, work, good, version):
    """Two bundles the card must refuse as not signed for it: the good one with the last byte of
    its signature changed (the signer's RSA signature is the CMS's last element, and the bundle's
    last 8 bytes are the CMS's size), and a bare squashfs with a manifest of the same version and
    compatible and no signature at all."""
    tampered = os.path.join(work, "tampered.raucb")
    vm.run("cp", "--sparse=always", good, tampered)
    with open(tampered, "r+b") as f:
        f.seek(-9, os.SEEK_END)
        byte = f.read(1)[0]
        f.seek(-9, os.SEEK_END)
        f.write(bytes([byte ^ 0x01]))
    folder = os.path.join(work, "unsigned")
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, "rootfs.ext4"), "wb") as f:
        f.write(os.urandom(1 << 20))
    with open(os.path.join(REPO, "deploy", "update", "system.conf")) as f:
        compatible = re.search(r"^compatible=(\S+)", f.read(), re.M).group(1)
    with open(os.path.join(folder, "manifest.raucm"), "w") as f:
        f.write(f"[update]\ncompatible={compatible}\nversion={version}\n\n[bundle]\nformat=verity\n\n"
                "[image.rootfs]\nfilename=rootfs.ext4\n")
    unsigned = os.path.join(work, "unsigned.raucb")
    vm.run("mksquashfs", folder, unsigned, "-quiet", "-no-progress", "-all-root", "-noappend")
    return {"a-tampered.raucb": tampered, "a-unsigned.raucb": unsigned}


def stick(vm, work, bundles):
    """A FAT32 stick with the bundles in its root folder; QEMU's arguments that plug it in."""
    path = os.path.join(work, "update-stick.img")
    size = sum(os.path.getsize(p) for p in bundles.values()) + (64 << 20)
    with open(path, "wb") as f:
        f.truncate(size)
    vm.run("mkfs.vfat", "-F", "32", "-n", "UPDATE", path)
    for name, source in bundles.items():
        vm.run("mcopy", "-i", path, source, "::/" + name, env=dict(os.environ, MTOOLS_SKIP_CHECK="1"))
    return ["-drive", f"file={path},if=none,id=stick,format=raw,snapshot=on", "-device", "qemu-xhci,id=xhci",
            "-device", "usb-storage,bus=xhci.0,drive=stick"]


def power_on(vm, card, work, plug):
    """The card on `virt` through U-Boot (a reset restarts the board), the stick `plug` plugged in."""
    machine = ["-M", "virt", "-cpu", "cortex-a72", "-smp", "2", "-m", "1024", "-bios", UBOOT,
               "-drive", f"file={card.path},if=none,id=card,format=raw,cache=writeback", "-device",
               "virtio-blk-pci,drive=card", "-device", "virtio-gpu-pci", "-device", "virtio-keyboard-pci",
               "-serial", "SERIAL"] + plug
    guest = vm.Guest(card, work, None, None, "", machine=machine, reboot=True)
    vm.LIVE.append(guest)
    return guest


def parents_data(vm, card):
    """What an update must not touch: the FAT's photos, the state partition's file system, the
    library's photos (names and checksums)."""
    card.attach()
    state_uuid = vm.run("blkid", "-s", "UUID", "-o", "value", card.part(card.STATE)).stdout.strip()
    library = {}
    with vm.library_mounted(card) as photos:
        for name in sorted(os.listdir(photos)):
            with open(os.path.join(photos, name), "rb") as f:
                library[name] = hashlib.sha256(f.read()).hexdigest()
    return {"photos": vm.checksums(card), "state": state_uuid, "library": library}


def step_update(vm, card, work):
    if not os.path.exists(UBOOT):
        raise vm.Failure(f"{UBOOT} is missing: scripts/install-deps --test installs u-boot-qemu")
    card.attach()
    vm.put_in_library(card, os.path.join(REPO, "Photos", "duck.png"), "library-duck.png")
    try:
        update_from_stick(vm, card, work)
    finally:
        card.attach()
        vm.empty_library(card)  # the later steps' library starts empty (the sync step counts its folders)


#: The good bundle of this run (path, version), kept for the sync step's delivery by the family.
KEPT = {}


def good_bundle(vm, card, work):
    """This run's good bundle and its version: the update step's, else one made now."""
    if not KEPT:
        bundles, _, new = make_bundles(vm, card, work, other_key=False)
        keep(work, bundles["b-good.raucb"], new)
    return KEPT["path"], KEPT["version"]


def keep(work, bundle, version):
    path = os.path.join(work, "kept-good.raucb")
    os.replace(bundle, path)
    KEPT.update(path=path, version=version)


def update_from_stick(vm, card, work):
    started = time.monotonic()
    bundles, old, new = make_bundles(vm, card, work, older=True)
    size = os.path.getsize(bundles["b-good.raucb"])
    print(f"  bundles of {new} (slot A of the test's card, its version raised): {size / 1e6:.1f} MB each, made in "
          f"{time.monotonic() - started:.0f} s; one signed by a throwaway key, one of {old}{OLDER_VERSION_SUFFIX}")
    bundles.update(unsigned_and_tampered(vm, work, bundles["b-good.raucb"], new))
    plug = stick(vm, work, bundles)
    keep(work, bundles.pop("b-good.raucb"), new)
    for bundle in bundles.values():
        os.unlink(bundle)
    before = parents_data(vm, card)
    card.detach()
    vm.power_off_all()
    guest = power_on(vm, card, work, plug)
    try:
        guest.read_until("IMAGE-READY", 900)
        vm.wait_showing(guest)
        # The positive control: the stick is mounted where the update timer looks (on the card's
        # read-only root, /media is a tmpfs: without it no stick was ever mounted, 2026-12-05).
        _, mounted = guest.sh("for i in $(seq 60); do findmnt -rno SOURCE,FSTYPE,OPTIONS /media/babyalbum/UPDATE && "
                              "break; sleep 2; done; ls /media/babyalbum/UPDATE")
        print("  the stick: " + " ".join(mounted.split()))
        words = mounted.split()
        if "b-good.raucb" not in words or len(words) < 3 or "ro" not in words[2].split(","):
            raise vm.Failure("the update stick is not mounted read-only at /media/babyalbum/UPDATE: " + mounted)
        older = vm.journal_line(guest, "babyalbum-update.service", "refused a-older.raucb", 600)
        print(f"  the older bundle: {older}")
        if not older or f"{old}{OLDER_VERSION_SUFFIX} is older than the running {old}" not in older:
            _, why = guest.sh("journalctl -b -u babyalbum-update.service -o cat | tail -n 20")
            raise vm.Failure("the older bundle was not refused as older than the running system:\n" + why)
        refused = vm.journal_line(guest, "babyalbum-update.service", "refused a-other-key.raucb", 600)
        print(f"  the other key's bundle: {refused}")
        if not refused or "not signed for this frame" not in refused:
            _, why = guest.sh("journalctl -b -u babyalbum-update.service -o cat | tail -n 20")
            raise vm.Failure("the bundle of another key was not refused as not signed for this frame:\n" + why)
        for name, seen in (("a-tampered.raucb", "CMS_SignerInfo_verify:verification failure"),
                           ("a-unsigned.raucb", "Signature size is 0")):
            refused = vm.journal_line(guest, "babyalbum-update.service", f"refused {name}", 600)
            print(f"  {name}: {refused}")
            if not refused or "not signed for this frame" not in refused or seen not in refused:
                _, why = guest.sh("journalctl -b -u babyalbum-update.service -o cat | tail -n 20")
                raise vm.Failure(f"{name} was not refused as not signed for this frame ({seen}):\n" + why)
        installing = vm.journal_line(guest, "babyalbum-update.service", "installing b-good.raucb", 300)
        if not installing:
            _, why = guest.sh("journalctl -b -u babyalbum-update.service -u rauc.service -o cat | tail -n 30")
            raise vm.Failure("the good bundle was not installed:\n" + why)
        mark = time.monotonic()
        # The reboot waits for a quiet moment: no quiet hours here, so the frame's next photo.
        rebooting = vm.journal_line(guest, "babyalbum-update.service", "rebooting into slot B", 1800)
        print(f"  {(rebooting or '(no line)').strip()}")
        if not rebooting or not re.search(r"\(the frame: .*\bshowing /", rebooting):
            raise vm.Failure(f"the reboot did not wait for the frame's next photo: {rebooting!r}")
        guest.read_until(r"babyalbum: slot B \(virtio 0:3\)", 1800)
        install_seconds = time.monotonic() - mark
        reboot = time.monotonic()
        print(f"  installed and rebooted {install_seconds:.0f} s after '{installing.strip()}'")
        guest.read_until(r"slot B \(virtio 0:3\)[\s\S]*IMAGE-READY", 900)
        vm.wait_showing(guest)
        to_photo = time.monotonic() - reboot
        check_told_on_screen(vm, guest, work, f"Updated to {new}")
        marked, now = slot_b_state(vm, guest)
        print(f"  after the reboot: {' | '.join(now.strip().splitlines())}; first photo {to_photo:.0f} s after "
              f"the reboot's U-Boot line; {marked}")
        check_slot_b_proved(vm, marked, now, new, "after the update")
        _, doctor = guest.sh("babyalbum doctor 2>&1 | sed -n '/^Updates/,/^$/p'", timeout=600)
        print("  doctor: " + " | ".join(line.strip() for line in doctor.strip().splitlines()))
        if "system slot B; order B A; tries A 3, B 3" not in doctor or f"installed {new} into slot B" not in doctor:
            raise vm.Failure("doctor does not say slot B runs the update: " + doctor)
    finally:
        guest.kill()
    after = parents_data(vm, card)
    if after != before:
        raise vm.Failure(f"the update changed what a parent owns: before {before}, after {after}")
    # The shuffle round that slot A's frame began (the card was new) is on the state partition,
    # which slot B's frame went on with.
    if not card.state_file():
        raise vm.Failure("no shuffle state on the state partition after the update")
    print(f"  the FAT's {len(before['photos'])} photo(s), the state partition ({before['state']}, with its shuffle "
          f"state) and the library's {len(before['library'])} photo(s) are the same after the update; {old} -> {new}")


def slot_b_state(vm, guest):
    """After a boot that showed a photo: slot-good's line, and the kernel's slot, the root, dpkg's
    babyalbum version, the slots file, the trial and update-result's last line, a line each."""
    marked = vm.journal_line(guest, "babyalbum-ready.service", "slot-good:", 120)
    _, now = guest.sh("grep -o 'rauc.slot=[AB]' /proc/cmdline; findmnt -no SOURCE /; "
                      "dpkg-query -W -f '${Version}\\n' babyalbum; fw_printenv BOOT_ORDER BOOT_A_LEFT BOOT_B_LEFT; "
                      "t=$(fw_printenv -n BA_TRIAL 2>/dev/null); echo BA_TRIAL=${t:-none}; "
                      "tail -n 1 /var/lib/babyalbum/update-result")
    return marked, now


def check_slot_b_proved(vm, marked, now, new, when):
    """Slot B runs `new` from /dev/vda3, slot-good marked it good with its trial closed, and
    update-result says it was installed (`marked`, `now`: slot_b_state's)."""
    if now.strip().splitlines()[:3] != ["rauc.slot=B", "/dev/vda3", new]:
        raise vm.Failure(f"{when} the card does not run {new} from slot B: {now!r}")
    if not marked or "marked good" not in marked or "BOOT_B_LEFT=3" not in now or "BA_TRIAL=none" not in now:
        raise vm.Failure(f"{when} slot B showed a photo but was not marked good: {marked!r} {now!r}")
    if f"installed {new} into slot B" not in now:
        raise vm.Failure(f"{when} update-result does not say what happened: {now!r}")


def check_told_on_screen(vm, guest, work, words):
    """The frame of the new system tells the update once on screen (a minute from its start): its
    log line, and the line kept as told beside update-result. What OCR reads from a screendump is
    printed, not asserted: over a photo at 1280x800 tesseract read the words once, once with "l"
    for "1", and once nothing; the end-to-end tests (UpdateNoticeEndToEndTests) assert the words by
    OCR on the same drawing, in the program's png output."""
    # The frame tells it at its start, or at its next look (every 60 s) when the state partition
    # was mounted after it started.
    told = vm.journal_line(guest, "babyalbum.service", f'on screen: "{words}"', 150)
    if not told:
        _, log = guest.sh("journalctl -b -u babyalbum.service -o short-monotonic | tail -n 20; "
                          "journalctl -b -o short-monotonic | grep -F var-lib-babyalbum.mount | tail -n 3; "
                          "echo update-result:; cat /var/lib/babyalbum/update-result; "
                          "echo update-result-shown:; cat /var/lib/babyalbum/update-result-shown")
        raise vm.Failure(f"the frame did not say '{words}' on screen; its journal, the state partition's "
                         f"mount, the outcome and the one kept as told:\n{log}")
    screen = os.path.join(work, "update-told.png")
    guest.screendump(os.path.join(work, "update-told.ppm")).save(screen)
    read = subprocess.run(["tesseract", screen, "-"], capture_output=True, text=True).stdout
    read = " ".join(read.split())
    print(f"  on screen: the frame's line '{told.strip()}'; OCR of a screendump: '{read}'")
    # Kept as told at the frame's next look, a minute after it was told (or when it stops).
    _, kept = guest.sh("for i in $(seq 45); do cmp -s /var/lib/babyalbum/update-result-shown "
                       "/var/lib/babyalbum/update-result && break; sleep 2; done; "
                       "cat /var/lib/babyalbum/update-result-shown; echo; cat /var/lib/babyalbum/update-result",
                       timeout=150)
    kept_lines = [line for line in kept.splitlines() if line.strip()]
    if len(kept_lines) != 2 or kept_lines[0] != kept_lines[1]:
        raise vm.Failure(f"the outcome was not kept as told (update-result-shown, update-result): {kept!r}")
