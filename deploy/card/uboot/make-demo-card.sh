#!/bin/bash
# The A/B boot chain's prototype (issue 64): a two-slot copy of a card made by scripts/image,
# booted by Debian's U-Boot and boot.scr (boot.cmd beside this file). Test copies only: the card
# itself is never changed, and the layout here is the prototype's, not a decision for docs/card.md.
#
#   deploy/card/uboot/make-demo-card.sh CARD.img OUT.img [bookworm|trixie]    (as root)
#
# OUT.img is 4 GiB (sparse; a power of two, as QEMU's raspi3b needs), MBR, the card's disk id:
#   1 FAT (as on the card, plus u-boot.bin, boot.scr, config.txt's kernel=u-boot.bin)
#   2 root A (the card's root)            3 root B (a copy of it)
#   4 extended: 5 state, 6 library (at the card's end, so grow-library leaves it alone)
# Both roots get: fstab with the state and library at -05 and -06; the card's patched device
# trees in /boot/dtbs/broadcom/; /boot/cmdline.env (the slot's kernel command line, plus the
# mini UART console for QEMU); libubootenv-tool and /etc/fw_env.config; ab-demo.service (prints
# the slot and the environment on ttyS1, and writes back what /boot/firmware/ab-demo.txt says).
# Needs: sfdisk, mtools, mkimage (u-boot-tools), losetup and mount; the .debs are fetched from
# Debian's archive with a throwaway apt state (APT_DIR), never the host's.
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
CARD=${1:?card image}
OUT=${2:?output image}
SUITE=${3:-trixie}
WORK=${WORK:-$(dirname "$OUT")/ab-work}
APT_DIR=${APT_DIR:-$WORK/apt-$SUITE}
MIRROR=${MIRROR:-http://deb.debian.org/debian}
mkdir -p "$WORK/debs" "$APT_DIR/lists/partial" "$APT_DIR/archives/partial"
[[ -f $APT_DIR/status ]] || : >"$APT_DIR/status"

# ---- Debian's packages, arm64 ------------------------------------------------------------------
echo "deb $MIRROR $SUITE main" >"$APT_DIR/sources.list"
apt_opts=(-o "Dir::Etc::SourceList=$APT_DIR/sources.list" -o Dir::Etc::SourceParts=/dev/null
    -o "Dir::State::Lists=$APT_DIR/lists" -o "Dir::State::status=$APT_DIR/status" -o "Dir::Cache=$APT_DIR"
    -o APT::Architecture=arm64 -o Debug::NoLocking=1)
apt-get -qq "${apt_opts[@]}" update
rm -rf "$WORK/debs" "$WORK/x" && mkdir -p "$WORK/debs" "$WORK/x"
packages=(u-boot-rpi libubootenv-tool libubootenv0.1)
[[ $SUITE == bookworm ]] || packages+=(libyaml-0-2)
(cd "$WORK/debs" && apt-get -qq "${apt_opts[@]}" download "${packages[@]}" 2>&1 | grep -v unsandboxed || true)
for deb in "$WORK"/debs/*.deb; do dpkg-deb -x "$deb" "$WORK/x"; done
echo "demo: $(cd "$WORK/debs" && ls)"

# ---- the layout ----------------------------------------------------------------------------------
read -r disk_id < <(sfdisk --disk-id "$CARD")
geometry() { sfdisk -d "$CARD" | sed -n "s/^.*[^0-9]$1 : start= *\([0-9]*\), size= *\([0-9]*\),.*/\1 \2/p"; }
read -r p1 s1 < <(geometry 1)
read -r p2 s2 < <(geometry 2)
read -r p3 s3 < <(geometry 3)
read -r p4 s4 < <(geometry 4)
total=$((4 << 21)) # sectors: 4 GiB
b_start=$p3 b_size=$s2
ext_start=$((b_start + b_size))
state_start=$((ext_start + 2048))
lib_start=$((total - s4))
((state_start + s3 + 2048 <= lib_start)) || { echo "demo: no room for the layout" >&2; exit 1; }
rm -f "$OUT"
cp --sparse=always "$CARD" "$OUT"
truncate -s $((total * 512)) "$OUT"
copy() { dd if="$CARD" of="$OUT" bs=512 skip="$1" seek="$2" count="$3" conv=notrunc,sparse status=none; }
copy "$p4" "$lib_start" "$s4"
copy "$p3" "$state_start" "$s3"
copy "$p2" "$b_start" "$s2"
sfdisk --quiet --wipe never "$OUT" <<EOF
label: dos
label-id: $disk_id
unit: sectors
start=$p1, size=$s1, type=c, bootable
start=$p2, size=$s2, type=83
start=$b_start, size=$b_size, type=83
start=$ext_start, size=$((total - ext_start)), type=5
start=$state_start, size=$s3, type=83
start=$lib_start, size=$s4, type=83
EOF
sfdisk -d "$OUT" | sed -n '/start=/p'

# ---- the FAT: U-Boot, boot.scr, config.txt ----------------------------------------------------
fat() { MTOOLS_SKIP_CHECK=1 "$1" -i "$OUT@@$((p1 * 512))" "${@:2}"; }
fat mcopy -o "$WORK/x/usr/lib/u-boot/rpi_3/u-boot.bin" ::/u-boot-rpi3.bin
fat mcopy -o "$WORK/x/usr/lib/u-boot/rpi_4/u-boot.bin" ::/u-boot-rpi4.bin
fat mcopy -o "$WORK/x/usr/lib/u-boot/rpi_arm64/u-boot.bin" ::/u-boot.bin
mkimage -A arm64 -O linux -T script -C none -n "BabyAlbum A/B" -d "$HERE/boot.cmd" "$WORK/boot.scr" >/dev/null
fat mcopy -o "$WORK/boot.scr" ::/boot.scr
fat mtype ::/config.txt | tr -d '\r' >"$WORK/config.txt"
# The firmware loads U-Boot as the kernel (64-bit, arm_64bit=1 stays); no initramfs of its own:
# U-Boot loads the slot's. The trees stay (the firmware still picks and patches one for U-Boot).
sed -i -e 's/^kernel=.*/kernel=u-boot.bin/' -e '/^initramfs /d' "$WORK/config.txt"
fat mcopy -o "$WORK/config.txt" ::/config.txt
printf 'keep\n' >"$WORK/ab-demo.txt"
fat mcopy -o "$WORK/ab-demo.txt" ::/ab-demo.txt
mkdir -p "$WORK/dtbs/broadcom"
for dtb in $(fat mdir -b ::/ | sed -n 's|^::/\(bcm2[0-9]*-rpi-.*\.dtb\)$|\1|p'); do
    fat mcopy -o "::/$dtb" "$WORK/dtbs/broadcom/$dtb"
done
cmdline=$(fat mtype ::/cmdline.txt | tr -d '\r\n' | sed 's/root=[^ ]* //')

# ---- both roots ----------------------------------------------------------------------------------
mnt=$WORK/mnt
mkdir -p "$mnt"
for part in "$p2:A" "$b_start:B"; do
    loop=$(losetup -f --show -o $((${part%%:*} * 512)) --sizelimit $((s2 * 512)) "$OUT")
    mount "$loop" "$mnt"
    sed -i -e "s/^PARTUUID=\([0-9a-f]*\)-03 /PARTUUID=\1-05 /" -e "s/^PARTUUID=\([0-9a-f]*\)-04 /PARTUUID=\1-06 /" "$mnt/etc/fstab"
    mkdir -p "$mnt/boot/dtbs"
    cp -r "$WORK/dtbs/broadcom" "$mnt/boot/dtbs/"
    # The slot's command line; for QEMU only: the mini UART console, a long device wait, and no
    # BCM2835 watchdog (QEMU's raspi3b resets the board the moment a watchdog is started: its
    # bcm2835_powermgt resets on any RSTC write with the full-reset bit, it has no timer).
    printf 'ba_cmdline=%s console=ttyS1,115200 systemd.default_device_timeout_sec=600 modprobe.blacklist=bcm2835_wdt\n' \
        "$cmdline" >"$mnt/boot/cmdline.env"
    cp -a "$WORK/x/usr/bin/fw_printenv" "$WORK/x/usr/bin/fw_setenv" "$mnt/usr/bin/"
    cp -a "$WORK"/x/usr/lib/aarch64-linux-gnu/lib* "$mnt/usr/lib/aarch64-linux-gnu/"
    cp "$HERE/fw_env.config" "$mnt/etc/fw_env.config"
    install -m 755 "$HERE/ab-demo.sh" "$mnt/usr/local/sbin/ab-demo"
    cp "$HERE/ab-demo.service" "$mnt/etc/systemd/system/"
    mkdir -p "$mnt/etc/systemd/system/sysinit.target.wants"
    ln -sf ../ab-demo.service "$mnt/etc/systemd/system/sysinit.target.wants/ab-demo.service"
    echo "demo: root ${part#*:}: fstab $(grep -o 'PARTUUID=[0-9a-f]*-0[1-6]' "$mnt/etc/fstab" | tr '\n' ' ')"
    umount "$mnt"
    losetup -d "$loop"
done
echo "demo: $OUT ready ($(du -h "$OUT" | cut -f1) used); config.txt: $(grep -E '^(kernel|arm_64bit|initramfs)' "$WORK/config.txt" | tr '\n' ' ')"
