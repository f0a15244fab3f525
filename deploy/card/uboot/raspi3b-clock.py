#!/usr/bin/python3
"""QEMU's raspi3b on a card, its second UART's lines stamped with the seconds since QEMU started;
stops at the first line matching --until (or at --timeout). One QEMU at a time, single-threaded
TCG as Tests/Image/raspi3b.py runs it.

  raspi3b-clock.py --card IMG --dtb TREE --kernel u-boot.bin [--until RE] [--timeout S] [--log F]
  raspi3b-clock.py --card IMG --dtb TREE --kernel vmlinuz --initrd initrd --append CMDLINE ...

Prints "MATCH <seconds> <line>" for the --until line, and "FIRST <seconds> <line>" for the
first line matching --first (default: the kernel's "Booting Linux on physical CPU").
"""
import argparse
import os
import re
import select
import subprocess
import sys
import time

ap = argparse.ArgumentParser()
ap.add_argument("--card", required=True)
ap.add_argument("--dtb", required=True)
ap.add_argument("--kernel", required=True)
ap.add_argument("--initrd")
ap.add_argument("--append")
ap.add_argument("--until", default=r"AB-DEMO-END")
ap.add_argument("--first", default=r"Booting Linux on physical CPU")
ap.add_argument("--timeout", type=float, default=900)
ap.add_argument("--log")
ap.add_argument("--quiet", action="store_true", help="print only the marked lines")
args = ap.parse_args()

size = os.path.getsize(args.card)
if size & (size - 1):
    sys.exit(f"{args.card}: {size} bytes is not a power of two (QEMU's SD card needs one)")
cmd = ["qemu-system-aarch64", "-accel", "tcg,thread=single", "-M", "raspi3b", "-kernel", args.kernel,
       "-dtb", args.dtb, "-drive", f"if=sd,format=raw,file={args.card}", "-serial", "null", "-serial", "stdio",
       "-display", "none", "-monitor", "none"]
if args.initrd:
    cmd += ["-initrd", args.initrd]
if args.append:
    cmd += ["-append", args.append]
log = open(args.log, "w") if args.log else None
started = time.monotonic()
proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
until, first, seen_first, buf, status = re.compile(args.until), re.compile(args.first), False, b"", 1
try:
    while True:
        left = args.timeout - (time.monotonic() - started)
        if left <= 0:
            print(f"TIMEOUT {args.timeout:.0f} s")
            break
        ready, _, _ = select.select([proc.stdout], [], [], min(left, 1.0))
        if not ready:
            continue
        chunk = os.read(proc.stdout.fileno(), 65536)
        if not chunk:
            print("QEMU EXITED")
            break
        buf += chunk
        *lines, buf = re.split(rb"\r?\n|\r", buf)
        for raw in lines:
            line = raw.decode("utf-8", "replace").replace("\x1b", "^[")
            if not line.strip():
                continue
            t = time.monotonic() - started
            stamped = f"{t:7.2f} {line}"
            if log:
                log.write(stamped + "\n")
                log.flush()
            if not args.quiet:
                print(stamped, flush=True)
            if not seen_first and first.search(line):
                seen_first = True
                print(f"FIRST {t:.2f} {line}", flush=True)
            if until.search(line):
                print(f"MATCH {t:.2f} {line}", flush=True)
                status = 0
                raise StopIteration
except StopIteration:
    pass
finally:
    proc.kill()
    proc.wait()
sys.exit(status)
