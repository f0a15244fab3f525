#!/usr/bin/env bash
# Turns a Raspberry Pi OS Lite (Bookworm or Trixie) board or a Debian-based tablet into a
# BabyAlbum photo frame: the slideshow starts at boot on tty1 instead of the login prompt. Run as
# root on the target. Idempotent (a second run changes nothing) and undone by deploy/uninstall.sh.
#
# The program comes as a Debian package (babyalbum_<version>_<arch>.deb, made by scripts/package):
# this script installs it with apt (--deb), or, run from the installed package
# (/usr/share/babyalbum/deploy/install.sh), uses the installed one. --binary PATH installs a bare
# program instead (for development). See deploy/README.md.
set -euo pipefail
PROG=install.sh # lib.sh prints it
SCRIPT_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO_DIR=$(cd "$SCRIPT_DIR/.." && pwd)
# shellcheck source=lib.sh
. "$SCRIPT_DIR/lib.sh"
# shellcheck source=sync-lib.sh
. "$SCRIPT_DIR/sync-lib.sh"
# shellcheck source=sync-install.sh
. "$SCRIPT_DIR/sync-install.sh"
# shellcheck source=settings.sh
. "$SCRIPT_DIR/settings.sh"
# shellcheck source=usb.sh
. "$SCRIPT_DIR/usb.sh"

usage() {
    cat <<'EOF'
Usage: sudo deploy/install.sh [options]

Installs BabyAlbum as a kiosk service on this machine (see deploy/README.md).

  --deb FILE         the babyalbum package for this board, installed with apt (default: the
                     installed package, else babyalbum_*_<arch>.deb beside this script, in its
                     parent folder or in dist/, the newest)
  --binary PATH      install this bare program instead of the package (development builds)
  --photos DIR       the photo folder (default /var/lib/babyalbum/photos; not under /home)
  --owner USER       the login user allowed to copy photos into it (default: who ran sudo)
  --exit-key KEY     the key that ends the slideshow, a name or code (default KEY_POWER, or the
                     --keycode of the Raspberry Pi button)
  --options "OPTS"   more babyalbum options for /etc/default/babyalbum, e.g. "--interval 30"
  --gpio N           Raspberry Pi: the GPIO of the exit button (default 3 = header pin 5)
  --keycode N        Raspberry Pi: the key code the button sends (default 116 = KEY_POWER)
  --no-button        Raspberry Pi: do not add the gpio-key overlay to config.txt
  --board KIND       auto (default), pi (config.txt/cmdline.txt), grub (a PC or tablet), none
  --no-apt           do not install the runtime libraries with apt
  --sync             also receive the family library's photos with Syncthing (its own user and
                     service; the slideshow stays without network); then pair: deploy/pair.sh
  --sync-library DIR the family folder for --sync, inside its home, keys made at the first start
                     (the card's: scripts/image)
  --root DIR         stage every file under DIR instead of the live system (for tests, images)
  --dry-run, -n      print every change without making it
  -h, --help         this text
EOF
}

BINARY=""
DEB=""
PHOTOS=""
OWNER=${SUDO_USER:-root}
EXIT_KEY=""
OPTIONS=""
GPIO=3
KEYCODE=116
BUTTON=1
BOARD=auto
APT=1
CONFIG_GIVEN=0
BUTTON_GIVEN=0
SYNC=0
SYNC_LIBRARY=""

while (($#)); do
    case $1 in
    --binary) BINARY=${2:?--binary needs a path}; shift 2 ;;
    --deb) DEB=${2:?--deb needs a .deb file}; shift 2 ;;
    --photos) PHOTOS=${2:?--photos needs a folder}; CONFIG_GIVEN=1; shift 2 ;;
    --owner) OWNER=${2:?--owner needs a user}; shift 2 ;;
    --exit-key) EXIT_KEY=${2:?--exit-key needs a key}; CONFIG_GIVEN=1; shift 2 ;;
    --options) OPTIONS=${2?--options needs a value}; CONFIG_GIVEN=1; shift 2 ;;
    --gpio) GPIO=${2:?--gpio needs a number}; BUTTON_GIVEN=1; shift 2 ;;
    --keycode) KEYCODE=${2:?--keycode needs a number}; BUTTON_GIVEN=1; CONFIG_GIVEN=1; shift 2 ;;
    --no-button) BUTTON=0; BUTTON_GIVEN=1; shift ;;
    --board) BOARD=${2:?--board needs auto, pi, grub or none}; shift 2 ;;
    --no-apt) APT=0; shift ;;
    --sync) SYNC=1; shift ;;
    --sync-library) SYNC=1; SYNC_LIBRARY=${2:?--sync-library needs a folder}; shift 2 ;;
    --root) set_root "${2:-}"; shift 2 ;;
    --root=*) set_root "${1#*=}"; shift ;;
    --dry-run | -n) DRY_RUN=1; shift ;;
    -h | --help) usage; exit 0 ;;
    *) usage >&2; die "unknown option $1" ;;
    esac
done

if ! [[ $GPIO =~ ^[0-9]+$ ]] || ((GPIO > 27)); then die "--gpio $GPIO: expected a GPIO number from 0 to 27"; fi
if ! [[ $KEYCODE =~ ^[0-9]+$ ]] || ((KEYCODE < 1 || KEYCODE > 767)); then
    die "--keycode $KEYCODE: expected 1 to 767"
fi
case $BOARD in auto | pi | grub | none) ;; *) die "--board $BOARD: expected auto, pi, grub or none" ;; esac
if ((!DRY_RUN)) && [[ $(id -u) != 0 ]]; then die "run as root: sudo $0 $*"; fi

# ---- what to install --------------------------------------------------------------------------

# The package (the normal way), or a bare program (--binary, or a development checkout).
PACKAGED=0
deb_arch=$(dpkg --print-architecture 2>/dev/null || echo unknown)
if [[ -z $BINARY && -z $DEB ]]; then
    if dpkg-query -W -f='${Status}' babyalbum 2>/dev/null | grep -q 'install ok installed' &&
        [[ $SCRIPT_DIR == /usr/share/babyalbum/deploy ]]; then
        PACKAGED=1
    else
        for candidate in "$SCRIPT_DIR"/babyalbum_*_"$deb_arch".deb "$REPO_DIR"/babyalbum_*_"$deb_arch".deb \
            "$REPO_DIR"/dist/babyalbum_*_"$deb_arch".deb; do
            [[ -f $candidate ]] && DEB=$candidate # the last in version order wins
        done
    fi
fi
if [[ -n $DEB ]]; then
    [[ -f $DEB ]] || die "--deb $DEB: no such file"
    [[ $DEB == *_"$deb_arch".deb ]] || ! live ||
        die "$DEB is not built for this machine ($deb_arch); use babyalbum_<version>_$deb_arch.deb"
    PACKAGED=1
fi
if ((PACKAGED)); then
    BINARY=/usr/bin/babyalbum
else
    if [[ -z $BINARY ]]; then
        for candidate in "$SCRIPT_DIR/babyalbum" "$REPO_DIR/.build/release/babyalbum"; do
            if [[ -f $candidate ]]; then BINARY=$candidate; break; fi
        done
    fi
    [[ -n $BINARY ]] || die "no babyalbum package found: copy babyalbum_<version>_$deb_arch.deb here or pass --deb FILE"
    [[ -f $BINARY && -x $BINARY ]] || die "--binary $BINARY: not an executable file"
    # The decode workers' programs (the frame itself links no decoder), found as the frame finds
    # them: beside it (a build folder: babyalbum-decoder), else in ../libexec/babyalbum (an
    # unpacked package: babyalbum-decoder-png, -jpeg, -webp, -heif).
    DECODERS=()
    for folder in "$(dirname "$BINARY")" "$(dirname "$BINARY")/../libexec/babyalbum"; do
        for decoder in "$folder"/babyalbum-decoder "$folder"/babyalbum-decoder-*; do
            if [[ -f $decoder && -x $decoder ]]; then DECODERS+=("$decoder"); fi
        done
        ((${#DECODERS[@]} == 0)) || break
    done
    ((${#DECODERS[@]} > 0)) ||
        die "--binary $BINARY: no babyalbum-decoder beside it or in ../libexec/babyalbum (build both: swift build -c release)"
fi

# The ELF machine of the binary must match this machine (an x86_64 build cannot run on a Pi).
elf_machine() { od -An -t u2 -j 18 -N 2 "$1" | tr -d ' '; }
if live && ((!PACKAGED)); then
    case $(uname -m) in aarch64) want=183 ;; x86_64) want=62 ;; armv7l | armv6l) want=40 ;; *) want="" ;; esac
    have=$(elf_machine "$BINARY")
    if [[ -n $want && $have != "$want" ]]; then
        die "$BINARY is not built for $(uname -m) (ELF machine $have); see deploy/build-arm64.sh"
    fi
fi

CONFIG=/etc/default/babyalbum
existing_photos=""
if [[ -f $(tpath "$CONFIG") ]]; then
    existing_photos=$(sed -n 's/^BABYALBUM_PHOTOS=//p' "$(tpath "$CONFIG")" | tail -n 1)
fi
PHOTOS=${PHOTOS:-${existing_photos:-/var/lib/babyalbum/photos}}
case $PHOTOS in
/home/* | /root/* | /run/user/* | /tmp/* | /var/tmp/*)
    die "--photos $PHOTOS: the service cannot see home or temporary folders; use e.g. /var/lib/babyalbum/photos or /srv/photos" ;;
/*) ;;
*) die "--photos $PHOTOS: give an absolute path" ;;
esac
[[ $PHOTOS != *[[:space:]]* ]] || die "--photos $PHOTOS: no spaces, please"

if [[ $BOARD == auto ]]; then
    if [[ -n $(pi_boot_dir) ]]; then BOARD=pi
    elif [[ -f $(tpath /etc/default/grub) ]]; then BOARD=grub
    else BOARD=none
    fi
fi
# The exit button this script wires on a Pi is bound by its phys, which the kernel's gpio-keys
# driver sets to "gpio-keys/input0" for every gpio-keys device (its name is the device-tree node's,
# not the overlay's label). Elsewhere BabyAlbum's default applies: any button that is not a keyboard.
EXIT_DEVICE=""
if [[ $BOARD == pi ]] && ((BUTTON)); then EXIT_DEVICE=gpio-keys/input0; fi
if [[ -z $EXIT_KEY ]]; then
    EXIT_KEY=KEY_POWER
    if [[ $BOARD == pi ]] && ((BUTTON)); then
        case $KEYCODE in 116) EXIT_KEY=KEY_POWER ;; 1) EXIT_KEY=KEY_ESC ;; 148) EXIT_KEY=KEY_PROG1 ;; *) EXIT_KEY=$KEYCODE ;; esac
    fi
fi

note "installing ${DEB:-$BINARY}${ROOT:+ into $ROOT} (board: $BOARD, photos: $PHOTOS, exit key: $EXIT_KEY${EXIT_DEVICE:+ from $EXIT_DEVICE})"

# Facts about the system before this script changed anything, kept for uninstall.sh. Earlier
# runs' facts win: after the first run the getty is disabled by us, not by the owner.
declare -A BEFORE=()
remember() { state_has "$1" || BEFORE[$1]=$2; }
if [[ -n $(id_in_target passwd babyalbum) ]]; then remember user_created no; else remember user_created yes; fi
remember getty_tty1_was "$(unit_state getty@tty1.service)"
remember ctrl_alt_del_was "$(unit_state ctrl-alt-del.target)"

write_state() {
    local file key tmp
    file=$(tpath "$STATE_FILE")
    tmp=$(mktemp)
    {
        echo "# What deploy/install.sh changed, read by deploy/uninstall.sh."
        if [[ -f $file ]]; then
            grep -v '^#' "$file" | while IFS= read -r line; do
                [[ -n ${BEFORE[${line%%=*}]+set} ]] || printf '%s\n' "$line"
            done
        fi
        for key in "${!BEFORE[@]}"; do printf '%s=%s\n' "$key" "${BEFORE[$key]}"; done
    } | LC_ALL=C sort >"$tmp"
    put_file "$STATE_FILE" 0644 "$tmp"
    rm -f "$tmp"
    BEFORE=()
}

# ---- 1. runtime libraries ---------------------------------------------------------------------

PACKAGES=(libpng16-16 libjpeg62-turbo libwebp7 libwebpdemux2 libdrm2 libevdev2 libheif1 libfreetype6 liblcms2-2 fonts-dejavu-core)
if [[ -n $DEB ]]; then
    # The package brings the program, the unit, the udev rule, the user and the libraries.
    if live; then
        deb_path=$(cd "$(dirname "$DEB")" && pwd)/$(basename "$DEB")
        run apt-get install -y --no-install-recommends "$deb_path"
    else
        note "staging root: not running apt-get install $DEB"
    fi
elif ((PACKAGED)); then
    : # already installed
elif ((APT)); then
    if live; then
        missing=()
        for package in "${PACKAGES[@]}"; do
            dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q 'install ok installed' || missing+=("$package")
        done
        if ((${#missing[@]})); then
            run apt-get install -y --no-install-recommends "${missing[@]}"
        fi
    else
        note "staging root: not running apt-get install ${PACKAGES[*]}"
    fi
fi

# ---- 2. the system user -----------------------------------------------------------------------

put_text /etc/sysusers.d/babyalbum.conf 0644 <<'EOF'
# The BabyAlbum photo frame's own system user (deploy/install.sh): video for /dev/dri,
# input for /dev/input, tty for its console on tty1.
u babyalbum - "BabyAlbum photo frame" /var/lib/babyalbum /usr/sbin/nologin
m babyalbum video
m babyalbum input
m babyalbum tty
EOF
user_ok=1
[[ -n $(id_in_target passwd babyalbum) ]] || user_ok=0
for group in video input tty; do
    awk -F: -v g="$group" '$1 == g && ("," $4 ",") ~ /,babyalbum,/ { found = 1 } END { exit !found }' \
        "$(tpath /etc/group)" 2>/dev/null || user_ok=0
done
if ((!user_ok)); then
    if live; then run systemd-sysusers /etc/sysusers.d/babyalbum.conf
    else run systemd-sysusers --root="$ROOT" "$ROOT/etc/sysusers.d/babyalbum.conf"
    fi
fi

# ---- 3. folders, program, configuration, service ----------------------------------------------

# Group-writable for the service's state; others may only pass through to photos/.
ensure_dir /var/lib/babyalbum 0771 root babyalbum
write_state
if [[ $PHOTOS == /var/lib/babyalbum/photos ]]; then
    ensure_dir "$PHOTOS" 2750 "$OWNER" babyalbum
elif [[ ! -d $(tpath "$PHOTOS") ]]; then
    ensure_dir "$PHOTOS" 2750 "$OWNER" babyalbum
else
    note "using the existing folder $PHOTOS: make sure the user babyalbum can read it"
fi

if ((PACKAGED)); then
    # The package's program and unit (/usr/bin, /usr/lib/systemd/system); a copy of an earlier
    # bare install would shadow them.
    remove /usr/local/bin/babyalbum
    for decoder in "$(tpath /usr/local/libexec/babyalbum)"/babyalbum-decoder*; do
        if [[ -e $decoder ]]; then remove "/usr/local/libexec/babyalbum/$(basename "$decoder")"; fi
    done
    remove_dir_if_empty /usr/local/libexec/babyalbum
else
    put_file /usr/local/bin/babyalbum 0755 "$BINARY"
    # Where the frame looks for them: ../libexec/babyalbum from its own folder.
    for decoder in "${DECODERS[@]}"; do
        put_file "/usr/local/libexec/babyalbum/$(basename "$decoder")" 0755 "$decoder"
    done
fi

# The options go into the settings file, where a parent can change them (deploy/settings.sh).
existing_opts=""
[[ ! -f $(tpath "$CONFIG") ]] || existing_opts=$(sed -n 's/^BABYALBUM_OPTS=//p' "$(tpath "$CONFIG")" | tail -n 1)
if [[ ! -f $(tpath "$CONFIG") ]] || ((CONFIG_GIVEN)); then
    install_settings_file "$BOARD" "--exit-key $EXIT_KEY${EXIT_DEVICE:+ --exit-device $EXIT_DEVICE}${OPTIONS:+ $OPTIONS}"
else
    install_settings_file "$BOARD" "$existing_opts"
fi
if [[ ! -f $(tpath "$CONFIG") ]] || ((CONFIG_GIVEN)) || [[ -n $existing_opts ]]; then
    put_text "$CONFIG" 0644 <<EOF
# Options of the BabyAlbum photo frame, read by babyalbum.service (written by deploy/install.sh).
# After a change: sudo systemctl restart babyalbum
#
# The photo folder. Not under /home: the service cannot see home folders.
BABYALBUM_PHOTOS=$PHOTOS
# The other settings are in $SETTINGS_FILE (key = value lines).
# Options here (see: babyalbum --help) win over that file; best leave this empty.
BABYALBUM_OPTS=
EOF
fi

units_before=$CHANGES
if ((PACKAGED)); then
    remove "/etc/systemd/system/$UNIT"
    remove /usr/local/share/doc/babyalbum/README.md
else
    put_file "/etc/systemd/system/$UNIT" 0644 "$SCRIPT_DIR/$UNIT"
    put_file /usr/local/share/doc/babyalbum/README.md 0644 "$SCRIPT_DIR/README.md"
fi
install_usb_sticks

# ---- 4. nothing but the exit button may act ----------------------------------------------------

put_text /etc/systemd/logind.conf.d/babyalbum.conf 0644 <<'EOF'
# BabyAlbum photo frame (deploy/install.sh): the power, sleep and reboot keys and a closing
# cover do nothing, even while the slideshow is stopped. The exit button sends KEY_POWER.
[Login]
HandlePowerKey=ignore
HandlePowerKeyLongPress=ignore
HandleRebootKey=ignore
HandleRebootKeyLongPress=ignore
HandleSuspendKey=ignore
HandleSuspendKeyLongPress=ignore
HandleHibernateKey=ignore
HandleHibernateKeyLongPress=ignore
HandleLidSwitch=ignore
HandleLidSwitchExternalPower=ignore
HandleLidSwitchDocked=ignore
EOF
put_text /etc/systemd/system.conf.d/babyalbum.conf 0644 <<'EOF'
# BabyAlbum photo frame (deploy/install.sh): pressing Ctrl+Alt+Del seven times in two seconds
# does not force a reboot (ctrl-alt-del.target itself is masked).
[Manager]
CtrlAltDelBurstAction=none
EOF
put_text /etc/sysctl.d/90-babyalbum.conf 0644 <<'EOF'
# BabyAlbum photo frame (deploy/install.sh): no magic SysRq keys from a child's keyboard.
kernel.sysrq = 0
EOF

# Quiet hours with --quiet-mode dim: the frame may set the panel's backlight. udev lets the video
# group write `brightness`; the sandbox (ProtectKernelTunables=yes makes /sys read-only) gets each
# backlight's own device folder as its only writable place in /sys. HDMI screens have none.
put_text /etc/udev/rules.d/90-babyalbum-backlight.rules 0644 <<'EOF'
# BabyAlbum photo frame (deploy/install.sh): the video group may set the backlight (quiet hours,
# --quiet-mode dim).
ACTION=="add", SUBSYSTEM=="backlight", RUN+="/bin/chgrp video /sys/class/backlight/%k/brightness", RUN+="/bin/chmod g+w /sys/class/backlight/%k/brightness"
EOF
backlights=()
if live; then
    for backlight in /sys/class/backlight/*; do
        [[ -e $backlight ]] && backlights+=("$(readlink -f "$backlight")")
    done
fi
if ((${#backlights[@]})); then
    {
        echo "# BabyAlbum photo frame (deploy/install.sh): the backlight, for --quiet-mode dim."
        echo "[Service]"
        printf 'ReadWritePaths=-%s\n' "${backlights[@]}"
    } | put_text "/etc/systemd/system/$UNIT.d/backlight.conf" 0644
    run udevadm trigger --subsystem-match=backlight --action=add
else
    remove "/etc/systemd/system/$UNIT.d/backlight.conf"
fi

# systemd re-reads the unit and its own configuration only when they changed.
if systemd_running && ((CHANGES > units_before)); then run systemctl daemon-reload; fi
[[ $(unit_state "$UNIT") == enabled ]] || run systemctl "$(root_opt)" enable "$UNIT"
case $(unit_state getty@tty1.service) in
enabled | enabled-runtime) run systemctl "$(root_opt)" disable getty@tty1.service ;;
esac
[[ $(unit_state ctrl-alt-del.target) == masked ]] || run systemctl "$(root_opt)" mask ctrl-alt-del.target

# ---- 5. a quiet console, and the exit button ---------------------------------------------------

case $BOARD in
pi)
    boot=$(pi_boot_dir)
    [[ -n $boot ]] || die "--board pi: no config.txt in /boot/firmware or /boot${ROOT:+ under $ROOT}"
    cmdline=$(tpath "$boot/cmdline.txt")
    [[ -f $cmdline ]] || die "$boot/cmdline.txt not found"
    read -r -a words <"$cmdline" || true
    added=()
    for word in "${QUIET_WORDS[@]}"; do
        key=${word%%=*}
        present=0
        for existing in "${words[@]}"; do
            if [[ $existing == "$word" ]]; then present=1
            elif [[ $word == *=* && ${existing%%=*} == "$key" ]]; then
                present=1
                warn "$boot/cmdline.txt already has $existing; left as it is (BabyAlbum suggests $word)"
            fi
        done
        ((present)) || added+=("$word")
    done
    if ((${#added[@]})); then
        change "edit $boot/cmdline.txt: add ${added[*]}"
        if ((!DRY_RUN)); then
            printf '%s\n' "${words[*]} ${added[*]}" >"$cmdline.babyalbum-new"
            mv -f "$cmdline.babyalbum-new" "$cmdline"
        fi
        previous=$(state_get cmdline_added)
        BEFORE[cmdline_added]="${previous:+$previous }${added[*]}"
    fi
    config=$(tpath "$boot/config.txt")
    block=""
    if ((BUTTON)); then
        block="$BLOCK_BEGIN
[all]
# The exit button: between GPIO$GPIO and ground, sends key code $KEYCODE while held
# (an input device with phys gpio-keys/input0, the --exit-device in /etc/default/babyalbum).
dtoverlay=gpio-key,gpio=$GPIO,active_low=1,gpio_pull=2,keycode=$KEYCODE
$BLOCK_END"
    fi
    tmp=$(mktemp)
    without_block "$config" >"$tmp"
    [[ -z $block ]] || printf '%s\n' "$block" >>"$tmp"
    if grep -qxF "$BLOCK_BEGIN" "$config" && ((!BUTTON_GIVEN)); then
        : # Keep the button of an earlier run unless --gpio, --keycode or --no-button say otherwise.
    elif ! cmp -s "$tmp" "$config"; then
        if [[ -n $block ]]; then
            change "edit $boot/config.txt: exit button on GPIO$GPIO (key code $KEYCODE)"
            ((DRY_RUN)) && printf '%s\n' "$block" | sed 's/^/    | /'
        else
            change "edit $boot/config.txt: remove the exit button overlay"
        fi
        ((DRY_RUN)) || cat "$tmp" >"$config"
    fi
    rm -f "$tmp"
    ;;
grub)
    before=$CHANGES
    put_text /etc/default/grub.d/babyalbum.cfg 0644 <<EOF
# BabyAlbum photo frame (deploy/install.sh): quiet boot, no cursor, no console blanking.
GRUB_CMDLINE_LINUX_DEFAULT="\$GRUB_CMDLINE_LINUX_DEFAULT ${QUIET_WORDS[*]}"
EOF
    if ((CHANGES > before)) && live && command -v update-grub >/dev/null; then run update-grub; fi
    ;;
none)
    warn "no Raspberry Pi config.txt and no GRUB found: add '${QUIET_WORDS[*]}' to the kernel command line yourself"
    ;;
esac

# ---- 6. the family library, with --sync (deploy/sync-install.sh) -------------------------------

if ((SYNC)); then install_sync "$PHOTOS" "$SYNC_LIBRARY"; fi

write_state

# ---- done -------------------------------------------------------------------------------------

finish
if ((!DRY_RUN && CHANGES > 0)) && live; then
    cat <<EOF

BabyAlbum is installed. Next:
  1. copy photos (PNG) into $PHOTOS
  2. check the setup:      sudo -u babyalbum $( ((PACKAGED)) && echo /usr/bin/babyalbum || echo /usr/local/bin/babyalbum) doctor --photos $PHOTOS
  3. start the frame:      sudo reboot
EOF
    if ((SYNC)); then
        cat <<EOF
  Family photos: pair this frame with the family's Syncthing (deploy/README.md):
                           sudo deploy/pair.sh FAMILY-DEVICE-ID
EOF
    fi
fi
