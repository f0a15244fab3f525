"""The JPEG benchmarks of run.py: BabyAlbum against djpeg, Pillow and ImageMagick, all measured
in the same run, with time and peak resident memory of whole processes."""
import os
import subprocess
import sys

from measure import compare, peak_rss_mb, run

HERE = os.path.dirname(os.path.abspath(__file__))
SIZE = "1920x1080"
CONVERT = "/usr/bin/convert"  # ImageMagick itself, not a stand-in earlier in PATH


def make_photos(work):
    """Photo-like JPEGs: ImageMagick plasma with mild noise (about 2.4 MB for 12 MP at quality 90,
    like a phone's), 4:2:0, baseline and progressive, and a 48 MP baseline one."""
    twelve_ppm, forty_eight_ppm = os.path.join(work, "12mp.ppm"), os.path.join(work, "48mp.ppm")
    run(["convert", "-seed", "7", "-size", "4032x3024", "plasma:fractal", "-blur", "0x2",
         "-attenuate", "0.25", "+noise", "Gaussian", "-depth", "8", twelve_ppm])
    run(["convert", twelve_ppm, "-resize", "200%", "-attenuate", "0.25", "+noise", "Gaussian", "-depth", "8",
         forty_eight_ppm])
    photos = {}
    for label, source, options in (("12 MP baseline", twelve_ppm, []),
                                   ("12 MP progressive", twelve_ppm, ["-progressive"]),
                                   ("48 MP baseline", forty_eight_ppm, [])):
        path = os.path.join(work, label.replace(" ", "-") + ".jpg")
        with open(path, "wb") as out:
            subprocess.run(["cjpeg", "-quality", "90", "-sample", "2x2", *options, source], stdout=out, check=True)
        photos[label] = path
    for ppm in (twelve_ppm, forty_eight_ppm):
        os.remove(ppm)
    return photos


def dct_scale(path):
    """The scale BabyAlbum and Pillow's draft() pick for a 1920x1080 fill: the largest 1/2^k
    whose output still covers the frame."""
    width, height = (int(v) for v in run(["identify", "-format", "%w %h", path]).stdout.split())
    crop_w, crop_h = min(width, height * 16 // 9), min(height, width * 9 // 16)
    scale = 1
    while scale < 8 and crop_w // (scale * 2) >= 1920 and crop_h // (scale * 2) >= 1080:
        scale *= 2
    return f"1/{scale}"


def commands(babyalbum, path):
    pillow = os.path.join(HERE, "pillow-jpeg-fit.py")
    fill = ["-resize", SIZE + "^", "-gravity", "center", "-extent", SIZE, "null:"]
    return {
        "babyalbum (decode + scale to 1920x1080 fill)": [babyalbum + "-benchmark", "benchmark-decode", path, "--size", SIZE, "--runs", "1"],
        f"djpeg -scale {dct_scale(path)} (decode only)": ["djpeg", "-scale", dct_scale(path), "-outfile", "/dev/null", path],
        "djpeg full size (decode only)": ["djpeg", "-outfile", "/dev/null", path],
        "Pillow draft() + ImageOps.fit": ["/usr/bin/python3", pillow, path, SIZE, "1", "draft"],
        "Pillow ImageOps.fit (no draft)": ["/usr/bin/python3", pillow, path, SIZE, "1", "nodraft"],
        "ImageMagick convert -resize ^ -extent": [CONVERT, path, *fill],
    }


SLIDESHOW = "babyalbum slideshow (--output png:, --count 1)"


def slideshow(babyalbum, work, label, path):
    """The whole frame showing the photo once, named as a camera names it, written as a PNG frame."""
    folder = os.path.join(work, "slideshow-" + label.replace(" ", "-"))
    os.makedirs(folder)
    os.link(path, os.path.join(folder, "IMG_0001.JPG"))
    return [babyalbum, "--photos", folder, "--output", "png:" + folder + "-frames", "--size", SIZE, "--count", "1"]


def benchmark(babyalbum, work, runs):
    print("JPEG: generating photos ...", file=sys.stderr)
    photos = make_photos(work)
    times, memory = {}, {}
    for label, path in photos.items():
        print(f"JPEG: {label} ...", file=sys.stderr)
        named = {}
        for name, command in commands(babyalbum, path).items():
            key = name.split(" -scale")[0] + " -scale (same DCT scale)" if name.startswith("djpeg -scale") else name
            named[key] = command
        # Every command of a photo runs interleaved with the others, each run timed and measured.
        for key, (ms, mb) in compare(named, runs).items():
            times.setdefault(key, {})[label] = ms
            memory.setdefault(key, {})[label] = mb
        memory.setdefault(SLIDESHOW, {})[label] = peak_rss_mb(slideshow(babyalbum, work, label, path))
    sizes = {label: os.path.getsize(path) / 1e6 for label, path in photos.items()}
    return report(photos, sizes, times, memory, runs)


def report(photos, sizes, times, memory, runs):
    labels = list(photos)
    ours = "babyalbum (decode + scale to 1920x1080 fill)"
    lines = [f"\nJPEG to a 1920x1080 fill, whole processes, median of {runs} runs "
             f"(files: {', '.join(f'{label} {sizes[label]:.1f} MB' for label in labels)})\n",
             "| time, ms (ratio to babyalbum) | " + " | ".join(labels) + " |",
             "|---|" + "---:|" * len(labels)]
    for name, row in times.items():
        cells = [f"{row[label]:.1f} ({row[label] / times[ours][label]:.2f}x)" for label in labels]
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    lines += ["", "| peak resident memory, MB | " + " | ".join(labels) + " |", "|---|" + "---:|" * len(labels)]
    for name, row in memory.items():
        lines.append(f"| {name} | " + " | ".join(f"{row[label]:.1f}" for label in labels) + " |")
    base = "12 MP baseline"
    djpeg = times["djpeg -scale (same DCT scale)"][base]
    full = min(times["djpeg full size (decode only)"][base], times["Pillow ImageOps.fit (no draft)"][base],
               times["ImageMagick convert -resize ^ -extent"][base])
    progressive = "12 MP progressive"
    lines += ["",
              f"12 MP progressive: babyalbum / djpeg -scale = "
              f"{times[ours][progressive] / times['djpeg -scale (same DCT scale)'][progressive]:.2f}x (target <= 1.15x)",
              f"12 MP baseline: babyalbum / djpeg -scale = {times[ours][base] / djpeg:.2f}x (target <= 1.15x); "
              f"Pillow draft+fit / babyalbum = {times['Pillow draft() + ImageOps.fit'][base] / times[ours][base]:.2f}x "
              f"(target >= 1.5x); fastest full-size decode / babyalbum = {full / times[ours][base]:.2f}x (target >= 3x)",
              f"peak memory of the slideshow: 48 MP baseline {memory[SLIDESHOW]['48 MP baseline']:.1f} MB "
              f"(target < 40 MB); 12 MP progressive {memory[SLIDESHOW]['12 MP progressive']:.1f} MB (target < 80 MB)"]
    return "\n".join(lines)
