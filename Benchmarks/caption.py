"""The caption benchmark of run.py: what a caption adds to a photo at 1080p, in time (drawing it
into the decoded frame) and in peak resident memory of the whole process, each against the same
photos without a caption in the same run. Targets: <= 2 ms and <= 1 MB."""
import os

from measure import peak_rss_mb, run

SIZE = "1920x1080"
MAKE = """
import sys
from PIL import Image
e = Image.Exif()
e[0x8769] = {0x9003: "2025:05:12 10:30:00"}
for i in range(3):
    Image.effect_mandelbrot((3000, 2000), (-2 + i * 0.1, -1.2, 1, 1.2), 60).convert("RGB").save(
        sys.argv[1] + f"/dated-{i}.png", exif=e.tobytes())
"""


def benchmark(babyalbum, work, runs):
    photos = os.path.join(work, "caption-photos")
    os.makedirs(photos)
    run(["/usr/bin/python3", "-c", MAKE, photos])
    photo = os.path.join(photos, "dated-0.png")
    plain = [float(run([babyalbum + "-benchmark", "benchmark-decode", photo, "--size", SIZE, "--runs", str(runs)]).stdout)]
    _, paint_ms, prepare_plain, prepare_captioned = (float(v) for v in run(
        [babyalbum + "-benchmark", "benchmark-decode", photo, "--size", SIZE, "--runs", str(runs), "--caption", "age+date"]).stdout.split())
    memory = {}
    os.environ["BABYALBUM_TEST_FAST_INTERVAL"] = "1"  # intervals below 1 s are for tests only
    for style in ("none", "age+date"):
        memory[style] = sorted(peak_rss_mb(
            [babyalbum, "--photos", photos, "--output", "memory", "--size", SIZE, "--count", "3", "--interval", "0.2",
             "--transition", "none", "--state-dir", "none", "--sticks", "none", "--settings", "/nonexistent",
             "--caption", style, "--name", "Mia", "--birthday", "2024-03-10"]) for _ in range(runs))[runs // 2]
    lines = [
        "\n| caption at 1920x1080 (6 MP PNG, median of %d) | ms |" % runs,
        "|---|---:|",
        f"| decode + scale, no caption | {plain[0]:.2f} |",
        f"| drawing the caption 'Mia, 1 year, 2 months  ·  12 May 2025' | {paint_ms:.2f} |",
        f"| the slideshow's preparer (open, decode, scale), no caption | {prepare_plain:.2f} |",
        f"| the slideshow's preparer with the caption | {prepare_captioned:.2f} |",
        f"\ncaption time: {paint_ms:.2f} ms a photo drawn alone, {prepare_captioned - prepare_plain:+.2f} ms in the "
        f"preparer's medians (target <= 2 ms); {100 * paint_ms / plain[0]:.1f} % of the decode",
        f"peak RSS, 3 photos: {memory['none']:.1f} MB without captions, {memory['age+date']:.1f} MB with: "
        f"+{memory['age+date'] - memory['none']:.2f} MB (target <= 1 MB)",
    ]
    return "\n".join(lines)
