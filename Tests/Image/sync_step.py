"""The family library on the card (issue 37), one boot of the arm64 VM, for image_vm.py.

A "family" Syncthing (Debian's) runs on the host's 127.0.0.1 with global discovery, relays, NAT
traversal and usage reports off (deploy/sync-lib.sh's sync_edit_config); the card's babyalbum.txt
lists it (`family-library = ID tcp://10.0.2.2:PORT`, QEMU's user network maps 10.0.2.2 to the
host) with `family-library-network = local`. The test plays the parent through the family's REST
API: it sees the card as a pending device, accepts it and shares its folder of 30 photos; every
photo arrives on the card unchanged (sha256), and the screen shows one of them. An unlisted
"stranger" Syncthing that dials the card and shares a folder is refused: it gets no folder onto
the card. The Pss of every process of the frame's and Syncthing's units is printed while photos
arrive. The library is filled until Syncthing refuses photos: the card says so in one line and
the slideshow goes on; with room again the photos arrive. The power is cut while a large photo is
in transfer over a slow link; the next boot resumes it from what the card kept. The family drops
an update bundle in its folder: the card installs it from the library and reboots once the quiet
hours in its babyalbum.txt have begun (issue 64). Then the family's
line is removed from babyalbum.txt: the next boot un-pairs the device, and its photos stay and are
shown.
"""

import datetime
import hashlib
import json
import os
import re
import shutil
import socket
import subprocess
import time
import urllib.request

from PIL import Image

import slots_step
import update_step

from repo_paths import REPO  # noqa: E402
SYNC_LIB = os.path.join(REPO, "deploy", "sync-lib.sh")
PHOTOS = 30
LIBRARY = "/var/lib/babyalbum-sync/photos"
#: How long the family's Syncthing may take to answer a scan (Family.scan): it hashes first.
SCAN_SECONDS = 600
#: 30 colours far apart: a frame all of one of them is that photo on screen.
COLOURS = [(40 + 60 * (i % 4), 40 + 60 * (i // 4 % 4), 60 + 90 * (i // 16)) for i in range(PHOTOS)]


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def lib(*args):
    return subprocess.run(["bash", "-c", '. "$0"; "$@"', SYNC_LIB, *args], check=True, capture_output=True,
                          text=True).stdout.strip()


class Family:
    """A Syncthing on the host's loopback, its folder send-only, driven through its REST API."""

    def __init__(self, work, name):
        self.home = os.path.join(work, name + "-home")
        self.folder = os.path.join(work, name + "-photos")
        os.makedirs(self.folder, exist_ok=True)
        self.listen, self.gui = free_port(), free_port()
        lib("sync_generate", self.home)
        lib("sync_edit_config", self.home, self.folder, "sendonly", f"127.0.0.1:{self.gui}",
            f"tcp://127.0.0.1:{self.listen}", "0")
        self.id = lib("sync_device_id", self.home)
        self.key = lib("sync_api_key", self.home)
        env = dict(os.environ, STNODEFAULTFOLDER="1", STNOUPGRADE="1", HOME=self.home)
        self.process = subprocess.Popen(["syncthing", "serve", f"--home={self.home}", "--no-browser", "--no-restart",
                                         "--no-upgrade"], env=env, stdout=open(self.home + ".log", "w"),
                                        stderr=subprocess.STDOUT)

    def api(self, method, path, body=None, timeout=10):
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(f"http://127.0.0.1:{self.gui}{path}", data=data, method=method,
                                         headers={"X-API-Key": self.key, "Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=timeout) as reply:
            text = reply.read()
            return json.loads(text) if text.strip() else None

    def scan(self):
        """Syncthing's scan of the family's folder, which answers once it has hashed what is new
        there: an update bundle of hundreds of MB on a loaded host took over 10 s (the final run
        of 2026-12-07, load 5 on 2 cores), so it gets SCAN_SECONDS."""
        self.api("POST", "/rest/db/scan?folder=babyalbum-family", timeout=SCAN_SECONDS)

    def wait(self, what, predicate, timeout, vm):
        deadline = time.monotonic() + timeout
        while True:
            try:
                value = predicate()
            except OSError:
                value = None
            if value:
                return value
            if time.monotonic() > deadline:
                raise vm.Failure(f"timed out after {timeout} s waiting for {what}")
            time.sleep(1)

    def log_tail(self):
        with open(self.home + ".log", errors="replace") as log:
            return "the family's Syncthing log, last lines:\n" + "".join(log.readlines()[-20:])

    def stop(self):
        if self.process.poll() is None:
            self.process.terminate()
            self.process.wait(30)


def make_photos(folder):
    sums = {}
    for i, colour in enumerate(COLOURS):
        name = f"family-{i:02d}.png"
        path = os.path.join(folder, name)
        Image.new("RGB", (320, 240), colour).save(path)
        with open(path, "ab") as f:
            f.write(os.urandom(16))  # unique bytes after IEND: checksums tell the photos apart
        with open(path, "rb") as f:
            sums[name] = hashlib.sha256(f.read()).hexdigest()
    return sums


#: The step's slideshow lines for babyalbum.txt: photos every 3 s, cut in rather than faded. Under
#: TCG a blended picture takes longer than a refresh, so a fade keeps the guest's CPU busy for its
#: whole second, a third of the step's time at an interval of 3 s, CPU that Syncthing and the other
#: lanes of scripts/test need. The card runs its default fades in the boot and power-cut steps.
SLIDESHOW_LINES = "interval = 3\r\ntransition = none\r\n"


#: A Wi-Fi password in babyalbum.txt (without a wifi-name: no network is made of it), which the
#: card's network-facing Syncthing must never be able to read (issue 61).
SECRET = "SyncSecret-4711"


def settings_lines(family):
    """The family's line for babyalbum.txt, the child's name (the frame's name in Syncthing), a
    password the sync unit must not read, and the step's slideshow lines."""
    return (f"\r\nfamily-library = {family.id} tcp://10.0.2.2:{family.listen}\r\n"
            f"family-library-network = local\r\nname = Mia\r\nwifi-password = {SECRET}\r\n" + SLIDESHOW_LINES)


def check_secret_hidden_from_sync(vm, guest):
    """The sync unit's babyalbum.txt holds no password, while the system's does (the control)."""
    _, out = guest.sh("pid=$(systemctl show -p MainPID --value babyalbum-sync.service); "
                      f"grep -c '{SECRET}' /boot/firmware/babyalbum.txt; "
                      f"nsenter -t $pid -m grep -c '{SECRET}' /boot/firmware/babyalbum.txt; "
                      "nsenter -t $pid -m grep -c '^family-library = ' /boot/firmware/babyalbum.txt", timeout=60)
    counts = out.split()
    print(f"  the Wi-Fi password in babyalbum.txt: {counts[0] if counts else '?'} line(s) for the system, "
          f"{counts[1] if len(counts) > 1 else '?'} for the sync unit (which sees "
          f"{counts[2] if len(counts) > 2 else '?'} family-library line)")
    if counts[:3] != ["1", "0", "1"]:
        raise vm.Failure(f"the sync unit can read the Wi-Fi password, or the control failed: {out}")


def step_sync(vm, card, work, boot_files):
    family = Family(work, "family")
    stranger = Family(work, "stranger")
    sums = make_photos(family.folder)
    make_photos(stranger.folder)
    card.attach()
    settings = os.path.join(work, "babyalbum.txt")
    card.mtools("mcopy", "-o", "::/babyalbum.txt", settings)
    original = open(settings, newline="").read()
    with open(settings, "a", newline="") as f:
        f.write(settings_lines(family))
    card.mtools("mcopy", "-o", settings, "::/babyalbum.txt")
    card_port = free_port()
    try:
        network = ["-netdev", f"user,id=net0,hostfwd=tcp:127.0.0.1:{card_port}-:22000",
                   "-device", "virtio-net-pci,netdev=net0"]
        guest = vm.boot(card, work, boot_files, extra=network)
        vm.wait_showing(guest)
        vm.check_grown_once(guest)
        try:
            card_id = check_sync(vm, guest, family, stranger, sums, card_port, work)
            check_library_full(vm, guest, family)
            guest = check_cut_mid_transfer(vm, card, work, boot_files, network, guest, family, card_id)
            check_bundle_from_family(vm, card, work, boot_files, network, family)
            guest = check_unpaired(vm, card, work, boot_files, network, original, family)
        except vm.Failure as failure:
            raise vm.Failure(f"{failure}\n{card_side(live_guest(vm))}\n{family.log_tail()}") from None
        guest.kill()
    finally:
        family.stop()
        stranger.stop()
        card.attach()
        with open(settings, "w", newline="") as f:
            f.write(original)
        card.mtools("mcopy", "-o", settings, "::/babyalbum.txt")
        vm.empty_library(card)


def check_sync(vm, guest, family, stranger, sums, card_port, work):
    started = time.monotonic()
    pending = family.wait("the card as a pending device on the family's Syncthing",
                          lambda: family.api("GET", "/rest/cluster/pending/devices"), 600, vm)
    card_id = next(iter(pending))
    announced = pending[card_id].get("name", "")
    print(f"  the family sees the card {card_id} pending after {time.monotonic() - started:.0f} s, named "
          f"'{announced}'; accepts it, shares its folder")
    if announced != f"BabyAlbum Mia {card_id[:7]}":
        raise vm.Failure(f"the card does not offer itself by the child's name and its ID: '{announced}'")
    check_secret_hidden_from_sync(vm, guest)
    family.api("PUT", f"/rest/config/devices/{card_id}", {"deviceID": card_id, "name": "card",
                                                           "addresses": [f"tcp://127.0.0.1:{card_port}"]})
    family.api("PATCH", "/rest/config/folders/babyalbum-family",
               {"devices": [{"deviceID": family.id}, {"deviceID": card_id}]})
    # The stranger dials the card and offers a folder; the card lists no such device.
    stranger.api("PUT", f"/rest/config/devices/{card_id}", {"deviceID": card_id, "name": "card",
                                                             "addresses": [f"tcp://127.0.0.1:{card_port}"]})
    stranger.api("PATCH", "/rest/config/folders/babyalbum-family",
                 {"devices": [{"deviceID": stranger.id}, {"deviceID": card_id}]})
    memory = []
    def arrived():
        memory.append(pss(guest))
        return all(name in listed(guest) for name in sums)
    try:
        family.wait("all 30 photos on the card", arrived, 900, vm)
    except vm.Failure:
        pass
    photos = on_card(guest)
    print(f"  the family's photos on the card {time.monotonic() - started:.0f} s after the boot's shell")
    _, pairing = guest.sh("journalctl -b -o cat -u babyalbum-sync.service | grep 'family-library: paired'",
                          timeout=60)
    print("  the card's pairing: " + "; ".join(line.split(": ", 1)[-1][:60] + "…" for line in pairing.splitlines()))
    if {name: photos.get(name) for name in sums} != sums:
        missing = sorted(set(sums) - set(photos))
        changed = sorted(n for n in sums if n in photos and photos[n] != sums[n])
        raise vm.Failure(f"photos on the card differ from the family's: missing {missing}, changed {changed}, "
                         f"{len(photos)} there")
    print(f"  all {PHOTOS} photos on the card, unchanged (sha256)")
    check_screen(vm, guest, work)
    check_stranger(vm, guest, stranger)
    print_memory("while the 30 photos arrived", memory)
    return card_id


def guest_uptime(guest):
    _, text = guest.sh("cut -d' ' -f1 /proc/uptime", timeout=60)
    return float(text.split()[0])


def journal_since(guest, unit, since):
    """The lines `unit` logged in this boot after the guest's uptime `since`, without timestamps."""
    _, text = guest.sh(f"journalctl -b -o short-monotonic --no-pager -u {unit}", timeout=60)
    lines = []
    for line in text.splitlines():
        found = re.match(r"\[\s*([0-9.]+)\]\s+\S+\s+(.*)", line)
        if found and float(found.group(1)) > since:
            lines.append(found.group(2))
    return lines


def check_library_full(vm, guest, family):
    """The library's partition is filled (a file of root's) until 1 % and 2 MB are free, and the
    family sends three 4.3 MB photos. Syncthing refuses them at every retry; the card says so in
    one line, Syncthing is not restarted, and the slideshow goes on. With room again (the file
    deleted) it says so, and the photos arrive once the family sends another."""
    filler = "/var/lib/babyalbum-sync/test-filler"
    since = guest_uptime(guest)
    restarts = {unit: unit_restarts(vm, guest, unit) for unit in ("babyalbum-sync.service", "babyalbum.service")}
    guest.sh(f"set -- $(df -B1 --output=avail,size /var/lib/babyalbum-sync | tail -n 1); "
             f"fallocate -l $(($1 - $2 / 100 - 2000000)) {filler}; sync", timeout=120)
    _, free = guest.sh("df -h --output=avail,size /var/lib/babyalbum-sync | tail -n 1", timeout=60)
    waiting = {name: big_photo(family.folder, name, 1200)[1] for name in ("family-full-1.png", "family-full-2.png",
                                                                        "family-full-3.png")}
    family.scan()
    def said(text):
        return [line for line in journal_since(guest, "babyalbum-sync.service", since) if text in line]
    await_line(vm, guest, "the library is full", 300)
    time.sleep(75)  # Syncthing retries after a minute, and is refused again
    lines = journal_since(guest, "babyalbum-sync.service", since)
    full = [line for line in lines if "the library is full" in line]
    retries = [line for line in lines if re.search(r"insufficient space|Failed to sync|making sync progress", line)]
    if len(full) != 1 or retries:
        raise vm.Failure(f"a full library is not one line: {len(full)} 'full' lines and Syncthing's retries "
                         f"{retries[:6]}:\n" + "\n".join(lines[-30:]))
    size = os.path.getsize(os.path.join(family.folder, "family-full-1.png")) / 1e6
    named = re.search(r"a photo of ([0-9.]+) MB waits", full[0])
    if not named or not size - 0.05 <= float(named.group(1)) <= size + 0.15:
        raise vm.Failure(f"the 'full' line does not name the waiting photo's {size:.1f} MB: {full[0]}")
    arrived = sorted(set(waiting) & set(on_card(guest)))
    if arrived:
        raise vm.Failure(f"photos arrived on a full library: {arrived} (the filler left {free.strip()})")
    check_unit_lives(vm, guest, "babyalbum-sync.service", restarts["babyalbum-sync.service"])
    shown = check_unit_lives(vm, guest, "babyalbum.service", restarts["babyalbum.service"], showing_since=since)
    print(f"  library full ({free.split()[0]} free of {free.split()[1]}), 3 photos of 4.3 MB refused for 75 s and "
          f"more: one line in the {len(lines)} of the sync unit, no retry line, neither unit restarted, {shown} "
          "photos shown meanwhile:\n"
          f"    {full[0].split(': ', 1)[-1]}")
    since = guest_uptime(guest)
    guest.sh(f"rm -f {filler}; sync", timeout=120)
    await_line(vm, guest, "has room again", 180)
    waiting["family-room.png"] = big_photo(family.folder, "family-room.png", 64)[1]
    family.scan()
    family.wait("the waiting photos on the card", lambda: all(n in listed(guest) for n in waiting), 600, vm)
    kept = on_card(guest)
    if any(kept.get(n) != d for n, d in waiting.items()):
        raise vm.Failure(f"the waiting photos arrived changed: {sorted(n for n, d in waiting.items() if kept.get(n) != d)}")
    print(f"  room again: {said('has room again')[0].split(': ', 1)[-1]}; the 3 waiting photos arrived with the next one")


def unit_state(vm, guest, unit):
    """Whether `unit` is active, and how often systemd restarted it in this boot."""
    _, state = guest.sh(f"systemctl show -p ActiveState -p NRestarts {unit}", timeout=60)
    found = re.search(r"^NRestarts=(\d+)$", state, re.M)
    if not found:
        raise vm.Failure(f"systemd does not say how often {unit} was restarted: {state}")
    return "ActiveState=active" in state, int(found.group(1))


def unit_restarts(vm, guest, unit):
    """How often systemd restarted `unit` in this boot; an earlier restart is printed with its
    reason (systemd's lines), so that a run shows why, and only the window after counts."""
    active, restarts = unit_state(vm, guest, unit)
    if not active:
        raise vm.Failure(f"{unit} is not running before the library fills (NRestarts={restarts})")
    if restarts:
        print(f"  {unit} was restarted {restarts} time(s) before the library filled, by systemd for: "
              + " | ".join(restart_reasons(guest, unit)))
    return restarts


def restart_reasons(guest, unit):
    """systemd's own lines on how `unit` ended in this boot (a crash, a timeout, the watchdog)."""
    _, text = guest.sh(f"journalctl -b -o short-monotonic --no-pager UNIT={unit} _PID=1 "
                       "| grep -E 'exited|Failed|[Tt]imeout|[Ww]atchdog|Scheduled restart|Killing'", timeout=60)
    return text.strip().splitlines()[-8:] or ["(no line from systemd)"]


def check_unit_lives(vm, guest, unit, restarts_before, showing_since=None):
    """`unit` is active and was not restarted since it had `restarts_before`; with
    `showing_since`, the photos it showed since then."""
    active, restarts = unit_state(vm, guest, unit)
    if not active or restarts != restarts_before:
        raise vm.Failure(f"{unit} did not live through the full library (active: {active}; NRestarts {restarts_before} "
                         f"before it filled, {restarts} after):\n" + "\n".join(restart_reasons(guest, unit)))
    if showing_since is None:
        return 0
    shown = len([line for line in journal_since(guest, unit, showing_since) if " showing " in line])
    if shown < 10:
        raise vm.Failure(f"the slideshow did not go on while the library was full: {shown} photos shown (interval 3 s)")
    return shown


def print_memory(when, memory):
    """The highest Pss of the frame and Syncthing together among the samples."""
    worst = max(memory, key=lambda m: m[0] + m[1])
    print(f"  memory {when} ({len(memory)} samples): the frame {worst[0] / 1024:.1f} MB Pss, "
          f"Syncthing {worst[1] / 1024:.1f} MB, together {(worst[0] + worst[1]) / 1024:.1f} MB at the highest")


def live_guest(vm):
    """The guest running now, for a failure's diagnosis; None when the card is powered off."""
    running = [guest for guest in vm.LIVE if guest.proc.poll() is None]
    return running[-1] if running else None


def big_photo(folder, name="family-big.png", side=2900):
    """A PNG of noise (2900x2900: about 25 MB, long enough in transfer to be cut in the middle)."""
    path = os.path.join(folder, name)
    Image.frombytes("RGB", (side, side), os.urandom(side * side * 3)).save(path, compress_level=0)
    with open(path, "rb") as f:
        return path, hashlib.sha256(f.read()).hexdigest()


def family_sent(family):
    """The bytes the family's Syncthing has sent in all, over every connection it has had."""
    return family.api("GET", "/rest/system/connections")["total"]["outBytesTotal"]


#: The family's upload limit while the large photo is sent, KiB/s: a slow home link, so that the
#: card has held the photo's first blocks for longer than the kernel keeps written data in memory
#: (30 s, vm.dirty_expire_centisecs) when the power is cut, as on a real link (issue 63 item 6).
SLOW_LINK_KIBPS = 200
#: The share of the large photo the family has sent when the card's power is cut.
CUT_AT = 0.6
#: Syncthing's block for a file under 256 MiB: what a resumed transfer need not send again.
SYNC_BLOCK = 128 * 1024


def limit_family_upload(family, kibps):
    """The family's upload limit in KiB/s (0: none), on the loopback too (it counts as the LAN)."""
    family.api("PATCH", "/rest/config/options", {"maxSendKbps": kibps, "limitBandwidthInLan": kibps > 0})


def blocks_kept(vm, card, work, photo, partial):
    """How many of the photo's Syncthing blocks the card's temporary file held after the cut: read
    from a copy of the library partition whose journal e2fsck has replayed (as the next boot's
    fsck does), compared block by block with the family's photo. `partial`: the temporary file's
    path in the card's library folder."""
    card.attach()
    copy = os.path.join(work, "library-after-cut.ext4")
    subprocess.run(["dd", f"if={card.part(card.LIBRARY)}", f"of={copy}", "bs=4M", "status=none"], check=True)
    subprocess.run(["e2fsck", "-f", "-y", copy], capture_output=True)
    dumped = os.path.join(work, "family-big.tmp")
    inside = "/" + os.path.relpath(os.path.join(LIBRARY, partial), os.path.dirname(LIBRARY))
    said = subprocess.run(["debugfs", "-R", f'dump "{inside}" {dumped}', copy], capture_output=True, text=True)
    os.remove(copy)
    if not os.path.exists(dumped):
        raise vm.Failure(f"the temporary file {inside} could not be read from the cut card: {said.stderr.strip()}")
    kept = total = 0
    with open(photo, "rb") as theirs, open(dumped, "rb") as ours:
        while block := theirs.read(SYNC_BLOCK):
            total += 1
            kept += ours.read(len(block)) == block
    os.remove(dumped)
    return kept, total


def check_cut_mid_transfer(vm, card, work, boot_files, network, guest, family, card_id):
    """The card's power is cut while a large photo is being received over a slow link, once the
    family has sent 60 % of it (its `.syncthing.*.tmp` is on the library). The next boot's fsck is
    clean or replays the journal, the partial file is never shown, and the transfer resumes: the
    family sends what the card's temporary file did not keep, not the whole photo again, and the
    photo arrives unchanged."""
    path, digest = big_photo(family.folder)
    whole = os.path.getsize(path)
    limit_family_upload(family, SLOW_LINK_KIBPS)
    sent_at_scan = family_sent(family)
    family.scan()
    seen = (f"find {LIBRARY} \\( -name .syncthing.family-big.png.tmp -size +1k -printf 'partial %P\\n' \\) -o "
            f"\\( -name family-big.png -printf 'whole\\n' \\)")
    deadline = time.monotonic() + 600
    memory = []
    # A memory sample a second, and the family's count of bytes sent: nothing else asked of the
    # emulated card while it receives.
    while family_sent(family) - sent_at_scan < CUT_AT * whole:
        if time.monotonic() > deadline:
            raise vm.Failure(f"the family sent {family_sent(family) - sent_at_scan} bytes of the {whole}-byte photo "
                             "in 600 s: no cut in the middle of a transfer was made")
        memory.append(pss(guest))
        time.sleep(1)
    _, state = guest.sh(seen, timeout=60)
    if not state.startswith("partial "):
        raise vm.Failure(f"at the cut the large photo was not in transfer on the card: '{state.strip()}'")
    partial = state.strip().splitlines()[0][len("partial "):]
    sent_at_cut = family_sent(family) - sent_at_scan
    print_memory("while family-big.png arrived", memory)
    guest.kill()
    limit_family_upload(family, 0)
    print(f"  power cut while family-big.png was in transfer over a {SLOW_LINK_KIBPS} KiB/s link, the family "
          f"having sent {sent_at_cut / whole:.0%} of it")
    kept, total = blocks_kept(vm, card, work, path, partial)
    print(f"  the card's temporary file kept {kept} of the photo's {total} blocks of 128 KiB through the cut")
    if kept == 0:
        raise vm.Failure("the card's temporary file kept none of the photo's blocks through the cut: "
                         "nothing to resume from")
    sent_before = family_sent(family)
    guest = vm.boot(card, work, boot_files, extra=network)
    vm.wait_showing(guest)
    # The library's fsck unit is named for partition 6 of the card (its fstab name); e2fsck names
    # the file system by its label.
    _, fsck = guest.sh("journalctl -b -o cat -u 'systemd-fsck@dev-disk-babyalbum-part6.service' "
                       "| grep BA-LIBRARY", timeout=60)
    print("  the next boot's fsck of the library:", fsck.strip() or "(no line)")
    if "BA-LIBRARY" not in fsck or not re.search(r"clean|recovering journal|\d+/\d+ files", fsck):
        raise vm.Failure("the next boot's fsck of the library did not end clean:\n" + fsck)
    family.wait("family-big.png on the card after the cut", lambda: "family-big.png" in listed(guest), 900, vm)
    if on_card(guest).get("family-big.png") != digest:
        raise vm.Failure("family-big.png arrived changed after the cut (its sha256 differs from the family's)")
    # Issue 63 item 6: the transfer resumes from the kept temporary file. What the family sends
    # after the cut is the blocks the card did not keep, and its messages (2 MB allowed for them).
    resent = family_sent(family) - sent_before
    missing = whole - kept * SYNC_BLOCK
    print(f"  after the cut the family sent {resent / 1e6:.1f} MB for the {whole / 1e6:.1f} MB photo "
          f"({resent / whole:.0%} of it; the {total - kept} blocks the card had not kept are {missing / 1e6:.1f} MB)")
    if resent > missing + 2_000_000:
        raise vm.Failure(f"the transfer did not resume: after the cut the family sent {resent} bytes, more than the "
                         f"{missing} bytes the card's temporary file lacked")
    _, shown = guest.sh("journalctl -b -o cat -u babyalbum.service | grep -c 'showing .*syncthing' || true", timeout=60)
    if shown.strip() != "0":
        raise vm.Failure("the frame showed a photo being transferred (a .syncthing temporary name)")
    print("  after the cut the transfer resumed and finished: family-big.png unchanged (sha256); "
          "no temporary file was shown")
    vm.freeze_library(guest)
    guest.kill()
    card.attach()
    check = subprocess.run(["e2fsck", "-n", "-f", card.part(card.LIBRARY)], capture_output=True, text=True)
    if check.returncode != 0:
        raise vm.Failure("the library's fsck after the boot that resumed is not clean:\n" + check.stdout)
    return guest


def check_bundle_from_family(vm, card, work, boot_files, network, family):
    """An update through the family library (issue 64): the family drops this run's good bundle
    (the update step's, signed with the development key) into its shared folder; Syncthing
    delivers it to the library's folder, where the card's update timer finds it and installs it
    into slot B beside the slideshow, then reboots at its quiet moment. This boot's babyalbum.txt
    has quiet hours that begin minutes after the power-on (the card is UTC; `virt`'s PL031 set
    its clock, so the frame trusts it): the install says the new system starts at the next quiet
    hours, and the reboot comes once they have begun, never before (either the update waited for
    the frame's "quiet hours began", or the install ended inside them and it reboots at once).
    This boot has no U-Boot (QEMU loads slot A's kernel), so slot B's boot is the update step's
    to prove; the line that the install ended and the reboot are checked here."""
    bundle, version = update_step.good_bundle(vm, card, work)
    grow_library(vm, card, os.path.getsize(bundle) + (64 << 20))
    slots_as_uboot_left_them(card, work)
    settings = os.path.join(work, "babyalbum.txt.quiet")
    card.mtools("mcopy", "-o", "::/babyalbum.txt", settings)
    before = open(settings, newline="").read()
    quiet_from = quiet_hours_soon(settings, QUIET_HOURS_AFTER_POWER_ON)
    card.mtools("mcopy", "-o", settings, "::/babyalbum.txt")
    try:
        check_family_bundle_waits_for_quiet_hours(vm, card, work, boot_files, network, family, bundle, version,
                                                  quiet_from)
    finally:
        card.attach()
        with open(settings, "w", newline="") as f:
            f.write(before)
        card.mtools("mcopy", "-o", settings, "::/babyalbum.txt")


def slots_as_uboot_left_them(card, work):
    """The slots file on the FAT that RAUC's uboot backend writes with fw_setenv: on a Pi, U-Boot's
    boot.scr writes it at the card's first boot; these boots load the kernel without U-Boot, so
    when no earlier step of this run booted the card through U-Boot (the update step does), it is
    written here as that first boot leaves it (slot A, its tries given back by slot-good)."""
    if slots_step.SLOTS[0] in (os.path.basename(name) for name in card.mtools("mdir", "-b", "::/").stdout.split()):
        return
    card.mtools("mcopy", "-o", slots_step.slots_file(work, "A B", 3, 3), "::/" + slots_step.SLOTS[0])
    print(f"  {slots_step.SLOTS[0]} written as U-Boot's first boot leaves it (no step before booted through U-Boot)")


#: How long after the power-on the family delivery's quiet hours begin: after the first photo (a
#: minute or two on `virt`) and, most runs, after the install (about three more minutes).
QUIET_HOURS_AFTER_POWER_ON = 360


def quiet_hours_soon(settings, seconds):
    """Adds to the babyalbum.txt at `settings` quiet hours of an hour that begin at the first
    whole minute `seconds` from now (UTC, the card's zone): long enough that an install slowed by
    a loaded machine still ends inside them. Returns their beginning."""
    begin = datetime.datetime.now(datetime.timezone.utc) + datetime.timedelta(seconds=seconds + 59)
    begin = begin.replace(second=0, microsecond=0)
    end = begin + datetime.timedelta(hours=1)
    with open(settings, "a", newline="") as f:
        f.write(f"\r\nquiet-hours = {begin:%H:%M}-{end:%H:%M}\r\n")
    return begin


def check_family_bundle_waits_for_quiet_hours(vm, card, work, boot_files, network, family, bundle, version,
                                              quiet_from):
    guest = vm.boot(card, work, boot_files, extra=network)
    vm.wait_showing(guest)
    started = time.monotonic()
    name = "family-update.raucb"
    shutil.copyfile(bundle, os.path.join(family.folder, name))
    family.scan()
    arrived = vm.journal_line(guest, "babyalbum-update.service", f"installing {name}", 1200)
    if not arrived:
        _, why = guest.sh(f"ls -la {LIBRARY} | grep -i raucb; journalctl -b -o cat -u babyalbum-update.service "
                          "| tail -n 10", timeout=60)
        raise vm.Failure(f"the family's bundle was not installed from the library in 1200 s:\n{why}")
    print(f"  the family's bundle ({os.path.getsize(bundle) / 1e6:.0f} MB) delivered by Syncthing and its install "
          f"begun {time.monotonic() - started:.0f} s after the family dropped it: '{arrived.strip()}'")
    # The first line that says the card reboots: at once inside the quiet hours, or into slot B
    # once the frame said they began (or, wrongly, after its next photo). Its follower is on
    # while the install runs, so a reboot right after the install's last line is not missed.
    rebooting = vm.journal_line(guest, "babyalbum-update.service", "rebooting ", QUIET_HOURS_AFTER_POWER_ON + 900)
    seen = datetime.datetime.now(datetime.timezone.utc)
    journal = ""
    if not rebooting:  # what the update said, while the guest still runs
        try:
            _, journal = guest.sh("journalctl -b -o cat -u babyalbum-update.service -u rauc.service | grep -v -E "
                                  "'^(Starting|Finished) babyalbum-update|Deactivated successfully' | tail -n 40",
                                  timeout=120)
        except Exception as error:  # noqa: BLE001 (the guest is gone: update-result still tells)
            journal = f"(its journal could not be read: {error})"
    guest.kill()
    card.attach()
    # What the install said, as update-result keeps it on the state partition (synced before the reboot).
    installed = subprocess.run(["debugfs", "-R", "cat /update-result", card.part(card.STATE)], capture_output=True,
                               text=True).stdout.strip()
    print(f"  update-result: {installed}; {(rebooting or 'no reboot line').strip()} (seen at {seen:%H:%M:%S}; "
          f"quiet hours from {quiet_from:%H:%M})")
    if f"installed {version} into slot B; it starts at the next quiet hours" not in installed:
        raise vm.Failure(f"the family's bundle was not installed into slot B to start at the quiet hours of "
                         f"babyalbum.txt: update-result says {installed!r}\n{journal}")
    if not rebooting:
        raise vm.Failure("after the family's bundle was installed the card did not reboot into slot B:\n" + journal)
    at_once = "the frame is in its quiet hours: rebooting now" in rebooting
    waited = re.search(r"rebooting into slot B \(the frame: .*quiet hours began", rebooting)
    if not (at_once or waited) or seen < quiet_from - datetime.timedelta(seconds=30):
        raise vm.Failure(f"the reboot did not wait for the quiet hours that begin at {quiet_from:%H:%M}: "
                         f"{rebooting.strip()!r} at {seen:%H:%M:%S}")
    print("  the reboot waited for the quiet hours: "
          + ("the install ended inside them" if at_once else "the frame said they began"))
    os.unlink(os.path.join(family.folder, name))


def grow_library(vm, card, room):
    """The test's card made `room` bytes larger, its library partition (logical 6, in the extended
    partition 4) and file system grown into them, as a parent's larger SD card would give: the
    test card's library is 64 MB, too small for a bundle. The card's own growth runs once, at its
    first boot (the library step)."""
    card.detach()
    vm.power_off_all()
    with open(card.path, "r+b") as f:
        f.truncate(os.path.getsize(card.path) + room)
    for number in ("4", "6"):
        subprocess.run(["sfdisk", "--no-reread", "--no-tell-kernel", "-q", "-N", number, card.path], input=",+\n",
                       text=True, check=True, capture_output=True)
    card.attach()
    library = card.part(card.LIBRARY)
    subprocess.run(["e2fsck", "-f", "-y", library], capture_output=True)
    vm.run("resize2fs", library)


def check_unpaired(vm, card, work, boot_files, network, original, family):
    """The parent deletes the family's line from babyalbum.txt: the next boot deletes that device
    from the card's Syncthing configuration and, with no family device left, does not start
    Syncthing; the photos it sent stay on the card and are still shown."""
    card.attach()
    settings = os.path.join(work, "babyalbum.txt.unpaired")
    with open(settings, "w", newline="") as f:
        f.write(original + "\r\n" + SLIDESHOW_LINES)
    card.mtools("mcopy", "-o", settings, "::/babyalbum.txt")
    guest = vm.boot(card, work, boot_files, extra=network)
    vm.wait_showing(guest)
    # With no family device left, Syncthing is not started (the unit's ExecCondition, which
    # un-pairs first): the unit ends skipped, and its configuration is read from the file.
    deadline = time.monotonic() + 300
    while True:
        _, unit = guest.sh("systemctl show -p ActiveState,Result babyalbum-sync.service | sort | tr '\\n' ' '",
                           timeout=60)
        if unit.split() == ["ActiveState=inactive", "Result=exec-condition"]:
            break
        if time.monotonic() > deadline:
            _, said = guest.sh("journalctl -b -o cat -u babyalbum-sync.service", timeout=60)
            raise vm.Failure(f"the family's line was removed, but in 300 s Syncthing was not skipped ({unit}):\n{said}")
        time.sleep(3)
    _, said = guest.sh("journalctl -b -o cat -u babyalbum-sync.service | grep 'family-library: '", timeout=60)
    if f"un-paired {family.id}" not in said or "Syncthing is not started" not in said:
        raise vm.Failure(f"the card did not say it un-paired {family.id} and left Syncthing off:\n{said}")
    _, devices = guest.sh("sed -n 's|^    <device id=\"\\([^\"]*\\)\".*|\\1|p' /var/lib/babyalbum-sync/config.xml",
                          timeout=60)
    if family.id in devices or not devices.strip():
        raise vm.Failure(f"the un-paired device is still in the card's configuration, or the card's own is gone:\n{devices}")
    # The card's own entry stays (it was once deleted as un-paired when the family's ID sorted first).
    if said.count("un-paired ") != 1:
        raise vm.Failure(f"the card un-paired more than the family's device:\n{said}")
    kept = on_card(guest)
    if len(kept) < PHOTOS:
        raise vm.Failure(f"un-pairing lost photos: {len(kept)} of the family's {PHOTOS + 1} left on the card")
    deadline = time.monotonic() + 120
    while True:
        _, shown = guest.sh("journalctl -b -o cat -u babyalbum.service | grep -o 'showing .*family-[0-9a-z]*.png' "
                            "| tail -n 1", timeout=60)
        if shown.strip():
            break
        if time.monotonic() > deadline:
            raise vm.Failure("after un-pairing, no family photo was shown in 120 s (interval 3 s)")
        time.sleep(3)
    print(f"  the family's line removed: the next boot un-paired {family.id[:7]} (not in the card's devices) "
          f"and did not start Syncthing ({unit.strip()}); "
          f"its {len(kept)} photos stay on the card and are shown ({shown.strip().split('/')[-1]})")
    return guest


def listed(guest):
    """The family's photos in the card's library, by name: their size. Asked while waiting, as a
    sha256 of every photo each second would keep the emulated card busy."""
    _, listing = guest.sh(f"find {LIBRARY} -name 'family-*.png' -type f -printf '%s %f\\n'", timeout=300)
    pairs = (line.split(None, 1) for line in listing.splitlines() if line.strip())
    return {name: int(size) for size, name in pairs}


def await_line(vm, guest, text, timeout):
    """Waits for the sync unit's first line in this boot that holds `text`, following the journal
    (vm.journal_line) rather than asking for it each second."""
    if vm.journal_line(guest, "babyalbum-sync.service", text, timeout) is None:
        raise vm.Failure(f"timed out after {timeout} s waiting for the card's line '{text}'")


def on_card(guest):
    """The family's photos in the card's library, by name: their sha256."""
    _, listing = guest.sh(f"find {LIBRARY} -name 'family-*.png' -type f -exec sha256sum {{}} +", timeout=300)
    pairs = (line.split(None, 1) for line in listing.splitlines() if line.strip())
    return {os.path.basename(path): digest for digest, path in pairs}


def card_side(guest):
    """What the card's side looked like when a wait timed out: its units, addresses and journal."""
    if guest is None:
        return "the card's side: powered off when it failed (nothing running to ask)"
    _, state = guest.sh("systemctl --no-pager status babyalbum-sync.service babyalbum.service "
                        "2>&1 | head -n 40; networkctl --no-pager status 2>&1 | head -n 20", timeout=60)
    _, journal = guest.sh("journalctl -b -o short-monotonic --no-pager -u babyalbum-sync.service "
                          "-u babyalbum-grow-library.service | tail -n 40", timeout=60)
    ended = "\n".join(restart_reasons(guest, "babyalbum.service"))
    return "the card's side:\n" + state + "\n" + journal + "\nhow the frame ended, if it did (systemd):\n" + ended


def pss(guest):
    """Pss (kB) of every process of babyalbum.service and of babyalbum-sync.service."""
    command = "; ".join(
        f"for p in $(cat /sys/fs/cgroup/system.slice/{unit}/cgroup.procs); do "
        f"sed -n 's/^Pss: *//p' /proc/$p/smaps_rollup 2>/dev/null; done | awk '{{s += $1}} END {{print s + 0}}'"
        for unit in ("babyalbum.service", "babyalbum-sync.service"))
    _, out = guest.sh(command)
    totals = [int(word) for word in out.split()]
    return tuple(totals) if len(totals) == 2 else (0, 0)


def check_screen(vm, guest, work):
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline:
        screen = guest.screendump(os.path.join(work, "sync-screen.ppm"))
        low, high = zip(*screen.getextrema())
        for i, colour in enumerate(COLOURS):
            if all(c - 3 <= lo and hi <= c + 3 for lo, hi, c in zip(low, high, colour)):
                print(f"  the screen shows family-{i:02d}.png (every pixel within 3 of its colour)")
                return
        time.sleep(1)
    _, shown = guest.sh("journalctl -b -u babyalbum.service -o short-monotonic | tail -n 15")
    _, files = guest.sh(f"ls -laR {LIBRARY} | head -n 20", timeout=60)
    raise vm.Failure("no family photo filled the screen in 300 s; the frame's last lines:\n" + shown + "\n" + files)


def check_stranger(vm, guest, stranger):
    """The unlisted device dialled the card (the card's Syncthing holds it as pending) and got nothing
    onto it: it is not in the card's configuration, and the library holds the family's folder alone."""
    deadline = time.monotonic() + 180
    while True:
        _, pending = guest.sh("syncthing cli --home=/var/lib/babyalbum-sync show pending devices")
        if stranger.id in pending or time.monotonic() > deadline:
            break
        time.sleep(3)
    tried = "1" if stranger.id in pending else "0"
    _, folders = guest.sh(f"ls -A1 --quoting-style=literal {LIBRARY}")
    _, known = guest.sh(f"grep -c 'device id=\"{stranger.id}' /var/lib/babyalbum-sync/config.xml")
    entries = [line for line in folders.splitlines() if line.strip()]
    if known.strip() != "0" or len(entries) != 1:
        raise vm.Failure(f"the unlisted device got in: in the card's config {known.strip()} times, library {entries}")
    if tried.strip() == "0":
        raise vm.Failure("the unlisted device never reached the card (not pending there in 180 s): nothing shown\n"
                         + pending)
    print(f"  the unlisted device was refused: pending on the card, not in its configuration; the library "
          f"holds only {entries}")
