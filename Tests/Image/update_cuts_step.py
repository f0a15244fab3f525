"""Power cuts during an update (issue 64, item 6), on QEMU's `virt` board through Debian's U-Boot,
as the update step boots it (Tests/Image/update_step.py), with the same good bundle on a stick.

Five cuts, each at a random moment (the run's seed), QEMU killed as a plug pulled out:
1. three during the install into slot B: slot A boots and shows a photo, its update timer (90 s
   after the boot) starts the install, the power goes off 0 to 20 s after the journal's
   "installing" line. The next boot must show a photo (slot A: RAUC took
   slot B out of BOOT_ORDER before writing it) and install the bundle again;
2. two during slot B's first boots: the install is let finish, the card reboots into slot B, and
   the power goes off 0 to 45 s after U-Boot's line for slot B (the kernel, the frame's start,
   before or after its first photo), twice; each of those boots took one of slot B's 3 tries.
Then the card is switched on and left alone: its boot must show a photo, from slot B (its third
try) marked good with the new version, `update-result` saying so, and the FAT's photos, the state
partition and the library unchanged. Every boot's slot and the moment of each cut are printed.
"""
import os
import random
import time

import update_step

INSTALL_CUTS = 3
#: Slot B's tries are 3: two cut first boots leave one, which must prove itself.
FIRST_BOOT_CUTS = 2
#: The cut's moment after the "installing" line: the install is the most of the 37 s from that line to
#: the reboot's U-Boot line (docs/benchmarks.md), which also waits for the frame's next photo.
INSTALL_WINDOW = 20.0
#: From U-Boot's line for slot B to its first photo: 36 s in the update step's runs.
FIRST_BOOT_WINDOW = 45.0
SLOT = r"babyalbum: slot ([AB]) \("


def step_update_cuts(vm, card, work, seed):
    if not os.path.exists(update_step.UBOOT):
        raise vm.Failure(f"{update_step.UBOOT} is missing: scripts/install-deps --test installs u-boot-qemu")
    rng = random.Random(seed)
    card.attach()
    vm.put_in_library(card, os.path.join(update_step.REPO, "Photos", "duck.png"), "library-duck.png")
    try:
        cut_updates(vm, card, work, rng)
    finally:
        card.attach()
        vm.empty_library(card)


def cut_updates(vm, card, work, rng):
    bundles, old, new = update_step.make_bundles(vm, card, work, other_key=False)
    plug = update_step.stick(vm, work, bundles)
    for bundle in bundles.values():
        os.unlink(bundle)
    before = update_step.parents_data(vm, card)
    card.detach()
    vm.power_off_all()
    for n in range(INSTALL_CUTS):
        cut_during_install(vm, card, work, plug, rng, n + 1)
    cut_first_boots(vm, card, work, plug, rng)
    check_updated(vm, card, work, plug, new)
    after = update_step.parents_data(vm, card)
    if after != before:
        raise vm.Failure(f"the cut updates changed what a parent owns: before {before}, after {after}")
    print(f"  {INSTALL_CUTS + FIRST_BOOT_CUTS} cuts; the FAT's {len(before['photos'])} photo(s), the state partition "
          f"and the library's {len(before['library'])} photo(s) unchanged; {old} -> {new}")


def booted_slot(guest):
    """The slot of U-Boot's first line for a slot in this power-on's console."""
    return guest.read_until(SLOT, 900).group(1)


def cut_during_install(vm, card, work, plug, rng, number):
    guest = update_step.power_on(vm, card, work, plug)
    try:
        slot = booted_slot(guest)
        guest.read_until("IMAGE-READY", 900)
        shown = vm.wait_showing(guest)
        installing = vm.journal_line(guest, "babyalbum-update.service", "installing ", 600)
        if not installing:
            _, why = guest.sh("journalctl -b -u babyalbum-update.service -u rauc.service -o cat | tail -n 20")
            raise vm.Failure(f"boot {number}: no install began:\n{why}")
        delay = rng.uniform(0, INSTALL_WINDOW)
        time.sleep(delay)
    finally:
        guest.kill()
    print(f"  cut {number}: slot {slot} showed a photo {shown:.0f} s after power-on; the power went off {delay:.1f} s "
          f"after '{installing.strip()}'")
    if slot != "A":
        raise vm.Failure(f"boot {number} after a cut install booted slot {slot}, not A")


def cut_first_boots(vm, card, work, plug, rng):
    """The install let finish on slot A; then slot B's first boot cut, and its second."""
    guest = update_step.power_on(vm, card, work, plug)
    try:
        guest.read_until("IMAGE-READY", 900)
        vm.wait_showing(guest)
        print(f"  boot {INSTALL_CUTS + 1}: slot {booted_slot(guest)} showed a photo; its install is let finish")
        guest.read_until(r"babyalbum: slot B \(virtio 0:3\)", 1800)
        delay = cut_after_slot_line(vm, guest, rng)
    finally:
        guest.kill()
    print(f"  cut {INSTALL_CUTS + 1}: slot B's first boot, {delay:.1f} s after U-Boot's line")
    for n in range(1, FIRST_BOOT_CUTS):
        guest = update_step.power_on(vm, card, work, plug)
        try:
            slot = booted_slot(guest)
            delay = cut_after_slot_line(vm, guest, rng)
        finally:
            guest.kill()
        print(f"  cut {INSTALL_CUTS + 1 + n}: slot {slot}'s boot, {delay:.1f} s after U-Boot's line")


def cut_after_slot_line(vm, guest, rng):
    """Sleeps a random part of FIRST_BOOT_WINDOW, reading the console on the way; returns it."""
    delay = rng.uniform(0, FIRST_BOOT_WINDOW)
    try:
        guest.read_until(r"(?!)", delay)  # never matches: the console is read (never left to fill) until then
    except vm.Failure:
        pass
    return delay


def check_updated(vm, card, work, plug, new):
    """The card switched on and left alone: slot B's third try shows a photo and is marked good."""
    guest = update_step.power_on(vm, card, work, plug)
    try:
        slot = booted_slot(guest)
        guest.read_until("IMAGE-READY", 900)
        shown = vm.wait_showing(guest)
        marked, now = update_step.slot_b_state(vm, guest)
    finally:
        guest.kill()
    print(f"  the last boot, left alone: slot {slot}, a photo {shown:.0f} s after power-on; "
          f"{' | '.join(now.strip().splitlines())}; {marked}")
    update_step.check_slot_b_proved(vm, marked, now, new, "after the cuts")
