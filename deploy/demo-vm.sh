#!/usr/bin/env bash
# A demo without a board: boots BabyAlbum in the QEMU virtual machine of the tests
# (Tests/VM/vmrig.py: the host's Debian kernel, the bochs DRM driver, a virtual keyboard) and
# saves what the virtual screen shows after each photo, then after SIGTERM (the console back).
#
#   deploy/demo-vm.sh [--out DIR] [--photos DIR] [--count N] [--interval SECONDS] [--seed N]
#
# Needs qemu-system-x86 linux-image-amd64 busybox-static cpio (scripts/install-deps) and a
# release build (swift build -c release: babyalbum and babyalbum-decoder; BABYALBUM_BIN picks another binary).
set -euo pipefail
REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
exec /usr/bin/python3 - "$REPO" "$@" <<'PYTHON'
import argparse
import hashlib
import os
import re
import shutil
import sys
import time

repo = sys.argv[1]
sys.path.insert(0, os.path.join(repo, "Tests", "VM"))
from vmrig import BABYALBUM_BIN, VM  # noqa: E402

parser = argparse.ArgumentParser(prog="deploy/demo-vm.sh", description=__doc__)
parser.add_argument("--out", default="demo-screens", help="folder for the screen images (default demo-screens)")
parser.add_argument("--photos", default=os.path.join(repo, "Photos"), help="photo folder (default Photos/)")
parser.add_argument("--count", type=int, default=3, help="photos to capture (default 3)")
parser.add_argument("--interval", default="6", help="seconds a photo (default 6: the VM emulates the CPU)")
parser.add_argument("--seed", default="1", help="photo order seed (default 1)")
args = parser.parse_args(sys.argv[2:])

if not os.access(BABYALBUM_BIN, os.X_OK):
    sys.exit(f"{BABYALBUM_BIN} is not built: swift build -c release: babyalbum and babyalbum-decoder")
out = os.path.abspath(args.out)
os.makedirs(out, exist_ok=True)
photos = os.path.abspath(args.photos)


def digest(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def settled_screen(vm, path, previous, timeout=30):
    """Screen dumps until two in a row are equal and differ from `previous`; returns the digest."""
    scratch = os.path.join(vm.out, "screen.png")
    deadline = time.monotonic() + timeout
    last = None
    while time.monotonic() < deadline:
        vm.screendump(scratch)
        now = digest(scratch)
        if now == last and now != previous:
            shutil.copy(scratch, path)
            return now
        last = now
        time.sleep(0.3)
    raise SystemExit(f"the screen did not settle on a new picture within {timeout} s")


print(f"booting the virtual machine (about 5 s) and starting {BABYALBUM_BIN} ...", flush=True)
with VM(vga="std") as vm:
    before = os.path.join(out, "screen-00-console.png")
    vm.screendump(before)
    previous = digest(before)
    app = vm.spawn(f"{BABYALBUM_BIN} --photos {photos} --interval {args.interval} --seed {args.seed}")
    for n in range(1, args.count + 1):
        app.wait_for_log(r"(showing \S+[\s\S]*){%d}" % n, timeout=120)
        path = os.path.join(out, f"screen-{n:02d}.png")
        previous = settled_screen(vm, path, previous)
        shown = re.findall(r"showing (\S+)", app.log())[n - 1]
        print(f"{path}: {os.path.basename(shown)}", flush=True)
    app.signal("TERM")
    status = app.wait(timeout=30)
    after = os.path.join(out, f"screen-{args.count + 1:02d}-after-exit.png")
    settled_screen(vm, after, previous)
    print(f"{after}: the console after SIGTERM (exit status {status})")
print(f"saved in {out}")
PYTHON
