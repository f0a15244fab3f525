#!/bin/sh
# Test copies only (make-demo-card.sh): what the booted slot sees, on the serial console.
# AB_DEMO_ACTION in /boot/firmware/ab-demo.txt (one word) says what to write back:
#   keep      nothing
#   a-failed  BOOT_A_LEFT=0 (as if slot A had used up its tries): the next boot must take B
#   good      the booted slot's tries back to 3 (what `rauc status mark-good` writes)
exec >/dev/ttyS1 2>&1
echo "AB-DEMO-BEGIN"
echo "uptime: $(cut -d' ' -f1 /proc/uptime) s"
echo "cmdline: $(cat /proc/cmdline)"
echo "root: $(findmnt -no SOURCE,OPTIONS /)"
echo "slot files: $(readlink /vmlinuz) $(readlink /initrd.img)"
echo "fw_env.config: $(grep -v '^#' /etc/fw_env.config)"
echo "--- fw_printenv BOOT_ORDER BOOT_A_LEFT BOOT_B_LEFT bootdelay"
fw_printenv BOOT_ORDER BOOT_A_LEFT BOOT_B_LEFT bootdelay; echo "(exit $?)"
action=$(cat /boot/firmware/ab-demo.txt 2>/dev/null || echo keep)
slot=$(sed -n 's/.*rauc\.slot=\([AB]\).*/\1/p' /proc/cmdline)
echo "--- action: $action (booted slot $slot)"
if [ "$action" != keep ]; then
    mount -o remount,rw /boot/firmware
    case $action in
        a-failed) fw_setenv BOOT_A_LEFT 0 ;;
        good) fw_setenv "BOOT_${slot}_LEFT" 3 ;;
    esac
    echo "(fw_setenv exit $?)"
    sync
    mount -o remount,ro /boot/firmware
    echo "--- fw_printenv after"
    fw_printenv BOOT_ORDER BOOT_A_LEFT BOOT_B_LEFT
fi
echo "AB-DEMO-END"
