"""The colour-management benchmark of run.py: a 12 MP JPEG tagged Display P3 against the same photo
without a profile, decoded and scaled to 1080p (in process and in the decode worker), in one run.
Target: <= 5 % (the transform runs on the 2 MP frame after scaling, not on the 12 MP photo)."""
import os
import subprocess

from measure import run

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
SIZE = "1920x1080"


def make_photos(work):
    """The P3 profile from the tests' fixture code (lcms2), and a photo-like 12 MP JPEG with and without it."""
    maker = os.path.join(work, "make-profile")
    fixtures = os.path.join(REPO, "Tests", "CColourFixtures")
    source = os.path.join(work, "make-profile.c")
    with open(source, "w") as out:
        out.write('#include "CColourFixtures.h"\n#include <stdio.h>\n'
                  "int main(void) { static uint8_t b[65536];\n"
                  "  size_t n = bacolour_fixture_profile(BACOLOUR_FIXTURE_DISPLAY_P3, b, sizeof b);\n"
                  "  return n && fwrite(b, 1, n, stdout) == n ? 0 : 1; }\n")
    run(["cc", "-O2", "-I", os.path.join(fixtures, "include"), source, os.path.join(fixtures, "fixtures.c"),
         "-o", maker, "-llcms2"])
    icc = os.path.join(work, "display-p3.icc")
    with open(icc, "wb") as out:
        subprocess.run([maker], stdout=out, check=True)
    ppm = os.path.join(work, "colour-12mp.ppm")
    run(["convert", "-seed", "11", "-size", "4032x3024", "plasma:fractal", "-blur", "0x2",
         "-attenuate", "0.25", "+noise", "Gaussian", "-depth", "8", ppm])
    photos = {}
    for label, options in (("untagged", []), ("Display P3", ["-icc", icc])):
        path = os.path.join(work, "colour-" + label.replace(" ", "-") + ".jpg")
        run(["cjpeg", "-quality", "90", "-sample", "2x2", *options, "-outfile", path, ppm])
        photos[label] = path
    os.remove(ppm)
    return photos


def median_ms(babyalbum, photo, runs, sandboxed):
    command = [babyalbum, "benchmark-decode", photo, "--size", SIZE, "--runs", str(runs)]
    return float(run(command + (["--sandboxed"] if sandboxed else [])).stdout.split()[0])


def benchmark(babyalbum, work, runs):
    photos = make_photos(work)
    lines = ["\n| colour management, 12 MP JPEG to 1920x1080 fill (median of %d) | untagged ms | Display P3 ms | ratio |"
             % runs, "|---|---|---|---|"]
    for where, sandboxed in (("in process", False), ("in the decode worker", True)):
        # Interleaved, three rounds, the best median of each: the CPU may be shared.
        plain, tagged = [], []
        for _ in range(3):
            plain.append(median_ms(babyalbum, photos["untagged"], runs, sandboxed))
            tagged.append(median_ms(babyalbum, photos["Display P3"], runs, sandboxed))
        lines.append(f"| {where} | {min(plain):.1f} | {min(tagged):.1f} | {min(tagged) / min(plain):.3f} |")
    return "\n".join(lines)
