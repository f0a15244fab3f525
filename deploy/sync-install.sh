# shellcheck shell=bash
# install.sh --sync and its undoing in uninstall.sh (issue 17): Debian's Syncthing as its own
# system user in its own hardened unit, receiving the family library into PHOTOS/family.
# Sourced by deploy/install.sh and deploy/uninstall.sh after lib.sh and sync-lib.sh; uses their
# helpers (put_file, ensure_dir, run, state), so dry runs, staging roots and idempotence work the
# same way as for the rest of the install.

SYNC_PACKAGES=(syncthing curl)
SYNC_SYSUSERS=/etc/sysusers.d/babyalbum-sync.conf
SYNC_DROPIN=/etc/systemd/system/$SYNC_UNIT.d/photos.conf

# install_sync PHOTOS [LIBRARY]: everything install.sh --sync adds. LIBRARY (--sync-library, the
# card's): the family folder instead of PHOTOS/family, inside the home, which the frame may then
# pass through; the keys are made at the first start, never in an image (every card its own ID).
install_sync() {
    local photos=$1 library=${2:-}
    local family=${library:-$photos/family}
    install_sync_packages
    install_sync_user
    if [[ -n $library ]]; then
        ensure_dir "$SYNC_HOME" 0750 "$SYNC_USER" babyalbum
    else
        ensure_dir "$SYNC_HOME" 0700 "$SYNC_USER" "$SYNC_USER"
    fi
    ensure_dir "$family" 2750 "$SYNC_USER" babyalbum
    if [[ -n $library ]]; then
        note "the Syncthing keys are made at the first start (a card's own device ID)"
    else
        install_sync_config "$family"
    fi
    install_sync_unit "$family"
}

install_sync_packages() {
    local package missing=()
    for package in "${SYNC_PACKAGES[@]}"; do
        dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q 'install ok installed' || missing+=("$package")
    done
    if ! live; then
        note "staging root: not running apt-get install ${SYNC_PACKAGES[*]}"
    elif ((${#missing[@]})); then
        ((APT)) || die "--sync needs ${missing[*]}: apt-get install ${missing[*]} (or drop --no-apt)"
        remember sync_packages_installed "${missing[*]}"
        run apt-get install -y --no-install-recommends "${missing[@]}"
    fi
}

install_sync_user() {
    put_text "$SYNC_SYSUSERS" 0644 <<EOF
# Syncthing for the BabyAlbum photo frame (deploy/install.sh --sync): its own system user, in
# the group babyalbum to reach the photo folder.
u $SYNC_USER - "BabyAlbum photo sync (Syncthing)" $SYNC_HOME /usr/sbin/nologin
m $SYNC_USER babyalbum
EOF
    if [[ -n $(id_in_target passwd "$SYNC_USER") ]]; then
        awk -F: -v u="$SYNC_USER" '$1 == "babyalbum" && ("," $4 ",") ~ ("," u ",") { ok = 1 } END { exit !ok }' \
            "$(tpath /etc/group)" && return 0
    else
        remember sync_user_created yes
    fi
    if live; then run systemd-sysusers "$SYNC_SYSUSERS"
    else run systemd-sysusers --root="$ROOT" "$ROOT$SYNC_SYSUSERS"
    fi
}

# install_sync_config FAMILY: the device's keys and configuration, made once (a second run keeps
# them, and so the device ID and the pairing).
install_sync_config() {
    local family=$1 home
    home=$(tpath "$SYNC_HOME")
    [[ -f $home/config.xml ]] && return 0
    change "generate Syncthing's keys and configuration in $SYNC_HOME: folder $family (receive-only), GUI and REST API on $SYNC_GUI, LAN discovery only"
    ((DRY_RUN)) && return 0
    command -v syncthing >/dev/null || die "syncthing is not installed on this machine (apt-get install syncthing)"
    local tmp
    tmp=$(mktemp -d)
    sync_generate "$tmp"
    sync_edit_config "$tmp" "$family" receiveonly "$SYNC_GUI" default 1
    sync_set_option "$tmp/config.xml" setLowPriority false # the unit sets Nice=; setpriority is filtered
    note "this frame's Syncthing device ID: $(sync_device_id "$tmp")"
    local uid gid file
    uid=$(id_in_target passwd "$SYNC_USER")
    gid=$(id_in_target group "$SYNC_USER")
    for file in cert.pem key.pem config.xml; do
        install -m 0600 -o "$uid" -g "$gid" "$tmp/$file" "$home/$file"
    done
    rm -rf "$tmp"
}

install_sync_unit() {
    local family=$1 before=$CHANGES
    put_file "/etc/systemd/system/$SYNC_UNIT" 0644 "$SCRIPT_DIR/$SYNC_UNIT"
    if [[ $family != /var/lib/babyalbum/photos/family ]]; then
        put_text "$SYNC_DROPIN" 0644 <<EOF
# The family folder under --photos $(dirname "$family") (deploy/install.sh --sync).
[Service]
ReadWritePaths=
ReadWritePaths=$SYNC_HOME $family
EOF
    else
        remove "$SYNC_DROPIN"
        remove_dir_if_empty "$(dirname "$SYNC_DROPIN")"
    fi
    if systemd_running && ((CHANGES > before)); then run systemctl daemon-reload; fi
    [[ $(unit_state "$SYNC_UNIT") == enabled ]] || run systemctl "$(root_opt)" enable "$SYNC_UNIT"
    if systemd_running && ((CHANGES > before)); then run systemctl restart "$SYNC_UNIT"; fi
}

# uninstall_sync PHOTOS PURGE: removes all install_sync added (the received photos only with --purge).
uninstall_sync() {
    local photos=$1 purge=$2 before=$CHANGES
    if systemd_running && systemctl -q is-active "$SYNC_UNIT"; then run systemctl stop "$SYNC_UNIT"; fi
    case $(unit_state "$SYNC_UNIT") in enabled | enabled-runtime | linked) run systemctl "$(root_opt)" disable "$SYNC_UNIT" ;; esac
    remove "/etc/systemd/system/$SYNC_UNIT"
    remove "$SYNC_DROPIN"
    remove_dir_if_empty "$(dirname "$SYNC_DROPIN")"
    if systemd_running && ((CHANGES > before)); then run systemctl daemon-reload; fi
    remove "$SYNC_SYSUSERS"
    if [[ -d $(tpath "$SYNC_HOME") ]]; then
        change "delete $SYNC_HOME (Syncthing's keys, configuration and index)"
        ((DRY_RUN)) || rm -rf "$(tpath "$SYNC_HOME")"
    fi
    local family=$photos/family
    if ((purge)) && [[ -d $(tpath "$family") ]]; then
        change "delete the family photos in $family"
        ((DRY_RUN)) || rm -rf "$(tpath "$family")"
    elif [[ -d $(tpath "$family") ]]; then
        # Syncthing's own files go; the photos stay.
        local name
        for name in .stfolder .stversions; do
            if [[ -d $(tpath "$family/$name") ]]; then
                change "delete $family/$name"
                ((DRY_RUN)) || rm -rf "$(tpath "$family/$name")"
            fi
        done
        remove "$family/.stignore"
        remove_dir_if_empty "$family"
    fi
    if [[ $(state_get sync_user_created) == yes && -n $(id_in_target passwd "$SYNC_USER") ]]; then
        if live; then run userdel "$SYNC_USER"; else run userdel --prefix "$ROOT" "$SYNC_USER"; fi
    fi
    if [[ $(state_get sync_user_created) == yes && -n $(id_in_target group "$SYNC_USER") ]]; then
        if live; then run groupdel "$SYNC_USER"; else run groupdel --prefix "$ROOT" "$SYNC_USER"; fi
    fi
    local packages
    packages=$(state_get sync_packages_installed)
    if [[ -n $packages ]] && live; then
        # shellcheck disable=SC2086 # the package names are split on purpose
        run apt-get purge -y $packages
    fi
}
