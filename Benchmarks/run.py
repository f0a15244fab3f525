"""BabyAlbum's benchmarks. Run through scripts/bench, which builds what it needs.

usage: run.py BABYALBUM [--decoder BABYALBUM_DECODER] [--runs N] [--idle-seconds S] [--jpeg-only] [--heif-only] [--caption-only] [--memory-only] [--colour-only]
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

import caption
import colour
import heif
import jpeg
import memory as memory_table
from measure import compare, peak_rss_mb, run

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
SIZE = "1920x1080"


def make_photos(work):
    """A photo-like 12 MP RGB PNG (ImageMagick plasma, 8 bits) and a 48 MP one made from it."""
    twelve = os.path.join(work, "12mp", "photo-12mp.png")
    forty_eight = os.path.join(work, "48mp", "photo-48mp.png")
    for path in (twelve, forty_eight):
        os.makedirs(os.path.dirname(path))
    run(["convert", "-seed", "7", "-size", "4000x3000", "plasma:fractal", "-blur", "0x2", "-depth", "8",
         "-define", "png:color-type=2", twelve])
    run(["convert", twelve, "-resize", "200%", "-depth", "8", "-define", "png:color-type=2", forty_eight])
    return twelve, forty_eight


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("babyalbum")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--idle-seconds", type=int, default=60)
    parser.add_argument("--jpeg-only", action="store_true", help="only the JPEG benchmarks")
    parser.add_argument("--heif-only", action="store_true", help="only the HEIC and decode-sandbox benchmarks")
    parser.add_argument("--decoder", help="the babyalbum-decoder C program (worker start-up comparison)")
    parser.add_argument("--caption-only", action="store_true", help="only the caption benchmark")
    parser.add_argument("--memory-only", action="store_true", help="only the memory table")
    parser.add_argument("--colour-only", action="store_true", help="only the colour-management benchmark")
    args = parser.parse_args()
    babyalbum = os.path.abspath(args.babyalbum)
    work = tempfile.mkdtemp(prefix="babyalbum-bench-")
    try:
        colour_report = colour.benchmark(babyalbum, work, args.runs)
        if args.colour_only:
            print(colour_report)
            return
        memory_report = memory_table.benchmark(babyalbum, work)
        if args.memory_only:
            print(memory_report)
            return
        decoder = os.path.abspath(args.decoder) if args.decoder else os.path.join(os.path.dirname(babyalbum),
                                                                                   "babyalbum-decoder")
        if args.heif_only:
            print(heif.benchmark(babyalbum, decoder, work, args.runs))
            return
        caption_report = caption.benchmark(babyalbum, work, args.runs)
        if args.caption_only:
            print(caption_report)
            return
        jpeg_report = jpeg.benchmark(babyalbum, work, args.runs)
        if args.jpeg_only:
            print(jpeg_report)
            return
        heif_report = heif.benchmark(babyalbum, decoder, work, args.runs)
        baseline = os.path.join(work, "libpng-simplified")
        run(["cc", "-O2", "-o", baseline, os.path.join(HERE, "libpng-simplified.c")]
            + run(["pkg-config", "--cflags", "--libs", "libpng"]).stdout.split())
        print("generating photos ...", file=sys.stderr)
        twelve, forty_eight = make_photos(work)

        print("decode and scale ...", file=sys.stderr)
        # Whole processes, interleaved, median of the runs: the same measure for every row.
        decode = {name: ms for name, (ms, _) in compare({
            "babyalbum (decode + scale to 1920x1080 fill)":
                [babyalbum + "-benchmark", "benchmark-decode", twelve, "--size", SIZE, "--runs", "1"],
            "libpng simplified API (decode only, -O2)": [baseline, twelve, "1"],
            "Pillow ImageOps.fit": ["/usr/bin/python3", os.path.join(HERE, "pillow-fit.py"), twelve, SIZE, "1"],
            "ImageMagick convert -resize ^ -extent":
                ["convert", twelve, "-resize", SIZE + "^", "-gravity", "center", "-extent", SIZE, "null:"],
        }, args.runs).items()}

        print("peak memory ...", file=sys.stderr)
        memory = {}
        for label, photo in (("12 MP", twelve), ("48 MP", forty_eight)):
            out = os.path.join(work, "frames-" + label.replace(" ", ""))
            memory[label] = {
                "babyalbum (whole process, --output png:)": peak_rss_mb(
                    [babyalbum, "--photos", os.path.dirname(photo), "--output", "png:" + out, "--size", SIZE,
                     "--count", "1"]),
                "libpng simplified API": peak_rss_mb([baseline, photo, "1"]),
                "Pillow ImageOps.fit": peak_rss_mb(["/usr/bin/python3", os.path.join(HERE, "pillow-fit.py"), photo, SIZE, "1"]),
                "ImageMagick convert": peak_rss_mb(
                    ["convert", photo, "-resize", SIZE + "^", "-gravity", "center", "-extent", SIZE, "null:"]),
            }

        print("tick to presented ...", file=sys.stderr)
        latency = subprocess.run(
            [babyalbum, "--photos", os.path.join(REPO, "Photos"), "--output", "memory", "--size", SIZE,
             "--interval", "0.25", "--count", "120", "--statistics"], capture_output=True, text=True, check=True,
            env={**os.environ, "BABYALBUM_TEST_FAST_INTERVAL": "1"}).stderr  # below 1 s is for tests only
        latency_line = re.search(r"tick to presented: .*", latency).group(0)

        print(f"idle CPU over {args.idle_seconds} s ...", file=sys.stderr)
        idle = subprocess.Popen([babyalbum, "--photos", os.path.join(REPO, "Photos"), "--output", "memory",
                                 "--size", SIZE], stderr=subprocess.DEVNULL)
        time.sleep(5)
        ticks_per_second = os.sysconf("SC_CLK_TCK")

        def cpu_seconds():
            fields = open(f"/proc/{idle.pid}/stat").read().rsplit(")", 1)[1].split()
            return (int(fields[11]) + int(fields[12])) / ticks_per_second

        start_cpu, start = cpu_seconds(), time.monotonic()
        time.sleep(args.idle_seconds)
        used, elapsed = cpu_seconds() - start_cpu, time.monotonic() - start
        idle.terminate()
        idle.wait()

        # The same with no tick due: what the process costs between ticks, when it only waits.
        between_seconds = max(10, args.idle_seconds // 3)
        print(f"CPU between ticks over {between_seconds} s ...", file=sys.stderr)
        idle = subprocess.Popen([babyalbum, "--photos", os.path.join(REPO, "Photos"), "--output", "memory",
                                 "--size", SIZE, "--interval", "3600"], stderr=subprocess.DEVNULL)
        time.sleep(5)
        between_start_cpu, between_start = cpu_seconds(), time.monotonic()
        time.sleep(between_seconds)
        between_used, between_elapsed = cpu_seconds() - between_start_cpu, time.monotonic() - between_start
        idle.terminate()
        idle.wait()

        cpu_model = next((line.split(":", 1)[1].strip() for line in open("/proc/cpuinfo") if line.startswith("model name")), "?")
        print(f"\nMachine: {cpu_model}, {os.cpu_count()} cores; median of {args.runs} whole-process runs, "
              "interleaved\n")
        base = decode["libpng simplified API (decode only, -O2)"]
        print("| decode 12 MP RGB PNG -> 1920x1080 | ms | ratio to libpng decode |")
        print("|---|---:|---:|")
        for label, ms in decode.items():
            print(f"| {label} | {ms:.1f} | {ms / base:.2f}x |")
        ours = decode["babyalbum (decode + scale to 1920x1080 fill)"]
        print(f"\nPillow / babyalbum: {decode['Pillow ImageOps.fit'] / ours:.2f}x "
              f"(target >= 1.5x); babyalbum / libpng: {ours / base:.2f}x (target <= 1.10x)\n")
        print("| peak resident memory, MB | 12 MP | 48 MP | 48 MP ratio to babyalbum |")
        print("|---|---:|---:|---:|")
        for label in memory["12 MP"]:
            a, b = memory["12 MP"][label], memory["48 MP"][label]
            ratio = b / memory["48 MP"]["babyalbum (whole process, --output png:)"]
            print(f"| {label} | {a:.1f} | {b:.1f} | {ratio:.2f}x |")
        print(f"\n{latency_line} (interval 0.25 s, 120 photos, target p99 < 16 ms)")
        print(f"idle CPU: {used:.2f} s over {elapsed:.0f} s = {100 * used / elapsed:.3f} % (default 15 s interval, "
              "target < 0.1 %)")
        print(f"CPU between ticks: {between_used:.2f} s over {between_elapsed:.0f} s = "
              f"{100 * between_used / between_elapsed:.3f} % (no photo due: the process only waits)")
        print(jpeg_report)
        print(heif_report)
        print(caption_report)
        print(memory_report)
        print(colour_report)
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
