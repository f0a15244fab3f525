#!/bin/bash
# The A/B boot chain's prototype on QEMU's raspi3b (issue 64; docs/updates.md has what each step
# showed). As root; one QEMU at a time; each step works on its own copy of the demo card.
#
#   deploy/card/uboot/demo.sh tools                  Debian's amd64 mkimage and fw_printenv, unpacked
#   deploy/card/uboot/demo.sh card CARD.img [SUITE]  the two-slot demo card from a scripts/image card
#   deploy/card/uboot/demo.sh slot-a                 (a)+(c) slot A boots; Linux reads the environment
#                                                    and writes BOOT_A_LEFT=0 with fw_setenv
#   deploy/card/uboot/demo.sh slot-b                 (b) the same copy again: slot B boots, marks itself good
#   deploy/card/uboot/demo.sh no-tries               both counters 0 (set on the host): both get 3, A boots
#   deploy/card/uboot/demo.sh bad-kernel             BOOT_ORDER "B A", B's kernel is junk: B gets 0, reset, A
#   deploy/card/uboot/demo.sh bad-initrd             B's initramfs is junk (and rootwait=20): the kernel
#                                                    panics, and halts: "Reboot failed" (bcm2835_wdt, the
#                                                    only restart, is a module) - docs/updates.md
#   deploy/card/uboot/demo.sh timing [N]             QEMU start to the kernel's first line, direct and
#                                                    through U-Boot (first boot, later boots), N runs each
# Work files go to $WORK (default /work/uboot/demo). Set SUITE=bookworm for bookworm's U-Boot.
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
WORK=${WORK:-/work/uboot/demo}
SUITE=${SUITE:-trixie}
MIRROR=${MIRROR:-http://deb.debian.org/debian}
CARD=$WORK/ab.img
UBOOT=$WORK/ab-work/x/usr/lib/u-boot/rpi_arm64/u-boot.bin
TREE=$WORK/bcm2837-rpi-3-b.dtb
CLOCK=$HERE/raspi3b-clock.py
mkdir -p "$WORK"
export MTOOLS_SKIP_CHECK=1

# Offsets of the demo card's partitions (make-demo-card.sh keeps the card's p1, p2; B follows A).
sector() { sfdisk -d "$1" | sed -n "s/^.*[^0-9]$2 : start= *\([0-9]*\),.*/\1/p"; }
fat() { local img=$1; shift; "$1" -i "$img@@$(($(sector "$img" 1) * 512))" "${@:2}"; }
root() { printf '%s?offset=%d' "$1" $(($(sector "$1" "$2") * 512)); } # for debugfs
copy() { cp --sparse=always "$CARD" "$WORK/$1.img"; echo "$WORK/$1.img"; }

tools() { # Debian's amd64 u-boot-tools and libubootenv-tool for the host's suite, unpacked (not installed)
    local apt=$WORK/apt-host suite
    suite=$(. /etc/os-release && echo "$VERSION_CODENAME")
    mkdir -p "$apt/lists/partial" "$apt/archives/partial" "$WORK/host"
    [[ -f $apt/status ]] || : >"$apt/status"
    echo "deb $MIRROR $suite main" >"$apt/sources.list"
    local o=(-o "Dir::Etc::SourceList=$apt/sources.list" -o Dir::Etc::SourceParts=/dev/null -o "Dir::State::Lists=$apt/lists"
        -o "Dir::State::status=$apt/status" -o "Dir::Cache=$apt" -o APT::Architecture=amd64 -o Debug::NoLocking=1)
    apt-get -qq "${o[@]}" update
    (cd "$apt/archives" && apt-get -qq "${o[@]}" download u-boot-tools libubootenv-tool libubootenv0.1 2>&1 | grep -v unsandboxed || true)
    for deb in "$apt"/archives/*.deb; do dpkg-deb -x "$deb" "$WORK/host"; done
    "$WORK/host/usr/bin/mkimage" -V
}
host_env() { # host_env ENVFILE fw_printenv|fw_setenv ARGS...: libubootenv on a copy of uboot.env
    local file=$1 tool=$2; shift 2
    printf '%s 0x0000 0x4000\n' "$file" >"$file.config"
    LD_LIBRARY_PATH=$WORK/host/usr/lib/x86_64-linux-gnu "$WORK/host/usr/bin/$tool" -c "$file.config" "$@"
}
env_get() { fat "$1" mcopy -o ::/uboot.env "$2"; }
env_put() { fat "$1" mcopy -o "$2" ::/uboot.env; }
action() { printf '%s\n' "$2" >"$WORK/ab-demo.txt"; fat "$1" mcopy -o "$WORK/ab-demo.txt" ::/ab-demo.txt; }
boot() { # boot IMG LOG UNTIL [TIMEOUT] [more raspi3b-clock.py options]
    local img=$1 log=$2 until=$3 timeout=${4:-600}
    "$CLOCK" --card "$img" --dtb "$TREE" --kernel "$UBOOT" --until "$until" --timeout "$timeout" --log "$log" --quiet "${@:5}" || true
    grep -E "Environment|babyalbum:|Starting kernel|resetting|Bad Linux|Kernel panic|Rebooting" "$log" | cut -c1-170 || true
    sed -n '/AB-DEMO-BEGIN/,/AB-DEMO-END/p' "$log" | grep -v -e hint: -e 'old version' | cut -c1-300 || true
}

case ${1:-} in
tools) tools ;;
card)
    PATH=$WORK/host/usr/bin:$PATH LD_LIBRARY_PATH=$WORK/host/usr/lib/x86_64-linux-gnu \
        WORK=$WORK/ab-work "$HERE/make-demo-card.sh" "${2:?card image}" "$CARD" "${3:-$SUITE}"
    fat "$CARD" mcopy -o ::/bcm2837-rpi-3-b.dtb "$TREE"
    ;;
slot-a)
    img=$(copy ab-run)
    action "$img" a-failed
    boot "$img" "$WORK/slot-a.log" "AB-DEMO-END|Kernel panic"
    env_get "$img" "$WORK/slot-a.env"
    echo "--- the host reads the FAT's uboot.env:"; host_env "$WORK/slot-a.env" fw_printenv BOOT_ORDER BOOT_A_LEFT BOOT_B_LEFT
    ;;
slot-b)
    img=$WORK/ab-run.img
    action "$img" good
    boot "$img" "$WORK/slot-b.log" "AB-DEMO-END|Kernel panic"
    env_get "$img" "$WORK/slot-b.env"
    echo "--- the host reads the FAT's uboot.env:"; host_env "$WORK/slot-b.env" fw_printenv BOOT_ORDER BOOT_A_LEFT BOOT_B_LEFT
    ;;
no-tries)
    img=$(copy no-tries)
    boot "$img" "$WORK/first.log" "Starting kernel" 300 # U-Boot writes its environment (the card ships none)
    env_get "$img" "$WORK/no-tries.env"
    host_env "$WORK/no-tries.env" fw_setenv BOOT_A_LEFT 0
    host_env "$WORK/no-tries.env" fw_setenv BOOT_B_LEFT 0
    host_env "$WORK/no-tries.env" fw_printenv BOOT_ORDER BOOT_A_LEFT BOOT_B_LEFT
    env_put "$img" "$WORK/no-tries.env"
    boot "$img" "$WORK/no-tries.log" "Starting kernel" 300
    ;;
bad-kernel | bad-initrd)
    img=$(copy "$1")
    boot "$img" "$WORK/first.log" "Starting kernel" 300
    env_get "$img" "$WORK/$1.env"
    host_env "$WORK/$1.env" fw_setenv BOOT_ORDER "B A" # as RAUC leaves it after writing slot B
    host_env "$WORK/$1.env" fw_setenv BOOT_B_LEFT 3
    env_put "$img" "$WORK/$1.env"
    head -c 1048576 /dev/urandom >"$WORK/junk"
    file=/boot/vmlinuz-$(debugfs -R "ls /boot" "$(root "$img" 3)" 2>/dev/null | grep -o 'vmlinuz-[^ ]*' | head -1 | cut -d- -f2-)
    [[ $1 == bad-initrd ]] && file=${file/vmlinuz/initrd.img}
    debugfs -w -R "rm $file" "$(root "$img" 3)" 2>/dev/null
    debugfs -w -R "write $WORK/junk $file" "$(root "$img" 3)" 2>/dev/null
    if [[ $1 == bad-initrd ]]; then # a root that never comes: the kernel gives up after 20 s
        debugfs -R "cat /boot/cmdline.env" "$(root "$img" 3)" 2>/dev/null | sed 's/ rootwait / rootwait=20 /' >"$WORK/cmdline.env"
        debugfs -w -R "rm /boot/cmdline.env" "$(root "$img" 3)" 2>/dev/null
        debugfs -w -R "write $WORK/cmdline.env /boot/cmdline.env" "$(root "$img" 3)" 2>/dev/null
    fi
    echo "slot B's $file is 1 MiB of junk"
    boot "$img" "$WORK/$1.log" "babyalbum: slot A|System halted" 700 --first "Core:"
    ;;
timing)
    runs=${2:-2}
    kernel=$(fat "$CARD" mdir -b ::/ | sed -n 's|^::/\(vmlinuz-.*\)|\1|p' | head -1)
    fat "$CARD" mcopy -o "::/$kernel" "$WORK/vmlinuz"
    fat "$CARD" mcopy -o "::/${kernel/vmlinuz/initrd.img}" "$WORK/initrd.img"
    img=$(copy timing)
    cmdline=$(debugfs -R "cat /boot/cmdline.env" "$(root "$img" 2)" 2>/dev/null | sed 's/^ba_cmdline=//')
    # earlycon: the kernel's first line at once (not when the console driver comes up), and
    # ignore_loglevel: it is an info line, which the card's "quiet loglevel=3" would hide
    printf 'ba_cmdline=%s earlycon ignore_loglevel\n' "$cmdline" >"$WORK/cmdline.env"
    debugfs -w -R "rm /boot/cmdline.env" "$(root "$img" 2)" 2>/dev/null
    debugfs -w -R "write $WORK/cmdline.env /boot/cmdline.env" "$(root "$img" 2)" 2>/dev/null
    uuid=$(sfdisk --disk-id "$img" | sed 's/^0x//')
    for i in $(seq "$runs"); do
        echo "direct $i: $("$CLOCK" --card "$img" --dtb "$TREE" --kernel "$WORK/vmlinuz" --initrd "$WORK/initrd.img" \
            --append "root=PARTUUID=$uuid-02 rauc.slot=A panic=10 $cmdline earlycon ignore_loglevel" --until "Booting Linux" --timeout 120 --quiet | tail -1)"
        fat "$img" mdel ::/uboot.env 2>/dev/null || true
        "$CLOCK" --card "$img" --dtb "$TREE" --kernel "$UBOOT" --until "Booting Linux" --timeout 120 --log "$WORK/t-first-$i.log" --quiet >/dev/null || true
        echo "u-boot, first boot (no uboot.env) $i: $(grep -E 'babyalbum: slot|Starting kernel|Booting Linux' "$WORK/t-first-$i.log" | awk '{print $1}' | tr '\n' ' ')(script, Starting kernel, first line)"
        "$CLOCK" --card "$img" --dtb "$TREE" --kernel "$UBOOT" --until "Booting Linux" --timeout 120 --log "$WORK/t-later-$i.log" --quiet >/dev/null || true
        echo "u-boot, a later boot $i: $(grep -E 'babyalbum: slot|Starting kernel|Booting Linux' "$WORK/t-later-$i.log" | awk '{print $1}' | tr '\n' ' ')(script, Starting kernel, first line)"
        grep -E "bytes read" "$WORK/t-later-$i.log" | cut -c1-80
    done
    ;;
*) sed -n '2,20p' "$0"; exit 2 ;;
esac
