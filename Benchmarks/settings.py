"""The settings file's cost (issue 61): `babyalbum settings` on hostile 64 KB files against the same
command on a one-line file, whole processes, interleaved, in this run. The difference of the medians
is the parse's own cost; the goal is under 50 ms for any file up to the 64 KB limit.

usage: settings.py BABYALBUM [--runs N]
"""
import argparse
import os
import sys
import tempfile

from measure import compare

LIMIT = 64 * 1024 - 64


def fill(line_for, prefix=""):
    """`prefix`, then lines from line_for(n), up to just under the 64 KB limit."""
    lines, size, n = [prefix], len(prefix.encode()), 0
    while True:
        n += 1
        line = line_for(n) + "\n"
        if size + len(line.encode()) > LIMIT:
            return "".join(lines)
        lines.append(line)
        size += len(line.encode())


ONE_VALUE_KEYS = ["interval", "count", "output", "size", "mode", "scale", "transition", "fade", "seed",
                  "max-photo-megapixels", "exit-device", "exit-hold", "state-dir", "quiet-mode",
                  "quiet-hours-without-clock", "clock-notice", "time-zone", "time-servers", "wifi-name", "wifi-hidden",
                  "wifi-password", "wifi-country", "clock-module", "family-library-network", "name", "birthday",
                  "caption", "rotate", "sticks", "stick-photos", "statistics"]

# Values that pass their option's type but not its range or the command's validate(): each
# needs a parse of the command to be refused.
TYPED_BUT_REFUSED = [("interval", "0"), ("count", "0"), ("size", "1x1"), ("mode", "1x1"), ("fade", "99"),
                     ("exit-hold", "0"), ("state-dir", "/nonexistent"), ("time-zone", "Nowhere/Else"),
                     ("time-servers", "host:123"), ("wifi-name", ""), ("wifi-password", "short"),
                     ("wifi-country", "XX"), ("birthday", "2020-13-45"), ("caption", "age"),
                     ("max-photo-megapixels", "0"), ("quiet-hours", "25:00-26:00"), ("name", "\u0007")]

# The shapes that cost most before: refused lines after accepted ones, and each kind of refusal.
SHAPES = {
    "accepted lines, then one refused (the round-4 worst case)":
        lambda: fill(lambda n: f"exit-key = KEY_{'ABCDEFGH'[n % 8]}")[:-200] + "\ninterval = oops\n",
    "every line a refused value of a repeatable key":
        lambda: fill(lambda n: f"exit-key = KEY_NOPE{n}"),
    "every line a key that is no setting":
        lambda: fill(lambda n: f"nosuch-{n} = 1"),
    "every line not key = value (a password on its own line)":
        lambda: fill(lambda n: f"hunter{n:06d}"),
    "every one-value key once, each with a refused value, then padding comments":
        lambda: fill(lambda n: "# padding", prefix="".join(f"{key} = x!x\n" for key in ONE_VALUE_KEYS)),
    "every one-value key once, each with a value its type takes and its checks refuse, then padding comments":
        lambda: fill(lambda n: "# padding", prefix="".join(f"{key} = {value}\n" for key, value in TYPED_BUT_REFUSED)),
    "one-value keys set again and again, the last refused":
        lambda: fill(lambda n: f"interval = {n % 100 + 1}")[:-200] + "\ninterval = abc\n",
}


def benchmark(babyalbum, work, runs):
    photos = os.path.join(work, "settings-photos")
    os.makedirs(photos, exist_ok=True)
    baseline = os.path.join(work, "one-line.txt")
    with open(baseline, "w") as f:
        f.write("interval = 20\n")
    commands = {"one line (baseline)": [babyalbum, "settings", "--settings", baseline, "--", "--photos", photos]}
    for index, (name, make) in enumerate(SHAPES.items()):
        path = os.path.join(work, f"hostile-{index}.txt")
        with open(path, "w") as f:
            f.write(make())
        size = os.path.getsize(path)
        if size > 64 * 1024:
            sys.exit(f"{name}: {size} bytes, over the 64 KB a settings file may have (it would not be parsed)")
        lines = sum(1 for _ in open(path))
        commands[f"{name} ({size // 1024} KB, {lines} lines)"] = [
            babyalbum, "settings", "--settings", path, "--", "--photos", photos]
    results = compare(commands, runs)
    base = results["one line (baseline)"][0]
    rows = ["| settings file | median ms | ratio to one line | parse cost ms |", "|---|---:|---:|---:|"]
    for name, (ms, _) in results.items():
        rows.append(f"| {name} | {ms:.1f} | {ms / base:.2f}x | {ms - base:+.1f} |")
    return "\n".join(rows)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("babyalbum")
    parser.add_argument("--runs", type=int, default=9)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="babyalbum-settings-bench-") as work:
        print(benchmark(os.path.abspath(args.babyalbum), work, args.runs))


if __name__ == "__main__":
    sys.exit(main())
