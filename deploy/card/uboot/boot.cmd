# BabyAlbum's U-Boot boot script (issue 64): two system slots with boot counters.
# Compiled to boot.scr on the card's FAT:  mkimage -A arm64 -O linux -T script -C none -d boot.cmd boot.scr
# U-Boot (Debian's u-boot-rpi: rpi_3, rpi_4, rpi_arm64) finds boot.scr on mmc 0:1 by its default
# boot command, also when its environment (uboot.env on the FAT) is missing or damaged.
#
# The slots' state uses the names of RAUC's `uboot` backend (docs/updates.md):
#   BOOT_ORDER   the slots' bootnames in the order they are tried, "A B" or "B A"; RAUC puts a
#                freshly written slot first and removes a slot it marks bad
#   BOOT_A_LEFT  the tries slot A has left, BOOT_B_LEFT the same for B; hexadecimal digits, as
#                RAUC writes them (printf "%x") and as setexpr computes them
#   BA_TRIAL     the slot an update was just installed into, until it shows a photo (kept here,
#                set and cleared by Linux: deploy/card/update-check, slot-good, slot-trial)
# Each boot takes one try from the slot it boots; the booted system gives the tries back
# (`rauc status mark-good`, fw_setenv) once it has shown a photo. A slot with no tries left is
# skipped; with none left anywhere, every slot gets 3 again (never a card that stops in U-Boot).
#
# They live in a file of their own on the FAT (partition 1 of the device this script was read
# from), babyalbum-slots.env, and its copy babyalbum-slots.bak, each written whole with its CRC
# (`env export -c`, the format of libubootenv's fw_printenv and fw_setenv, /etc/fw_env.config):
# never in U-Boot's own environment, whose place is the board's build's (the Pi's: one uboot.env on
# the FAT, no second copy; QEMU virt's: flash), so a power cut while one file is written leaves the
# other, and the same script runs on the Pi and on QEMU's virt board.
# Slot A is partition 2, slot B partition 3, of the device this script was read from (bootstd and
# distro boot set devtype and devnum). Each slot's boot files are in its own root file system,
# written with it by an update: /vmlinuz and /initrd.img (Debian's links to the kernel and
# initramfs in /boot), the device tree /boot/dtbs/${fdtfile} (the card's patched tree: exit
# button, clock bus), and the kernel command line /boot/cmdline.env ("ba_cmdline=...").

# From the next boot on (U-Boot's own environment, saved once): never wait for a key (a floating
# serial RX line must not stop the frame in U-Boot), and no USB scan before the script.
if test "${bootdelay}" != "-2"; then
  setenv bootdelay -2
  setenv preboot
  saveenv
fi

test -n "${devtype}" || setenv devtype mmc
test -n "${devnum}" || setenv devnum 0

# Addresses of our own, not the rpi defaults (kernel_addr_r=0x80000, fdt_addr_r=0x2600000,
# ramdisk_addr_r=0x2700000): Debian's arm64 Image is uncompressed, 37 MiB with its bss in 6.12,
# and would overwrite a tree or initramfs loaded at the defaults. QEMU's virt (RAM from 1 GiB):
# its own kernel and ramdisk addresses, 60 MiB apart, the tree just below the ramdisk.
if test "${board}" = "rpi"; then
  setenv ba_kernel 0x00200000
  setenv ba_fdt 0x04000000
  setenv ba_initrd 0x04200000
  setenv ba_text 0x03f00000
else
  setenv ba_kernel ${kernel_addr_r}
  setenv ba_initrd ${ramdisk_addr_r}
  setexpr ba_fdt ${ramdisk_addr_r} - 0x100000
  setexpr ba_text ${scriptaddr} + 0x100000
fi

# The slots' state: the file, else its copy (a cut while the file was written), else a new card's.
setenv BOOT_ORDER
setenv BOOT_A_LEFT
setenv BOOT_B_LEFT
setenv BA_TRIAL
setenv ba_from
for f in babyalbum-slots.env babyalbum-slots.bak; do
  if test -z "${ba_from}" && load ${devtype} ${devnum}:1 ${ba_text} ${f} && env import -c ${ba_text} 0x4000 BOOT_ORDER BOOT_A_LEFT BOOT_B_LEFT BA_TRIAL; then
    setenv ba_from ${f}
  fi
done
test -n "${ba_from}" || setenv ba_from "nothing: a new card"
test -n "${BOOT_ORDER}" || setenv BOOT_ORDER "A B"
test -n "${BOOT_A_LEFT}" || setenv BOOT_A_LEFT 3
test -n "${BOOT_B_LEFT}" || setenv BOOT_B_LEFT 3

# (No empty branch and no elif here: U-Boot 2023.01's hush took the first slot in BOOT_ORDER
# whatever its tries with the prototype's "if chosen; then (comment) elif ...".)
setenv ba_slot
for s in ${BOOT_ORDER}; do
  if test -z "${ba_slot}"; then
    if test "${s}" = "A" && test 0x${BOOT_A_LEFT} -gt 0; then setenv ba_slot A; fi
    if test "${s}" = "B" && test 0x${BOOT_B_LEFT} -gt 0; then setenv ba_slot B; fi
  fi
done
if test -z "${ba_slot}"; then
  echo "babyalbum: no slot in BOOT_ORDER (${BOOT_ORDER}) has tries left: every slot gets 3 again"
  setenv BOOT_A_LEFT 3
  setenv BOOT_B_LEFT 3
  for s in ${BOOT_ORDER} A; do
    if test -z "${ba_slot}"; then
      if test "${s}" = "A" || test "${s}" = "B"; then setenv ba_slot ${s}; fi
    fi
  done
fi

if test "${ba_slot}" = "A"; then
  setexpr BOOT_A_LEFT ${BOOT_A_LEFT} - 1
  setenv ba_part 2
  setenv ba_left ${BOOT_A_LEFT}
else
  setexpr BOOT_B_LEFT ${BOOT_B_LEFT} - 1
  setenv ba_part 3
  setenv ba_left ${BOOT_B_LEFT}
fi
echo "babyalbum: slot ${ba_slot} (${devtype} ${devnum}:${ba_part}), BOOT_ORDER=${BOOT_ORDER}, ${ba_left} tries left after this one (read from ${ba_from})"
# The try is counted before anything is loaded: a slot that hangs or resets still loses it. The
# file, then its copy: a cut during either write leaves the other whole.
env export -c -s 0x4000 ${ba_text} BOOT_ORDER BOOT_A_LEFT BOOT_B_LEFT BA_TRIAL
fatwrite ${devtype} ${devnum}:1 ${ba_text} babyalbum-slots.env 0x4000
fatwrite ${devtype} ${devnum}:1 ${ba_text} babyalbum-slots.bak 0x4000

setenv ba_cmdline "console=tty3 ro fsck.repair=yes net.ifnames=0 cma=128M rootwait consoleblank=0 vt.global_cursor_default=0 quiet loglevel=3 logo.nologo fbcon=font:TER16x32"
if load ${devtype} ${devnum}:${ba_part} ${ba_text} /boot/cmdline.env; then
  env import -t ${ba_text} ${filesize} ba_cmdline
fi
part uuid ${devtype} ${devnum}:${ba_part} ba_partuuid
setenv bootargs "root=PARTUUID=${ba_partuuid} rauc.slot=${ba_slot} panic=10 ${ba_cmdline}"

# The slot's tree, else the firmware's (moved, as the Pi's is small), else the one U-Boot runs on
# (QEMU's virt: no fdtfile, and a 1 MiB tree at fdt_addr). No comments inside an if or for: U-Boot
# 2023.01's hush reads a quote in them as a quote ("syntax error", the script's end), nor in a
# quoted echo inside one (an apostrophe in "..." ended the script the same way); and no elif
# (with && in it, 2023.01 took the wrong branch or stopped at a syntax error).
setenv ba_ok
if load ${devtype} ${devnum}:${ba_part} ${ba_kernel} /vmlinuz; then
  setenv ba_kernel_size ${filesize}
  if load ${devtype} ${devnum}:${ba_part} ${ba_initrd} /initrd.img; then
    setenv ba_initrd_size ${filesize}
    if load ${devtype} ${devnum}:${ba_part} ${ba_fdt} /boot/dtbs/${fdtfile}; then
      setenv ba_ok 1
    fi
    if test -z "${ba_ok}" && test -n "${fdt_addr}" && fdt addr ${fdt_addr} && fdt move ${fdt_addr} ${ba_fdt} 0x10000; then
      echo "babyalbum: slot ${ba_slot} has no /boot/dtbs/${fdtfile}, so the tree from the firmware"
      setenv ba_ok 1
    fi
    if test -z "${ba_ok}"; then
      echo "babyalbum: slot ${ba_slot} has no /boot/dtbs/${fdtfile}, so the tree U-Boot runs on (the board)"
      setenv ba_fdt ${fdtcontroladdr}
      setenv ba_ok 1
    fi
  fi
fi
# The kernel and initramfs must be the bytes the slot was built with: /boot/boot-files.crc32
# holds their CRC32s twice, big-endian (kernel, initramfs) then little-endian (the same), as
# U-Boot's crc32 stores a sum at an address: 2023.01 (bookworm; u-boot-qemu) writes its 4 bytes
# big-endian, 2025.01's rpi_arm64 (trixie) a native 8-byte word; each sum gets 16 bytes here. A
# file damaged on the card is refused, so the other slot boots: Linux with a broken initramfs
# panics, and a Pi has no way to restart then (its watchdog driver is a module; docs/updates.md).
# A slot without the file (built before 2026-12-07) boots unchecked.
setexpr ba_sums ${ba_text} + 0x8000
setexpr ba_sums_initrd ${ba_text} + 0x8004
setexpr ba_sums_le ${ba_text} + 0x8008
setexpr ba_sums_initrd_le ${ba_text} + 0x800c
setexpr ba_seen ${ba_text} + 0x8020
setexpr ba_seen_initrd ${ba_text} + 0x8030
setenv ba_as_built
if test -n "${ba_ok}" && load ${devtype} ${devnum}:${ba_part} ${ba_sums} /boot/boot-files.crc32; then
  crc32 ${ba_kernel} ${ba_kernel_size} ${ba_seen}
  crc32 ${ba_initrd} ${ba_initrd_size} ${ba_seen_initrd}
  if cmp.b ${ba_sums} ${ba_seen} 4 && cmp.b ${ba_sums_initrd} ${ba_seen_initrd} 4; then
    setenv ba_as_built 1
  fi
  if cmp.b ${ba_sums_le} ${ba_seen} 4 && cmp.b ${ba_sums_initrd_le} ${ba_seen_initrd} 4; then
    setenv ba_as_built 1
  fi
  if test -n "${ba_as_built}"; then
    echo "babyalbum: slot ${ba_slot}: its kernel and initramfs are as built"
  else
    echo "babyalbum: slot ${ba_slot}: its kernel or initramfs is damaged (not the CRC32 it was built with)"
    setenv ba_ok
  fi
fi
if test -n "${ba_ok}"; then
  echo "babyalbum: booting slot ${ba_slot}: ${bootargs}"
  booti ${ba_kernel} ${ba_initrd}:${ba_initrd_size} ${ba_fdt}
fi

# Still here: the slot's files are missing or damaged, or booti refused them. The slot gets no
# more tries; a reset runs this script again and it boots the other slot.
echo "babyalbum: slot ${ba_slot} cannot be booted: marked with no tries left, resetting"
if test "${ba_slot}" = "A"; then setenv BOOT_A_LEFT 0; else setenv BOOT_B_LEFT 0; fi
env export -c -s 0x4000 ${ba_text} BOOT_ORDER BOOT_A_LEFT BOOT_B_LEFT BA_TRIAL
fatwrite ${devtype} ${devnum}:1 ${ba_text} babyalbum-slots.env 0x4000
fatwrite ${devtype} ${devnum}:1 ${ba_text} babyalbum-slots.bak 0x4000
reset
