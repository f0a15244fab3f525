"""The card's network and clock in one boot of the arm64 VM (issue 36), for image_vm.py.

The guest has no RTC (`initcall_blacklist=pl031_driver_init` hides the virt board's PL031, as a
Pi 3/4 has none; `-rtc base=` a wrong date besides), QEMU user networking (wired, DHCP from
QEMU) and `time-servers = 10.0.2.2` with a quiet window around the host's "now" in the card's
babyalbum.txt. No traffic leaves this machine: the only server the card is given is the test's
SNTP server on the host's 127.0.0.1:123 (sntp_server.py), which QEMU maps 10.0.2.2:123 to.

(a) Before the SNTP server answers: no RTC in the guest, the clock is not the real time, the
    frame shows photos (quiet-hours-without-clock's default, keep-showing: DPMS On although the
    window covers the real now) and `babyalbum doctor` says the clock has not been set.
(n) The "Clock not set" line (docs/quiet-hours.md): the frame logs it on screen at start; a
    screenshot while it shows differs from the amd64 frame of the same photo only in a top band;
    it goes (logged "off screen", by its minute or by the clock being set), after which the screen
    matches the amd64 frame, and it never comes back after the sync.
(b) Then the server answers: timesyncd synchronises, the frame logs that the clock is now set by
    network time, the screen goes dark (DPMS Off), the clock file is on the state partition.
    Both within PROMPTNESS of each other in the journal's monotonic time: the frame's line after
    timesyncd's "Initial clock synchronization" (it touches /run/systemd/timesync/synchronized
    then; the frame watches that file, issue 63: it used to wait for its 30 s recheck), the
    frame's "display ... powered off" after its line.
(d) The time to the first photo with the network, beside the boot step's figure without one.
Wired DHCP: eth0 gets QEMU's 10.0.2.15 from systemd-networkd, and babyalbum.service does not
wait for the network. (c) Wi-Fi with two simulated radios: wifi_step.py.
"""

import os
import re
import subprocess
import time

import sntp_server
import wifi_step

DPMS = "cat /sys/class/drm/card0-Virtual-1/dpms"
SET_LINE = "the system clock is now set by network time"
POWERED_OFF = " powered off"  # PowerControl.switchOff's line, logged right after the DPMS call
PROMPTNESS = 5  # s: timesyncd's synchronisation to the frame's line, and that line to DPMS Off
#: timesyncd's line when it first sets the clock (not "synchroniz", which its unit's own start line,
#: "Network Time Synchronization", also has: .ci/run at c8afa24 measured from that, 88 s).
SYNCED_LINE = "Initial clock synchronization"
NOTICE = "Clock not set: add Wi-Fi in babyalbum.txt"


def quiet_window_around_now():
    """A quiet window from an hour before the host's UTC now to an hour after (the card is UTC)."""
    now = time.gmtime()
    minutes = now.tm_hour * 60 + now.tm_min
    start, end = (minutes - 60) % 1440, (minutes + 60) % 1440
    return f"{start // 60:02d}:{start % 60:02d}-{end // 60:02d}:{end % 60:02d}"


def wait_for(guest, command, wanted, timeout, what, vm):
    """Runs `command` in the guest until its output matches `wanted`; returns the seconds taken."""
    started = time.monotonic()
    while True:
        _, out = guest.sh(command)
        if re.search(wanted, out):
            return time.monotonic() - started
        if time.monotonic() - started > timeout:
            raise vm.Failure(f"{what}: after {timeout} s, `{command}` says {out.strip()!r}")
        time.sleep(2)


def forget_the_time(card):
    """The card as one that has been off for long: timesyncd's clock file (on the state partition,
    timesync/clock) dated 2025-01-01. A copy of the card booted earlier in the same run (the
    steps before this one, when Tests/Image/run runs them in one lane) had the host's time from
    the virt board's RTC, and systemd advances the clock to that file's time at boot: the trixie
    card's clock was then only 50 s off before NTP."""
    found = subprocess.run(["debugfs", "-R", "stat /timesync/clock", card.part(card.STATE)], capture_output=True, text=True)
    if "Inode:" not in found.stdout:
        return
    subprocess.run(["debugfs", "-w", "-R", "set_inode_field /timesync/clock mtime 20250101000000", card.part(card.STATE)],
                   check=True, capture_output=True)


def step_clock(vm, card, work, boot_files, without_network):
    """One boot: (a), (b), (d) and wired DHCP, as the module says."""
    kernel, initrd, cmdline = boot_files
    card.detach()  # main() attached the card: one set of loop devices at a time
    card.attach()
    settings = os.path.join(work, "babyalbum.txt")
    card.mtools("mcopy", "-o", "::/babyalbum.txt", settings)
    original = open(settings, newline="").read()
    window = quiet_window_around_now()
    with open(settings, "a", newline="") as f:
        f.write(f"\r\ntime-servers = 10.0.2.2\r\nquiet-hours = {window}\r\n" + wifi_step.settings_lines())
    card.mtools("mcopy", "-o", settings, "::/babyalbum.txt")
    wifi_step.prepare(card, work)
    forget_the_time(card)
    card.detach()
    try:
        check_boot(vm, card, work, (kernel, initrd, cmdline + " initcall_blacklist=pl031_driver_init"),
                   window, without_network)
    finally:
        card.attach()
        with open(settings, "w", newline="") as f:
            f.write(original)
        card.mtools("mcopy", "-o", settings, "::/babyalbum.txt")


def check_boot(vm, card, work, boot_files, window, without_network):
    network = ["-rtc", "base=2020-01-01T00:00:00", "-netdev", "user,id=net0", "-device", "virtio-net-pci,netdev=net0"]
    guest = vm.boot(card, work, boot_files, extra=network)
    with_network = vm.wait_showing(guest)
    notice = check_notice_shown(vm, guest, work)
    beside = (f"without a network device (the boot step): {without_network:.1f} s" if without_network
              else "the boot step, without a network device, ran in another run")
    print(f"time to first photo with the network (wired DHCP, NTP unanswered): {with_network:.1f} s from QEMU "
          f"start; {beside}")
    check_notice_gone(vm, guest, work, notice)
    check_unset_clock(vm, guest, window)
    check_wired(vm, guest)
    try:
        server = sntp_server.SNTPServer()
    except OSError as error:
        raise vm.Failure(f"the test's SNTP server cannot listen on 127.0.0.1:123: {error}")
    try:
        check_synchronised(vm, guest, server)
    finally:
        server.stop()
    _, shown = guest.sh(f"journalctl -b -u babyalbum.service -o cat | grep -c 'on screen: \"{NOTICE}'")
    if shown.strip() != "1":
        raise vm.Failure(f"the \"Clock not set\" line was put on screen {shown.strip()} times, not once")
    wifi_step.check(vm, guest, wait_for)
    guest.kill()


def top_band_difference(screen, expected):
    """The rows where `screen` differs from `expected` by more than 2, and how many pixels do."""
    width, height = expected.size
    a, b = screen.tobytes(), expected.tobytes()
    rows, count = set(), 0
    for i in range(0, min(len(a), len(b)), 3):
        if max(abs(a[i + k] - b[i + k]) for k in range(3)) > 2:
            rows.add(i // 3 // width)
            count += 1
    return rows, count, height


def check_notice_shown(vm, guest, work):
    """(n), first half: the line is logged and drawn, small, at the top, while the clock is unset."""
    _, line = guest.sh(f"journalctl -b -u babyalbum.service -o cat | grep -m1 'on screen: \"{NOTICE}\"'")
    if NOTICE not in line:
        _, log = guest.sh("journalctl -b -u babyalbum.service -o cat | tail -n 20")
        raise vm.Failure("the frame logged no \"Clock not set\" line on screen:\n" + log)
    _, size = guest.sh("cat /sys/class/drm/card0-Virtual-1/modes | head -n1")
    w, h = (int(x) for x in size.strip().split("x"))
    expected = vm.expected_frame(os.path.join(vm.REPO, "Photos", "balloons.png"), work, (w, h))
    screen = guest.screendump(os.path.join(work, "notice.ppm"))
    rows, count, height = top_band_difference(screen, expected)
    _, gone = guest.sh("journalctl -b -u babyalbum.service -o cat | grep -c 'off screen: '")
    if gone.strip() != "0":
        raise vm.Failure("the line was already gone at the first screenshot (the boot was slower than its minute)")
    if count < 200 or max(rows) >= height // 6:
        screen.save(os.path.join(work, "notice-screen.png"))
        raise vm.Failure(f"the screen with the line differs from the photo in {count} pixels, rows "
                         f"{min(rows, default=-1)}-{max(rows, default=-1)} of {height}: not one line at the top")
    print(f"(n) on screen while the clock is unset: '{line.strip()}'; the screenshot differs from the amd64 frame "
          f"in {count} pixels, all in rows {min(rows)}-{max(rows)} of {height} (the top band)")
    return expected


def check_notice_gone(vm, guest, work, expected):
    """(n), second half: the line goes (its minute, or the clock set) and the photo is whole again."""
    wait_for(guest, "journalctl -b -u babyalbum.service -o cat | grep -m1 'off screen: '", "off screen", 150,
             "the \"Clock not set\" line going", vm)
    _, line = guest.sh("journalctl -b -u babyalbum.service -o cat | grep -m1 'off screen: '")
    deadline = time.monotonic() + 30
    while True:
        screen = guest.screendump(os.path.join(work, "notice-gone.ppm"))
        diff = vm.max_difference(screen, expected)
        if diff <= 2:
            break
        if time.monotonic() > deadline:
            raise vm.Failure(f"the line went ('{line.strip()}') but the screen still differs from the photo by {diff}")
        time.sleep(1)
    print(f"(n) then '{line.strip()}'; the screen matches the amd64 frame again (max difference {diff})")

def check_unset_clock(vm, guest, window):
    _, rtcs = guest.sh("ls /sys/class/rtc | wc -l")
    if rtcs.strip() != "0":
        raise vm.Failure(f"the guest has an RTC ({rtcs.strip()}): the PL031 was not hidden")
    _, now = guest.sh("date +%s")
    off = time.time() - int(now.strip())
    if abs(off) < 86400:
        raise vm.Failure(f"the guest's clock is only {off:.0f} s off before NTP: the test proves nothing")
    _, dpms = guest.sh(DPMS)
    if dpms.strip() != "On":
        raise vm.Failure(f"the clock is not set and quiet-hours-without-clock is keep-showing, but DPMS reads {dpms!r}")
    status, doctor = guest.sh("babyalbum doctor 2>&1", timeout=600)
    line = next((x for x in doctor.splitlines() if "has not been set since power-on" in x), None)
    if not line:
        raise vm.Failure("babyalbum doctor does not say that the clock is not set:\n" + doctor[-3000:])
    _, synced = guest.sh("timedatectl show -p NTPSynchronized --value")
    print(f"(a) no RTC, the guest's clock {off / 86400:.0f} days behind, NTPSynchronized={synced.strip()}; quiet "
          f"window {window} covers the real now, DPMS On (keep-showing); doctor: {line.strip()}")


def check_wired(vm, guest):
    wait_for(guest, "networkctl status eth0 --no-pager 2>&1 | grep -A1 Address", r"10\.0\.2\.15", 180, "wired DHCP", vm)
    _, deps = guest.sh("systemctl show -p After -p Wants -p Requires babyalbum.service")
    if "network-online" in deps:
        raise vm.Failure("babyalbum.service waits for the network: " + deps)
    _, dropin = guest.sh("cat /run/systemd/timesyncd.conf.d/50-babyalbum.conf; "
                         "journalctl -b -u babyalbum-network-setup.service -o cat | grep network-setup:")
    if "NTP=10.0.2.2" not in dropin or "FallbackNTP=\n" not in dropin:
        raise vm.Failure("babyalbum network-setup wrote no drop-in with NTP=10.0.2.2 alone: " + dropin)
    print("wired: eth0 10.0.2.15 by DHCP (systemd-networkd); babyalbum.service has no network-online "
          f"dependency; {dropin.strip().splitlines()[-1]}")


def check_synchronised(vm, guest, server):
    took = wait_for(guest, "timedatectl show -p NTPSynchronized --value", r"^yes", 420, "NTP synchronisation", vm)
    _, now = guest.sh("date +%s")
    off = time.time() - int(now.strip())
    if abs(off) > 30:
        raise vm.Failure(f"synchronised, yet the guest's clock is {off:.0f} s off the host's")
    logged = wait_for(guest, f"journalctl -b -u babyalbum.service -o cat | grep -m1 '{SET_LINE}'", SET_LINE, 120,
                      "the frame's log", vm)
    dark = wait_for(guest, DPMS, r"^Off", 120, "the screen going dark in the quiet window", vm)
    to_line, to_dark = check_prompt(vm, guest)
    _, clock = guest.sh("findmnt -no SOURCE /var/lib/systemd/timesync; stat -c %Y /var/lib/systemd/timesync/clock")
    words = clock.split()
    if len(words) < 2 or "vda5" not in words[0] or abs(time.time() - int(words[-1])) > 600:
        raise vm.Failure(f"timesyncd's clock file is not a fresh file on the state partition: {clock!r}")
    _, sync_line = guest.sh("journalctl -b -u systemd-timesyncd.service -o cat | grep -m1 -i 'synchroniz'")
    print(f"(b) synchronised {took:.0f} s after the SNTP server started ({server.answers} answers; "
          f"{sync_line.strip()}); the guest's clock {off:+.1f} s off the host's; the frame logged '{SET_LINE}' "
          f"{logged:.0f} s later and DPMS read Off {dark:.0f} s after that (in the guest's journal: the frame's line "
          f"{to_line:+.1f} s after timesyncd's, 'powered off' {to_dark:+.1f} s after the frame's line); clock file on "
          f"{words[0]}")


def journal_moments(guest, unit, text):
    """The moments (the guest's monotonic seconds) of the lines of `unit` in this boot that
    contain `text` (no quote in it), without regard to case; picked in the guest, so that only
    those lines cross the serial console."""
    _, out = guest.sh(f"journalctl -b -o short-monotonic --no-pager -u {unit} | grep -i -F '{text}'", timeout=60)
    found = (re.match(r"\[\s*([0-9.]+)\]\s+(.*)", line) for line in out.splitlines())
    return [float(m.group(1)) for m in found if m and text.lower() in m.group(2).lower()]


def check_prompt(vm, guest):
    """(b)'s two gaps, from the journal's monotonic stamps (the wall clock jumped between them):
    timesyncd's SYNCED_LINE to the frame's SET_LINE, and SET_LINE to the frame's
    first "powered off" after it (the DPMS call). Each must be at most PROMPTNESS."""
    synced = journal_moments(guest, "systemd-timesyncd.service", SYNCED_LINE)
    logged = journal_moments(guest, "babyalbum.service", SET_LINE)
    if not synced or not logged:
        raise vm.Failure(f"no moment in the journal for timesyncd's synchronisation ({synced}) or the frame's "
                         f"'{SET_LINE}' ({logged})")
    dark = [moment for moment in journal_moments(guest, "babyalbum.service", POWERED_OFF) if moment >= logged[0]]
    if not dark:
        raise vm.Failure(f"DPMS reads Off, but the frame logged no '{POWERED_OFF.strip()}' after '{SET_LINE}'")
    to_line, to_dark = logged[0] - synced[0], dark[0] - logged[0]
    if to_line > PROMPTNESS:
        raise vm.Failure(f"the frame logged '{SET_LINE}' {to_line:.1f} s after timesyncd's '{SYNCED_LINE}' (at "
                         f"most {PROMPTNESS} s): it did not wake when /run/systemd/timesync/synchronized appeared")
    if to_dark > PROMPTNESS:
        raise vm.Failure(f"DPMS Off came {to_dark:.1f} s after the frame logged '{SET_LINE}' (at most {PROMPTNESS} s)")
    return to_line, to_dark
