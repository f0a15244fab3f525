# shellcheck shell=bash
# USB sticks of photos, for deploy/install.sh and deploy/uninstall.sh (sourced after lib.sh):
# a udev rule that asks systemd to mount FAT, exFAT and NTFS sticks read-only under
# /media/babyalbum, where babyalbum --sticks finds them. No daemon of ours, and babyalbum
# itself gets no new privilege: systemd mounts, babyalbum only reads.

USB_RULE=/etc/udev/rules.d/90-babyalbum-usb.rules

# install_usb_sticks: installs the udev rule (and reloads udev's rules when they changed).
install_usb_sticks() {
    local before=$CHANGES
    put_file "$USB_RULE" 0644 "$SCRIPT_DIR/90-babyalbum-usb.rules"
    if ((CHANGES > before)) && live && command -v udevadm >/dev/null && [[ -d /run/udev ]]; then
        run udevadm control --reload
    fi
}

# uninstall_usb_sticks: removes the rule; sticks mounted now stay until pulled.
uninstall_usb_sticks() {
    local before=$CHANGES
    remove "$USB_RULE"
    if ((CHANGES > before)) && live && command -v udevadm >/dev/null && [[ -d /run/udev ]]; then
        run udevadm control --reload
    fi
}
