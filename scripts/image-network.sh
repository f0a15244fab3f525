# shellcheck shell=bash disable=SC2034  # sourced: CARD_PACKAGES is used by scripts/image
# Sourced by scripts/image: the card's network and clock (issue 36).
#
# - Wired Ethernet by DHCP with systemd-networkd (a .network file matching Type=ether), no setting.
# - systemd-timesyncd sets the clock from `time-servers =` in babyalbum.txt (default: Debian's NTP
#   pool); systemd-resolved answers the pool's names with the DHCP lease's DNS servers.
# - timesyncd's clock file lives on the state partition (/var/lib/babyalbum/timesync, bound onto
#   /var/lib/systemd/timesync): an offline boot starts no earlier than the last time the card knew.
# - babyalbum-network-setup.service runs `babyalbum network-setup` at every boot, before networkd
#   and timesyncd: the program's own settings parser writes the drop-ins to /run, never to the card.
# Nothing on the way to the first photo waits for the network: babyalbum.service has no
# network-online dependency, and nothing on the card pulls network-online.target.

# Packages the cached root lacks, installed with the program's own Depends (fetch_dependencies).
# Wi-Fi: wpasupplicant (WPA2/WPA3 personal, open, hidden; iwd would be smaller but needs its
# own DHCP-less network setup and a state folder, wpa_supplicant reads one file from /run), the
# Pi 3/4/400/Zero 2 W radios' firmware and the regulatory database (non-free-firmware, main).
CARD_PACKAGES=(systemd-timesyncd systemd-resolved wpasupplicant firmware-brcm80211 wireless-regdb)

configure_network() {
    mkdir -p "$ROOT/etc/systemd/network"
    cat >"$ROOT/etc/systemd/network/20-babyalbum-wired.network" <<'EOF'
# BabyAlbum card (scripts/image): any wired Ethernet port, by DHCP (IPv4 and IPv6).
[Match]
Type=ether

[Network]
DHCP=yes
EOF
    cat >"$ROOT/etc/systemd/network/30-babyalbum-wireless.network" <<'EOF'
# BabyAlbum card (scripts/image): the Wi-Fi of babyalbum.txt (wpa_supplicant@wlan0), by DHCP.
[Match]
Type=wlan

[Network]
DHCP=yes
EOF
    configure_wifi
    cat >"$ROOT/etc/systemd/system/babyalbum-network-setup.service" <<'EOF'
# BabyAlbum card (scripts/image): babyalbum.txt's network and time settings, read by the
# program's own settings parser at every boot, as drop-ins in /run (never on the card).
[Unit]
Description=BabyAlbum network and time settings from babyalbum.txt
DefaultDependencies=no
RequiresMountsFor=/boot/firmware /run
After=systemd-remount-fs.service
Before=sysinit.target systemd-networkd.service systemd-timesyncd.service systemd-resolved.service wpa_supplicant@wlan0.service

[Service]
Type=oneshot
RemainAfterExit=yes
ExecStart=/usr/local/bin/babyalbum network-setup --out /run
# The boot never waits on it for ever (a oneshot has no start timeout by default): its parse is
# bounded (milliseconds on a 64 KB file), and a hang of any other kind ends here, the boot going on
# without the network settings. 5 minutes, as the clock module's: 30 s killed that one under
# QEMU's emulated raspi3b (Cortex-A53, TCG) in .ci/run at e4a75f5.
TimeoutStartSec=5min

[Install]
WantedBy=sysinit.target
EOF
    # timesyncd saves the time (the clock file's modification time) every SaveIntervalSec while it
    # has no server, 60 s by default: each save is an ext4 journal commit on the state partition,
    # about 1,440 a day. Once an hour keeps an offline boot within an hour of the last known time.
    mkdir -p "$ROOT/etc/systemd/timesyncd.conf.d"
    cat >"$ROOT/etc/systemd/timesyncd.conf.d/40-babyalbum-card.conf" <<'EOF'
# BabyAlbum card (scripts/image): the clock file on the SD card is saved once an hour, not every
# minute (card wear); babyalbum.txt's time-servers come in /run/systemd/timesyncd.conf.d.
[Time]
SaveIntervalSec=1h
EOF
    # The clock file on the state partition (the root is read-only, /var/lib/systemd in memory).
    echo "/var/lib/babyalbum/timesync /var/lib/systemd/timesync none bind,x-systemd.requires-mounts-for=/var/lib/babyalbum,$(late_ok 5) 0 0" \
        >>"$ROOT/etc/fstab"
    ln -sf ../run/systemd/resolve/stub-resolv.conf "$ROOT/etc/resolv.conf"
    cat >"$ROOT/etc/systemd/system/babyalbum-clock-module.service" <<'EOF'
# BabyAlbum card (scripts/image): `clock-module = ds3231|pcf8523` of babyalbum.txt, at every
# boot: the chip put on the clock bus (/clock-i2c, GPIO 23/24; scripts/dtb-clock-bus) and the
# system clock set from it when it holds a valid time. The kernel writes rtc0 back every
# 11 minutes once network time has set the clock (CONFIG_RTC_SYSTOHC). Without the setting it
# ends at once.
[Unit]
Description=BabyAlbum clock module from babyalbum.txt
DefaultDependencies=no
RequiresMountsFor=/boot/firmware /run
After=systemd-remount-fs.service systemd-udev-trigger.service
Before=babyalbum.service systemd-timesyncd.service

[Service]
Type=oneshot
RemainAfterExit=yes
ExecStart=/usr/local/bin/babyalbum clock-module-setup
# A chip that hangs the bus, or a hostile settings file, never holds the frame's start for ever.
# Not 30 s: that killed it before its line under QEMU's emulated raspi3b (.ci/run at e4a75f5),
# where the program's start and the bus probe are slow.
TimeoutStartSec=5min

[Install]
WantedBy=multi-user.target
EOF
    local unit
    for unit in systemd-networkd.service systemd-resolved.service systemd-timesyncd.service \
        babyalbum-network-setup.service babyalbum-clock-module.service; do
        [[ $(readlink "$ROOT/etc/systemd/system/$unit") != /dev/null ]] || rm "$ROOT/etc/systemd/system/$unit"
        in_root systemctl enable "$unit" >/dev/null 2>&1 || die "cannot enable $unit"
    done
    resolved_out_of_sysinit
}

# systemd-resolved is started in sysinit.target (Before=sysinit.target, WantedBy=sysinit.target,
# Debian 12 and 13 alike), so every unit after sysinit.target, the frame among them, waited for
# its start (12 s of the trixie card's chain under QEMU's TCG, issue 63 item 7). Nothing before
# the first photo resolves a name: the card's resolved is the package's unit with sysinit.target
# taken out of its ordering and its [Install] (multi-user.target instead). Dependencies cannot be
# reset by a drop-in, hence the whole unit in /etc (made from the package's own file at every
# build, so a point release's changes come along).
resolved_out_of_sysinit() {
    local vendor=$ROOT/lib/systemd/system/systemd-resolved.service
    local card=$ROOT/etc/systemd/system/systemd-resolved.service
    [[ -f $vendor ]] || die "systemd-resolved.service is not in the root"
    grep -q '^Before=.*sysinit\.target' "$vendor" || return 0
    in_root systemctl disable systemd-resolved.service >/dev/null 2>&1 || die "cannot disable systemd-resolved.service"
    sed -e '/^Before=/s/ sysinit\.target//; /^Before=/s/=sysinit\.target /=/' \
        -e 's/^WantedBy=sysinit\.target$/WantedBy=multi-user.target/' "$vendor" >"$card"
    grep -q 'sysinit\.target' "$card" && die "systemd-resolved.service still names sysinit.target: $(grep sysinit "$card")"
    in_root systemctl enable systemd-resolved.service >/dev/null 2>&1 || die "cannot enable systemd-resolved.service"
    [[ -L $ROOT/etc/systemd/system/multi-user.target.wants/systemd-resolved.service &&
        ! -L $ROOT/etc/systemd/system/sysinit.target.wants/systemd-resolved.service ]] ||
        die "systemd-resolved.service is not wanted by multi-user.target alone"
}

# wpa_supplicant@wlan0 with the configuration `babyalbum network-setup` writes to /run (0600),
# only when babyalbum.txt names a Wi-Fi network and once wlan0 exists; the D-Bus-driven
# wpa_supplicant.service is off.
configure_wifi() {
    mkdir -p "$ROOT/etc/wpa_supplicant" "$ROOT/etc/systemd/system/wpa_supplicant@wlan0.service.d"
    ln -sf /run/babyalbum/wpa_supplicant-wlan0.conf "$ROOT/etc/wpa_supplicant/wpa_supplicant-wlan0.conf"
    cat >"$ROOT/etc/systemd/system/wpa_supplicant@wlan0.service.d/babyalbum.conf" <<'EOF'
# BabyAlbum card (scripts/image): only when babyalbum.txt names a Wi-Fi network.
[Unit]
ConditionPathExists=/run/babyalbum/wpa_supplicant-wlan0.conf
After=babyalbum-network-setup.service
EOF
    ln -sf /dev/null "$ROOT/etc/systemd/system/wpa_supplicant.service"
    # Started by wlan0's appearance, not by multi-user.target: the unit Requires= and is After= its
    # device, and is Before=network.target, which babyalbum.service followed then (through
    # systemd-user-sessions, an ordering it has no more). Enabled the usual way, a card without a
    # radio (or its firmware) waited 90 s for wlan0 before the first photo: 102 s instead of 48.
    local wants="$ROOT/etc/systemd/system/sys-subsystem-net-devices-wlan0.device.wants"
    [[ -e $ROOT/lib/systemd/system/wpa_supplicant@.service ]] || die "wpasupplicant has no wpa_supplicant@.service"
    mkdir -p "$wants"
    ln -sf /lib/systemd/system/wpa_supplicant@.service "$wants/wpa_supplicant@wlan0.service"
    # One clear line for the Wi-Fi's state (wrong password, network not found, connected) in the
    # journal and in `babyalbum doctor`: `babyalbum wifi-watch` on the supplicant's control socket,
    # started and stopped with wpa_supplicant@wlan0 (the slideshow never waits for either).
    cat >"$ROOT/etc/systemd/system/babyalbum-wifi-watch.service" <<'EOF'
# BabyAlbum card (scripts/image): the Wi-Fi's state as one line per change, for the journal and
# `babyalbum doctor` (/run/babyalbum-wifi), read from wpa_supplicant's control socket.
[Unit]
Description=BabyAlbum Wi-Fi state (wrong password, network not found, connected)
BindsTo=wpa_supplicant@wlan0.service
After=wpa_supplicant@wlan0.service

[Service]
ExecStart=/usr/local/bin/babyalbum wifi-watch
Restart=on-failure
RestartSec=5
EOF
    mkdir -p "$ROOT/etc/systemd/system/wpa_supplicant@wlan0.service.wants"
    ln -sf ../babyalbum-wifi-watch.service "$ROOT/etc/systemd/system/wpa_supplicant@wlan0.service.wants/babyalbum-wifi-watch.service"
}

# The state partition's folder for timesyncd's clock file (STATE-DIR), owned by timesyncd's user.
make_timesync_folder() {
    local owner
    owner=$(awk -F: '$1 == "systemd-timesync" { print $3 ":" $4 }' "$ROOT/etc/passwd")
    [[ -n $owner ]] || die "systemd-timesyncd made no systemd-timesync user"
    mkdir -p "$1/timesync"
    chown "$owner" "$1/timesync"
    chmod 0755 "$1/timesync"
}
