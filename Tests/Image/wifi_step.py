"""Wi-Fi on the card, in the clock step's boot (issue 36, test (c)).

The card's kernel has `mac80211_hwsim`: the test's copy of the card (never the image) loads it
with two simulated radios at boot (wlan0, wlan1), and gets its release's arm64 `hostapd` (fetched
with `apt-get download`, written into the copy's root with debugfs) and a systemd-networkd DHCP
server on wlan1. hostapd runs a WPA2 network there; the card's own settings (`wifi-name`,
`wifi-password`, `wifi-country`) make its wpa_supplicant@wlan0 join it, and networkd gets an
address by DHCP. Then the password is looked for, and must not be found, in the journal,
/var/log, `babyalbum settings` and `babyalbum doctor`; the generated configuration in /run is 0600.
Then the state lines of `babyalbum wifi-watch` (babyalbum-wifi-watch.service): "connected" in the
journal and in doctor; a wrong password set through wpa_cli gives exactly one "wrong password"
line in the journal and the same line (a warning) in doctor; the card's own configuration read
again connects, and the line says so. Then the access point becomes WPA3-only (SAE, protected
management frames required): the card joins it with the same configuration, and a wrong password
is again one line and a warning in doctor (for SAE the access point refuses the confirm; there is
no WRONG_KEY).
"""

import glob
import os
import re
import subprocess
import tempfile
import time

NAME = "BabyAlbum Nursery"
PASSWORD = "lullaby-4711-secret"
CONNECTED = f"Wi-Fi: connected to '{NAME}'"
WRONG = f"Wi-Fi: wrong password for '{NAME}': check wifi-password in babyalbum.txt"
WATCH_LOG = "journalctl -b -u babyalbum-wifi-watch.service -o cat"
WPA_CLI = "wpa_cli -p /run/wpa_supplicant -i wlan0"
CACHE = os.environ.get("BABYALBUM_IMAGE_CACHE", "/var/cache/babyalbum/image")
AP_NETWORK = "[Match]\nName=wlan1\n[Network]\nAddress=192.168.77.1/24\nDHCPServer=yes\n"
HOSTAPD = (f"interface=wlan1\ndriver=nl80211\nssid={NAME}\nhw_mode=g\nchannel=6\ncountry_code=DE\n"
           f"wpa=2\nwpa_key_mgmt=WPA-PSK\nrsn_pairwise=CCMP\nwpa_passphrase={PASSWORD}\n")


#: The same network as WPA3-Personal only (SAE, protected management frames required), as a
#: router set to WPA3 has it; the card's configuration offers SAE beside WPA-PSK.
HOSTAPD_SAE = (f"interface=wlan1\ndriver=nl80211\nssid={NAME}\nhw_mode=g\nchannel=6\ncountry_code=DE\n"
               f"wpa=2\nwpa_key_mgmt=SAE\nieee80211w=2\nrsn_pairwise=CCMP\nsae_password={PASSWORD}\n")


def settings_lines():
    """The card's Wi-Fi settings, for its babyalbum.txt."""
    return f"wifi-name = {NAME}\r\nwifi-password = {PASSWORD}\r\nwifi-country = DE\r\n"


def card_suite(card):
    """The Debian release the card was made from (its root's os-release; /etc/os-release is a
    symbolic link, which debugfs does not follow)."""
    release = subprocess.run(["debugfs", "-R", "cat /usr/lib/os-release", card.part(card.SLOT_A)], capture_output=True,
                             text=True, check=True).stdout
    return re.search(r"^VERSION_CODENAME=(\w+)", release, re.M).group(1)


def fetch_hostapd(work, suite):
    """The card's release's arm64 hostapd program, with the image's own apt configuration for
    that release (scripts/image: $CACHE/apt for bookworm, $CACHE/apt-SUITE for the others)."""
    apt = os.path.join(CACHE, "apt" if suite == "bookworm" else f"apt-{suite}")
    options = ["-o", f"Dir::Etc::SourceList={apt}/sources.list", "-o", "Dir::Etc::SourceParts=/dev/null",
               "-o", f"Dir::State::Lists={apt}/lists", "-o", f"Dir::State::status={apt}/status",
               "-o", f"Dir::Cache={apt}", "-o", "APT::Architecture=arm64", "-o", "Debug::NoLocking=1"]
    folder = tempfile.mkdtemp(dir=work)
    subprocess.run(["apt-get", "-qq", *options, "download", "hostapd"], cwd=folder, check=True, capture_output=True)
    deb = glob.glob(os.path.join(folder, "hostapd_*_arm64.deb"))[0]
    subprocess.run(["dpkg-deb", "-x", deb, os.path.join(folder, "root")], check=True)
    return os.path.join(folder, "root", "usr", "sbin", "hostapd")


def prepare(card, work):
    """Writes the access point's parts into the test's copy of the card (partition 2)."""
    files = {"/etc/modules-load.d/test-hwsim.conf": "mac80211_hwsim\n",
             "/etc/modprobe.d/test-hwsim.conf": "options mac80211_hwsim radios=2\n",
             "/etc/systemd/network/10-test-ap.network": AP_NETWORK, "/etc/test-hostapd.conf": HOSTAPD,
             "/etc/test-hostapd-sae.conf": HOSTAPD_SAE}
    commands = []
    for target, text in files.items():
        local = os.path.join(work, target.strip("/").replace("/", "_"))
        with open(local, "w") as f:
            f.write(text)
        commands.append(f"write {local} {target}")
    commands += [f"write {fetch_hostapd(work, card_suite(card))} /usr/sbin/test-hostapd", "sif /usr/sbin/test-hostapd mode 0100755"]
    for command in commands:
        subprocess.run(["debugfs", "-w", "-R", command, card.part(card.SLOT_A)], check=True, capture_output=True)


def check(vm, guest, wait_for):
    """The card joins the WPA2 network and gets an address; the password is in no log."""
    status, out = guest.sh("ls /sys/class/net")
    if "wlan0" not in out:
        # Should not happen (modules-load.d loads it at boot); if it does, the journal is printed,
        # the test loads it and starts the card's own wpa_supplicant@wlan0.
        _, why = guest.sh("journalctl -b -u systemd-modules-load -o cat | tail -n 5; "
                          "cat /etc/modules-load.d/test-hwsim.conf; modprobe mac80211_hwsim radios=2 2>&1; "
                          "sleep 3; systemctl restart wpa_supplicant@wlan0.service 2>&1; ls /sys/class/net")
        print("mac80211_hwsim was not loaded at boot; loaded by the test, wpa_supplicant@wlan0 restarted:\n" + why)
        status, out = guest.sh("ls /sys/class/net")
    if "wlan0" not in out or "wlan1" not in out:
        raise vm.Failure(f"no simulated radios wlan0 and wlan1 in the guest: {out!r}")
    status, out = guest.sh("test-hostapd -B -P /run/test-hostapd.pid /etc/test-hostapd.conf 2>&1 | tail -n 3")
    if status != 0:
        raise vm.Failure(f"hostapd did not start on wlan1: {out}")
    took = wait_for(guest, "networkctl status wlan0 --no-pager 2>&1 | grep -A1 Address", r"192\.168\.77\.\d+", 300,
                    "the card joining the Wi-Fi and getting an address by DHCP", vm)
    _, address = guest.sh("networkctl status wlan0 --no-pager 2>&1 | grep -o '192\\.168\\.77\\.[0-9]*' | head -n 1")
    _, mode = guest.sh("stat -c '%a %U' /run/babyalbum/wpa_supplicant-wlan0.conf")
    if mode.strip() != "600 root":
        raise vm.Failure(f"the supplicant configuration is {mode.strip()}, not 600 root")
    places = {"the journal": "journalctl -b -o cat --no-pager", "/var/log": "grep -rs . /var/log",
              "babyalbum settings": "babyalbum settings -- --photos /boot/firmware/photos", "babyalbum doctor": "babyalbum doctor 2>&1"}
    for place, command in places.items():
        _, out = guest.sh(command + " | cat", timeout=600)
        if PASSWORD in out:
            raise vm.Failure(f"the Wi-Fi password appears in {place}")
        if place == "babyalbum settings" and "wifi-password" not in out:
            raise vm.Failure("babyalbum settings does not list wifi-password: " + out[-2000:])
    _, shown = guest.sh("babyalbum settings -- --photos /boot/firmware/photos | grep -E 'wifi-(name|password|country)'")
    _, joined = guest.sh("journalctl -b -u wpa_supplicant@wlan0 -o cat | grep -m1 CTRL-EVENT-CONNECTED")
    print(f"(c) Wi-Fi: wlan0 joined '{NAME}' (WPA2, hostapd on the second mac80211_hwsim radio) and got "
          f"{address.split()[0] if address.split() else '?'} by DHCP {took:.0f} s after hostapd started; "
          f"{joined.strip()}; /run/babyalbum/wpa_supplicant-wlan0.conf 0600; the password in none of "
          f"{', '.join(places)}; babyalbum settings shows:\n{shown.rstrip()}")
    check_state_lines(vm, guest, wait_for)
    check_wpa3(vm, guest, wait_for)


def check_state_lines(vm, guest, wait_for):
    """`babyalbum wifi-watch`: one line per change in the journal, the same in doctor."""
    wait_for(guest, f"{WATCH_LOG} | grep -F -m1 \"{CONNECTED}\"", "connected", 60, "the watcher's connected line", vm)
    _, doctor = guest.sh("babyalbum doctor 2>&1 | grep -F 'Wi-Fi:'", timeout=600)
    if CONNECTED not in doctor:
        raise vm.Failure(f"babyalbum doctor does not say '{CONNECTED}': {doctor!r}")
    took = wrong_password_then_right(vm, guest, wait_for, lines_before=0, arrived=r"^[1-9]")
    _, events = guest.sh("journalctl -b -u wpa_supplicant@wlan0 -o cat | grep -c 'reason=WRONG_KEY'")
    _, log = guest.sh(f"{WATCH_LOG}")
    print(f"(c) Wi-Fi state lines: '{CONNECTED}' in the journal and doctor; a wrong password: '{WRONG}' "
          f"{took:.0f} s later, once in the journal ({events.strip()} WRONG_KEY events of wpa_supplicant), and in "
          f"doctor as a warning; the right one again: the journal's lines are\n{log.strip()}")


def check_wpa3(vm, guest, wait_for):
    """The same network as WPA3 only (SAE): the card joins it with its own configuration, and a
    wrong password is the same one line as WPA2's, in the journal and in doctor (wpa_supplicant
    has no reason=WRONG_KEY for SAE: the access point refuses the SAE confirm)."""
    lines_before = int(guest.sh(f"{WATCH_LOG} | grep -F -c \"{WRONG}\"")[1].strip() or 0)
    status, out = guest.sh("kill $(cat /run/test-hostapd.pid); sleep 2; "
                           "test-hostapd -B -P /run/test-hostapd.pid /etc/test-hostapd-sae.conf 2>&1 | tail -n 3")
    if status != 0:
        raise vm.Failure(f"hostapd did not start the WPA3 network on wlan1: {out}")
    took = wait_for(guest, f"{WPA_CLI} status | grep -E '^(wpa_state|key_mgmt)='", r"key_mgmt=SAE", 300,
                    "the card joining the WPA3 (SAE) network", vm)
    # A cached PMK would join without SAE: flushed, so the wrong password goes through SAE.
    wrong = wrong_password_then_right(vm, guest, wait_for, lines_before=lines_before,
                                      arrived=rf"^{lines_before + 1}$", flush=f" && {WPA_CLI} pmksa_flush")
    _, rejects = guest.sh("journalctl -b -u wpa_supplicant@wlan0 -o cat | grep -F 'CTRL-EVENT-AUTH-REJECT' | "
                          "grep -F 'auth_type=3' | tail -n 2")
    print(f"(c) WPA3 (SAE only, PMF required): the card joined with its own configuration {took:.0f} s after "
          f"hostapd restarted; a wrong password: '{WRONG}' {wrong:.0f} s later, once, and in doctor as a warning; "
          f"wpa_supplicant's events:\n{rejects.rstrip()}\nthe right one again: connected")


def wrong_password_then_right(vm, guest, wait_for, lines_before, arrived, flush=""):
    """A wrong password set through wpa_cli (`flush`: more wpa_cli before the reassociation):
    exactly one more wrong-password line (its count matching `arrived` first, then still
    `lines_before` + 1 after 20 s of the supplicant's retries) and doctor's warning; then the card's
    own configuration read again connects; neither password in the watcher's log or doctor.
    Returns the seconds the line took."""
    guest.sh(f"{WPA_CLI} set_network 0 psk '\"wrong-password-0000\"'{flush} && {WPA_CLI} reassociate")
    took = wait_for(guest, f"{WATCH_LOG} | grep -F -c \"{WRONG}\"", arrived, 180, "the wrong-password line", vm)
    time.sleep(20)  # the supplicant retries; the line must still be one
    _, count = guest.sh(f"{WATCH_LOG} | grep -F -c \"{WRONG}\"")
    if count.strip() != str(lines_before + 1):
        raise vm.Failure(f"the wrong password gave {int(count.strip() or 0) - lines_before} lines, not one")
    _, doctor = guest.sh("babyalbum doctor 2>&1 | grep -F 'Wi-Fi:'", timeout=600)
    if "warning: " + WRONG not in doctor:
        raise vm.Failure(f"babyalbum doctor does not warn '{WRONG}': {doctor!r}")
    guest.sh(f"{WPA_CLI} reconfigure")
    wait_for(guest, f"{WATCH_LOG} | tail -n1", "connected to", 180, "the connected line after the right password", vm)
    _, log = guest.sh(f"{WATCH_LOG}")
    for place, text in (("the watcher's log", log), ("doctor", doctor)):
        if PASSWORD in text or "wrong-password-0000" in text:
            raise vm.Failure(f"a password appears in {place}")
    return took
