"""The settings file through the real program (issue 61): every repro of settings_repros.py, then
seeded mutants of them until the time is up, each through `babyalbum network-setup`,
`babyalbum settings` and `babyalbum settings --json` (and, for the repros, `babyalbum doctor --json`
and `babyalbum update-policy`, which must answer `older-updates=no` for every one).
For each it checks what the README promises: no crash (no signal, no "Fatal error"), a bounded
time (under 10 s a command, also for a 64 KB file), the password never in any output or written
file but the supplicant's, the supplicant file 0600 and never an open network unless the file says
`wifi-password = none`; for the repros also the expected network. Ends with
"settings checks: N checks, M failures".

usage: settings_secrets.py BABYALBUM SCRATCH [--seconds S] [--seed N] [--min N]
"""
import argparse
import os
import random
import shutil
import stat
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from settings_repros import MARKER, write  # noqa: E402

BOUND_SECONDS = 10
HOSTILE = [b"\x00", b"\x0b", b"\x1b[2J", b"\r", b"\n", b"\r\n", b"\xe2\x80\xa8", b"\xff", b"\xef\xbb\xbf", b"=",
           b"#", b"\"", b"'", b":", b" ", b"\t", b"\x7f", b"wifi-password", b"wifi-password = ", b"none"]


def mutant(rng, content):
    data = bytearray(content)
    for _ in range(rng.randint(1, 8)):
        at = rng.randint(0, len(data))
        kind = rng.randrange(5)
        if kind == 0:
            data[at:at] = rng.choice(HOSTILE)
        elif kind == 1 and at < len(data):
            data[at] = rng.randrange(256)
        elif kind == 2 and at < len(data):
            del data[at]
        elif kind == 3:
            data[at:at] = bytes(rng.randrange(256) for _ in range(rng.randint(1, 16)))
        else:
            data[at:at] = rng.choice([b"\n", b"\r\n"]) + rng.choice(HOSTILE) + b" " + MARKER.encode()
    return bytes(data)


class Checker:
    def __init__(self, babyalbum, scratch):
        self.babyalbum, self.scratch = babyalbum, scratch
        self.photos = os.path.join(scratch, "photos")
        os.makedirs(self.photos, exist_ok=True)
        self.checks = self.failures = 0

    def run(self, arguments):
        started = time.monotonic()
        try:
            result = subprocess.run([self.babyalbum, *arguments], capture_output=True, timeout=BOUND_SECONDS * 3)
        except subprocess.TimeoutExpired:
            return None, b"", BOUND_SECONDS * 3
        return result.returncode, result.stdout + result.stderr, time.monotonic() - started

    def check(self, path, expected=None, doctor=False):
        out = os.path.join(self.scratch, "out")
        shutil.rmtree(out, ignore_errors=True)
        commands = [["network-setup", "--settings", path, "--out", out],
                    ["settings", "--settings", path, "--", "--photos", self.photos],
                    ["settings", "--json", "--settings", path, "--", "--photos", self.photos]]
        if doctor:
            commands.append(["doctor", "--json", "--quick", "--settings-file", path, "--config", "/nonexistent",
                             "--photos", self.photos])
            commands.append(["update-policy", "--settings", path])
        problems = []
        for command in commands:
            status, output, seconds = self.run(command)
            name = " ".join(command[:2])
            if status is None or status < 0 or b"Fatal error" in output:
                problems.append(f"{name}: crashed or hung (status {status})")
            if seconds > BOUND_SECONDS:
                problems.append(f"{name}: took {seconds:.1f} s")
            if MARKER.encode() in output:
                problems.append(f"{name}: the password is in its output")
            if command[0] != "doctor" and status not in (0, 1) and status is not None and status >= 0:
                problems.append(f"{name}: exit status {status}")
            # The card's update check reads one answer: a repro never allows an older bundle.
            if command[0] == "update-policy" and b"older-updates=no\nquiet-hours=" not in output:
                problems.append(f"{name}: no 'older-updates=no' then the quiet hours as its last lines")
        supplicant = os.path.join(out, "babyalbum", "wpa_supplicant-wlan0.conf")
        for folder, _, files in os.walk(out):
            for file in files:
                full = os.path.join(folder, file)
                if full != supplicant and MARKER.encode() in open(full, "rb").read():
                    problems.append(f"the password is in {os.path.relpath(full, out)}")
        text = open(supplicant).read() if os.path.exists(supplicant) else None
        if text is not None:
            if stat.S_IMODE(os.stat(supplicant).st_mode) != 0o600:
                problems.append("the supplicant file is not 0600")
            raw = open(path, "rb").read().replace(b"\x00", b"").lower()
            if "key_mgmt=NONE" in text and b"none" not in raw:
                problems.append("an open network although no line says wifi-password = none")
        if expected is not None:
            kind, holds = expected if isinstance(expected, tuple) else (expected, None)
            got = "no-wifi" if text is None else "open" if "key_mgmt=NONE" in text else "wpa"
            if got != kind:
                problems.append(f"expected {kind}, got {got}")
            if holds and (text is None or holds not in text):
                problems.append(f"the supplicant file lacks {holds!r}")
        self.checks += 1
        if problems:
            self.failures += 1
            print(f"settings checks: {os.path.basename(path)}: " + "; ".join(problems))
        return not problems


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("babyalbum")
    parser.add_argument("scratch")
    parser.add_argument("--seconds", type=float, default=15)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--min", type=int, default=100)
    args = parser.parse_args()
    checker = Checker(os.path.abspath(args.babyalbum), args.scratch)
    repros = write(os.path.join(args.scratch, "repros"))
    for path, expected in repros.items():
        checker.check(path, expected, doctor=True)
    print(f"settings checks: {len(repros)} repros of issue 61, {checker.failures} failures")
    rng = random.Random(args.seed)
    seeds = [open(path, "rb").read() for path in repros]
    deadline = time.monotonic() + args.seconds
    mutants = 0
    while time.monotonic() < deadline or mutants < args.min:
        path = os.path.join(args.scratch, "mutant.txt")
        with open(path, "wb") as f:
            f.write(mutant(rng, rng.choice(seeds)))
        if not checker.check(path):
            kept = os.path.join(args.scratch, f"failed-{mutants}.txt")
            shutil.copy(path, kept)
            print(f"settings checks: kept as {kept}")
        mutants += 1
    print(f"settings checks: {checker.checks} checks, {checker.failures} failures")
    return 0 if checker.failures == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
