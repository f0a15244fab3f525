"""The colour-management benchmark of run.py: a 12 MP JPEG tagged Display P3 against the same photo
without a profile, decoded and scaled to 1080p (in process and in the decode worker), in one run,
interleaved, as ratios per round (wall and CPU time) and their medians. Target: <= 5 % (the
transform runs on the 2 MP frame after scaling, not on the 12 MP photo)."""
import os
import subprocess

from measure import run

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
SIZE = "1920x1080"
# BABYALBUM_BENCH_FIFO=1 (as root): each process under SCHED_FIFO, so that other processes on a
# shared machine do not delay its wake-ups and its second thread (the wall times of a quiet machine).
REALTIME = ["chrt", "-f", "1"] if os.environ.get("BABYALBUM_BENCH_FIFO") == "1" else []


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


def decode_ms(babyalbum, photo, runs, sandboxed):
    """One process: the median wall ms of `runs` decodes, and the CPU ms per photo of the process and its
    workers (all threads; the process's start-up is shared out over the runs)."""
    command = [babyalbum + "-benchmark", "benchmark-decode", photo, "--size", SIZE, "--runs", str(runs)]
    result = run(REALTIME + command + (["--sandboxed"] if sandboxed else []))
    cpu = [line.split()[-1] for line in result.stderr.splitlines() if line.startswith("cpu ms per photo:")]
    return float(result.stdout.split()[0]), float(cpu[0])


def median(values):
    ordered = sorted(values)
    middle = len(ordered) // 2
    return ordered[middle] if len(ordered) % 2 else (ordered[middle - 1] + ordered[middle]) / 2


def paired_rounds(babyalbum, photos, runs, sandboxed, rounds):
    """Rounds of one untagged and one tagged process, their order swapped each round, so that a busy
    moment of the shared machine falls on both; a ratio per round, and the median of each."""
    plain, tagged = [], []
    for index in range(rounds):
        order = ("untagged", "Display P3") if index % 2 == 0 else ("Display P3", "untagged")
        measured = {label: decode_ms(babyalbum, photos[label], runs, sandboxed) for label in order}
        plain.append(measured["untagged"])
        tagged.append(measured["Display P3"])
    wall = median([t[0] / p[0] for p, t in zip(plain, tagged)])
    cpu = median([t[1] / p[1] for p, t in zip(plain, tagged)])
    return median([p[0] for p in plain]), median([t[0] for t in tagged]), wall, cpu


def benchmark(babyalbum, work, runs, rounds=9):
    photos = make_photos(work)
    load = os.getloadavg()[0]
    fifo = ", SCHED_FIFO" if REALTIME else ""
    lines = [f"\n| colour management, 12 MP JPEG to 1920x1080 fill ({rounds} interleaved rounds of {runs} decodes, "
             f"load {load:.1f}{fifo}) | untagged ms | Display P3 ms | wall ratio | CPU ratio |",
             "|---|---|---|---|---|"]
    for where, sandboxed in (("in process", False), ("in the decode worker", True)):
        plain, tagged, wall, cpu = paired_rounds(babyalbum, photos, runs, sandboxed, rounds)
        lines.append(f"| {where} | {plain:.1f} | {tagged:.1f} | {wall:.3f} | {cpu:.3f} |")
    lines.append("(ratios: the median over the rounds of Display P3 / untagged in the same round; CPU: the "
                 "processes' and workers' user + system time per photo. Target <= 1.05.)")
    return "\n".join(lines)
