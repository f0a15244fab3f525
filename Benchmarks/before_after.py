"""Whether BabyAlbum's JPEG and PNG ratios moved between two builds (the decode worker's "within
10 % of today's"), measured so that a shared machine's load does not decide it: both builds and
the reference decoder (djpeg at the same DCT scale, libpng's simplified API) run interleaved,
round after round, each a whole process timed by its CPU time (wait4's rusage, workers included);
each round gives new / old, and the median of the rounds is reported, with the wall-time median
beside it.

usage: before_after.py OLD_BABYALBUM NEW_BABYALBUM [--rounds N] [--sandboxed] [--new-sandboxed]
(--sandboxed: both decode in a worker; --new-sandboxed: only the new one, against an old build that
had no worker)."""
import argparse
import os
import statistics
import sys
import tempfile

import jpeg
from measure import cpu_run, run

HERE = os.path.dirname(os.path.abspath(__file__))
SIZE = "1920x1080"


def photos_and_references(work):
    """name -> (photo, the reference decoder's argv)."""
    photos = jpeg.make_photos(work)
    cases = {label: (path, ["djpeg", "-scale", jpeg.dct_scale(path), "-outfile", "/dev/null", path])
             for label, path in photos.items()}
    png = os.path.join(work, "photo-12mp.png")
    run(["convert", "-seed", "7", "-size", "4000x3000", "plasma:fractal", "-blur", "0x2", "-depth", "8",
         "-define", "png:color-type=2", png])
    libpng = os.path.join(work, "libpng-simplified")
    run(["cc", "-O2", "-o", libpng, os.path.join(HERE, "libpng-simplified.c")]
        + run(["pkg-config", "--cflags", "--libs", "libpng"]).stdout.split())
    cases["12 MP PNG"] = (png, [libpng, png, "1"])
    return cases


def one_case(old, new, photo, reference, rounds, options):
    """Rounds of old, new and the reference (the order turned each round); medians of the per-round
    ratios: (old / reference, new / reference, new / old) for CPU and for wall time. `options` are
    the old and the new build's extra arguments."""
    commands = {"old": [old + "-benchmark", "benchmark-decode", photo, "--size", SIZE, "--runs", "1", *options[0]],
                "new": [new + "-benchmark", "benchmark-decode", photo, "--size", SIZE, "--runs", "1", *options[1]],
                "reference": reference}
    names = list(commands)
    samples = {name: [] for name in names}
    for index in range(rounds):
        for name in names[index % 3:] + names[:index % 3]:
            samples[name].append(cpu_run(commands[name]))
    result = {}
    for kind, column in (("cpu", 1), ("wall", 0)):
        old_, new_, ref = ([s[column] for s in samples[name]] for name in names)
        result[kind] = (statistics.median(o / r for o, r in zip(old_, ref)),
                        statistics.median(n / r for n, r in zip(new_, ref)),
                        statistics.median(n / o for n, o in zip(new_, old_)))
    return result


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("old")
    parser.add_argument("new")
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--sandboxed", action="store_true", help="both decode in the worker (the slideshow's path)")
    parser.add_argument("--new-sandboxed", action="store_true", help="only the new build decodes in the worker")
    args = parser.parse_args()
    options = (["--sandboxed"] if args.sandboxed else [],
               ["--sandboxed"] if args.sandboxed or args.new_sandboxed else [])
    with tempfile.TemporaryDirectory(prefix="babyalbum-before-after-") as work:
        print("making photos ...", file=sys.stderr)
        cases = photos_and_references(work)
        where = " (decode worker)" if args.sandboxed else " (new: decode worker)" if args.new_sandboxed else ""
        lines = [f"| {args.rounds} interleaved rounds{where}, load "
                 f"{os.getloadavg()[0]:.1f} | CPU: old / ref | new / ref | new / old | wall: old / ref | new / ref "
                 "| new / old |", "|---|---:|---:|---:|---:|---:|---:|"]
        for label, (photo, reference) in cases.items():
            print(f"{label} ...", file=sys.stderr)
            r = one_case(os.path.abspath(args.old), os.path.abspath(args.new), photo, reference, args.rounds, options)
            cells = [f"{v:.3f}" for v in r["cpu"] + r["wall"]]
            lines.append(f"| {label} | " + " | ".join(cells) + " |")
        print("\n".join(lines))


if __name__ == "__main__":
    main()
