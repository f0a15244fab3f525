#!/usr/bin/env bash
# Undoes deploy/install.sh: stops and removes the BabyAlbum service, gives tty1 back to the login
# prompt, and removes every file and setting install.sh added. The photos stay unless --purge.
# Idempotent (a second run changes nothing). See deploy/README.md.
set -euo pipefail
PROG=uninstall.sh # lib.sh prints it
SCRIPT_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
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
Usage: sudo deploy/uninstall.sh [options]

Removes what deploy/install.sh installed. The photo folder is kept unless --purge.

  --purge          also delete the photo folder and everything in it
  --root DIR       work on a staged tree under DIR instead of the live system
  --dry-run, -n    print every change without making it
  -h, --help       this text
EOF
}

PURGE=0
while (($#)); do
    case $1 in
    --purge) PURGE=1; shift ;;
    --root) set_root "${2:-}"; shift 2 ;;
    --root=*) set_root "${1#*=}"; shift ;;
    --dry-run | -n) DRY_RUN=1; shift ;;
    -h | --help) usage; exit 0 ;;
    *) usage >&2; die "unknown option $1" ;;
    esac
done
if ((!DRY_RUN)) && [[ $(id -u) != 0 ]]; then die "run as root: sudo $0 $*"; fi

# What install.sh recorded (absent: assume the Debian defaults it changed).
user_created=$(state_get user_created)
getty_was=$(state_get getty_tty1_was)
cad_was=$(state_get ctrl_alt_del_was)
cmdline_added=$(state_get cmdline_added)
PHOTOS=""
if [[ -f $(tpath /etc/default/babyalbum) ]]; then
    PHOTOS=$(sed -n 's/^BABYALBUM_PHOTOS=//p' "$(tpath /etc/default/babyalbum)" | tail -n 1)
fi
PHOTOS=${PHOTOS:-/var/lib/babyalbum/photos}

# ---- the service and tty1 ---------------------------------------------------------------------

units_before=$CHANGES
if systemd_running && systemctl -q is-active "$UNIT"; then run systemctl stop "$UNIT"; fi
case $(unit_state "$UNIT") in enabled | enabled-runtime | linked) run systemctl "$(root_opt)" disable "$UNIT" ;; esac
remove "/etc/systemd/system/$UNIT"
case ${getty_was:-enabled} in
enabled | enabled-runtime)
    if [[ $(unit_state getty@tty1.service) == disabled ]]; then run systemctl "$(root_opt)" enable getty@tty1.service; fi
    ;;
esac
if [[ ${cad_was:-static} != masked && $(unit_state ctrl-alt-del.target) == masked ]]; then
    run systemctl "$(root_opt)" unmask ctrl-alt-del.target
fi

# ---- files ------------------------------------------------------------------------------------

remove /etc/default/babyalbum
uninstall_settings_file
uninstall_usb_sticks
remove /usr/local/bin/babyalbum
for decoder in "$(tpath /usr/local/libexec/babyalbum)"/babyalbum-decoder*; do
    if [[ -e $decoder ]]; then remove "/usr/local/libexec/babyalbum/$(basename "$decoder")"; fi
done
remove_dir_if_empty /usr/local/libexec/babyalbum
remove /usr/local/share/doc/babyalbum/README.md
remove_dir_if_empty /usr/local/share/doc/babyalbum
remove /etc/systemd/logind.conf.d/babyalbum.conf
remove /etc/systemd/system.conf.d/babyalbum.conf
remove /etc/sysctl.d/90-babyalbum.conf
remove /etc/udev/rules.d/90-babyalbum-backlight.rules
remove "/etc/systemd/system/$UNIT.d/backlight.conf"
remove_dir_if_empty "/etc/systemd/system/$UNIT.d"
remove /etc/sysusers.d/babyalbum.conf
if systemd_running && ((CHANGES > units_before)); then run systemctl daemon-reload; fi

# ---- boot configuration -----------------------------------------------------------------------

boot=$(pi_boot_dir)
if [[ -n $boot ]]; then
    cmdline=$(tpath "$boot/cmdline.txt")
    if [[ -n $cmdline_added && -f $cmdline ]]; then
        read -r -a words <"$cmdline" || true
        read -r -a remove_words <<<"$cmdline_added"
        kept=()
        for word in "${words[@]}"; do
            drop=0
            for unwanted in "${remove_words[@]}"; do [[ $word == "$unwanted" ]] && drop=1; done
            ((drop)) || kept+=("$word")
        done
        if [[ ${kept[*]} != "${words[*]}" ]]; then
            change "edit $boot/cmdline.txt: remove $cmdline_added"
            ((DRY_RUN)) || printf '%s\n' "${kept[*]}" >"$cmdline"
        fi
    fi
    config=$(tpath "$boot/config.txt")
    if grep -qxF "$BLOCK_BEGIN" "$config"; then
        change "edit $boot/config.txt: remove the exit button overlay"
        if ((!DRY_RUN)); then
            tmp=$(mktemp)
            without_block "$config" >"$tmp"
            cat "$tmp" >"$config"
            rm -f "$tmp"
        fi
    fi
fi
before=$CHANGES
remove /etc/default/grub.d/babyalbum.cfg
if ((CHANGES > before)) && live && command -v update-grub >/dev/null; then run update-grub; fi

# ---- the family library's Syncthing (install.sh --sync; deploy/sync-install.sh) ---------------

uninstall_sync "$PHOTOS" "$PURGE"

# ---- folders and the user ---------------------------------------------------------------------

if ((PURGE)); then
    if [[ -d $(tpath "$PHOTOS") ]]; then
        change "delete the photo folder $PHOTOS and everything in it"
        ((DRY_RUN)) || rm -rf "$(tpath "$PHOTOS")"
    fi
else
    remove_dir_if_empty "$PHOTOS"
fi
remove "$STATE_FILE"
remove_dir_if_empty /var/lib/babyalbum

if [[ ${user_created:-yes} == yes && -n $(id_in_target passwd babyalbum) ]]; then
    if live; then run userdel babyalbum; else run userdel --prefix "$ROOT" babyalbum; fi
fi
if [[ ${user_created:-yes} == yes && -n $(id_in_target group babyalbum) ]]; then
    # userdel removes the group only when it thinks it made it; sysusers made it.
    if live; then run groupdel babyalbum; else run groupdel --prefix "$ROOT" babyalbum; fi
fi

finish
if ((!DRY_RUN && CHANGES > 0)) && live; then
    echo "BabyAlbum is removed. Reboot to get the normal boot messages and login prompt back everywhere."
fi
