"""The memory table of run.py: the slideshow with its defaults (--scale auto --transition fade),
whole processes, peak (the kernel's ru_maxrss) and steady (VmRSS between photos), for every kind
of photo up to 48 MP, at 1920x1080 and 3840x2160; `--help` alone; 10 against 10,000 photos."""
import os
import sys

from measure import HEIF_FIXTURES, resident_over_run, run

GOALS = {"peak": 36.0, "steady": 28.0, "help": 6.0, "photos": 2.0}


def make_photos(work):
    """48 MP (8000x6000) photo-like images: baseline JPEG, PNG, Adam7 PNG and lossy WebP, and a
    12 MP progressive JPEG and a 12 MP grid HEIC; each in a folder of its own, twice (so the
    slideshow fades from one full-size photo to another)."""
    small, big = os.path.join(work, "m12.ppm"), os.path.join(work, "m48.ppm")
    run(["convert", "-seed", "11", "-size", "4000x3000", "plasma:fractal", "-blur", "0x2", "-depth", "8", small])
    run(["convert", small, "-resize", "200%", "-attenuate", "0.25", "+noise", "Gaussian", "-depth", "8", big])
    makers = {
        "48 MP baseline JPEG": ("jpg", lambda out: run(["sh", "-c", f"cjpeg -quality 90 -sample 2x2 {big} > {out}"])),
        "48 MP PNG": ("png", lambda out: run(["convert", big, "-define", "png:color-type=2", out])),
        "48 MP Adam7 PNG": ("png", lambda out: run(["convert", big, "-interlace", "PNG", "-define",
                                                    "png:color-type=2", out])),
        "48 MP lossy WebP": ("webp", lambda out: run(["cwebp", "-quiet", "-q", "85", big, "-o", out])),
        "12 MP progressive JPEG": ("jpg", lambda out: run(
            ["sh", "-c", f"cjpeg -quality 90 -sample 2x2 -progressive {small} > {out}"])),
        "12 MP grid HEIC": ("heic", lambda out: grid_heic(small, out)),
    }
    folders = {}
    for label, (extension, make) in makers.items():
        folder = os.path.join(work, "memory-" + label.replace(" ", "-"))
        os.makedirs(folder)
        first = os.path.join(folder, "IMG_0001." + extension)
        make(first)
        os.link(first, os.path.join(folder, "IMG_0002." + extension))
        folders[label] = folder
    os.remove(small)
    os.remove(big)
    return folders


def grid_heic(ppm, out):
    """An iPhone-style HEIC: 512x512 HEVC tiles under a grid (Tests/HEIF/heif_fixtures.py, heif-enc)."""
    png = out + ".png"
    run(["convert", ppm, "-define", "png:color-type=2", png])
    run(["/usr/bin/python3", HEIF_FIXTURES, "grid", png, out])
    os.remove(png)


def slideshow(babyalbum, folder, size, count=3):
    """The slideshow with its defaults into memory: three photos, 2 s apart (two fades)."""
    return [babyalbum, "--photos", folder, "--output", "memory", "--size", size, "--count", str(count),
            "--interval", "2"]


def many_photos(work, count):
    """A folder of `count` small distinct PNGs (hard links of one file, with names as long as a
    camera's in a dated folder)."""
    folder = os.path.join(work, f"photos-{count}")
    os.makedirs(folder)
    source = os.path.join(work, "tiny.png")
    if not os.path.exists(source):
        run(["convert", "-size", "64x48", "gradient:red-blue", source])
    for index in range(count):
        os.link(source, os.path.join(folder, f"2024-06-01 family holiday IMG_{index:05d}.png"))
    return folder


def benchmark(babyalbum, work):
    print("memory: generating photos ...", file=sys.stderr)
    folders = make_photos(work)
    rows = {}
    for label, folder in folders.items():
        print(f"memory: {label} ...", file=sys.stderr)
        rows[label] = [resident_over_run(slideshow(babyalbum, folder, size), settle_seconds=1.5)
                       for size in ("1920x1080", "3840x2160")]
    help_mb = resident_over_run([babyalbum, "--help"])[0]
    ten, many = many_photos(work, 10), many_photos(work, 10_000)
    list_mb = [resident_over_run(slideshow(babyalbum, folder, "1920x1080", count=1))[0] for folder in (ten, many)]
    return report(rows, help_mb, list_mb)


def report(rows, help_mb, list_mb):
    lines = ["\nMemory of the slideshow with its defaults (--scale auto --transition fade, --output memory), MB: "
             "the slideshow alone (peak: the kernel's ru_maxrss, the largest single process), and with its "
             "decode workers (the Pss of the slideshow and of every worker alive, summed, sampled every 20 ms)",
             "| photo (twice, two fades) | 1080p peak | 1080p steady | 1080p with workers: peak | steady "
             "| 4K peak | 4K steady | 4K with workers: peak | steady |",
             "|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
    misses = []
    for label, sizes in rows.items():
        cells = " | ".join(f"{figure:.1f}" for size in sizes for figure in size)
        lines.append(f"| {label} | {cells} |")
        peak, steady, with_peak, with_steady = sizes[0]
        if max(peak, with_peak) > GOALS["peak"] or with_steady > GOALS["steady"]:
            misses.append(f"{label} at 1080p: {max(peak, with_peak):.1f} MB peak, {with_steady:.1f} MB steady")
    extra = list_mb[1] - list_mb[0]
    lines += ["",
              f"--help alone: {help_mb:.1f} MB (goal <= {GOALS['help']:.0f} MB)",
              f"photo list: 10 photos {list_mb[0]:.1f} MB, 10,000 photos {list_mb[1]:.1f} MB: "
              f"{extra:+.1f} MB (goal <= {GOALS['photos']:.0f} MB over 10)",
              f"goals at 1080p, the slideshow and its workers together: peak <= {GOALS['peak']:.0f} MB, "
              f"steady <= {GOALS['steady']:.0f} MB; " + ("missed: " + "; ".join(misses) if misses else "all met")]
    if help_mb > GOALS["help"]:
        lines.append(f"missed: --help {help_mb:.1f} MB")
    if extra > GOALS["photos"]:
        lines.append(f"missed: 10,000 photos {extra:+.1f} MB over 10")
    return "\n".join(lines)
