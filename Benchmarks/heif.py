"""HEIC and the decode sandbox: a 12 MP grid HEIC at 1920x1080 in a worker against libheif's own
full decode (heif-convert, and pillow-heif), the worker's cost per photo (spawn, confinement,
handing back the frame) for `babyalbum decode-worker` and the small C program, and the peak
memory of both processes."""
import os
import re
import sys
import statistics

from measure import HEIF_FIXTURES, peak_rss_mb, run, timed_ms

SIZE = "1920x1080"
PILLOW_HEIF = "/var/cache/babyalbum/venv-heif/bin/python"
# BABYALBUM_BENCH_FIFO=1 (as root): every timed command under SCHED_FIFO, so that other processes on a
# shared machine do not delay the hand-overs between the slideshow and its worker (each a wake-up).
REALTIME = ["chrt", "-f", "1"] if os.environ.get("BABYALBUM_BENCH_FIFO") == "1" else []
PAUSE_MS = "300"  # between photos, untimed: a slideshow waits seconds, so its next worker is ready
OVERHEAD_ROUNDS = 5
#: The worker whose cost per photo is measured: the small C program that the slideshow starts.
WORKER = "babyalbum-decoder (the worker program)"


def make_photos(work):
    """An iPhone-sized (4032x3024) grid of 512x512 HEVC tiles, and a tiny PNG for the overhead."""
    png = os.path.join(work, "heic-source.png")
    heic = os.path.join(work, "IMG_0001.HEIC")
    run(["convert", "-seed", "7", "-size", "4032x3024", "plasma:fractal", "-blur", "0x2", "-depth", "8",
         "-define", "png:color-type=2", png])
    run(["/usr/bin/python3", HEIF_FIXTURES, "grid", png, heic])
    tiny = os.path.join(work, "tiny.png")
    run(["convert", "-size", "64x48", "gradient:red-blue", "-depth", "8", "-define", "png:color-type=2", tiny])
    return heic, tiny


def decode(babyalbum, path, runs, *options):
    """benchmark-decode's median ms, its peak RSS (this process, the largest worker), its CPU ms
    per photo (this process and its workers, start-up included), the median CPU ms on the
    critical path (the decoding thread's, plus the worker's from its request to its answer), and
    the waiting worker's VmRSS and RssAnon, kB (or None)."""
    result = run(REALTIME + [babyalbum + "-benchmark", "benchmark-decode", path, "--size", SIZE, "--runs", str(runs)] + list(options))
    rss = re.search(r"peak RSS MB: ([\d.]+) ([\d.]+)", result.stderr)
    cpu = float(re.search(r"cpu ms per photo: ([\d.]+)", result.stderr).group(1))
    path_cpu = float(re.search(r"critical path cpu ms: ([\d.]+)", result.stderr).group(1))
    waiting = re.search(r"waiting worker kB: (\d+) (\d+)", result.stderr)
    idle = (int(waiting.group(1)), int(waiting.group(2))) if waiting else None
    return float(result.stdout), float(rss.group(1)), float(rss.group(2)), cpu, path_cpu, idle


def median_figures(samples):
    """decode()'s figures, each the median over `samples` (the waiting worker's memory: the last)."""
    return tuple(statistics.median(sample[i] for sample in samples) for i in range(5)) + (samples[-1][5],)


def pillow_heif_ms(path, runs):
    code = ("import sys, time, pillow_heif; pillow_heif.register_heif_opener(); from PIL import Image\n"
            "times = []\n"
            "for _ in range(int(sys.argv[2])):\n"
            "    start = time.perf_counter(); Image.open(sys.argv[1]).load(); "
            "times.append((time.perf_counter() - start) * 1000)\n"
            "print(sorted(times)[len(times) // 2])")
    return float(run(REALTIME + [PILLOW_HEIF, "-c", code, path, str(runs)]).stdout)


def benchmark(babyalbum, decoder, work, runs):
    print("HEIC: making a 12 MP grid ...", file=sys.stderr)
    heic, tiny = make_photos(work)
    print("HEIC: decoding ...", file=sys.stderr)
    sandboxed, parent_rss, worker_rss = decode(babyalbum, heic, runs, "--sandboxed", "--pause-ms", PAUSE_MS)[:3]
    in_process, in_process_rss = decode(babyalbum, heic, runs)[:2]
    out = os.path.join(work, "heif-convert.png")
    times = {
        "babyalbum worker (decode + scale to 1920x1080 fill)": sandboxed,
        "babyalbum in process (same code, no worker)": in_process,
        "heif-convert to PNG (full decode + PNG)": timed_ms(REALTIME + ["heif-convert", heic, out], runs),
        "heif-convert to Y4M (full decode, raw)": timed_ms(REALTIME + ["heif-convert", heic, out[:-4] + ".y4m"], runs),
    }
    if os.path.exists(PILLOW_HEIF):
        times["pillow-heif decode (libheif 1.23 wheel, in process)"] = pillow_heif_ms(heic, runs)
    memory = {
        "babyalbum worker: the slideshow's side (benchmark-decode)": parent_rss,
        "babyalbum worker: the worker": worker_rss,
        "babyalbum in process (benchmark-decode)": in_process_rss,
        "heif-convert to Y4M": peak_rss_mb(["heif-convert", heic, out[:-4] + ".y4m"]),
    }
    print("HEIC: worker overhead ...", file=sys.stderr)
    overhead_runs = max(runs, 20)
    workers = ((WORKER, ["--worker", decoder]),)
    # Interleaved rounds (in process, then each waiting worker), the median of each figure.
    rounds = {"base": [], **{name: [] for name, _ in workers}}
    for _ in range(OVERHEAD_ROUNDS):
        rounds["base"].append(decode(babyalbum, tiny, overhead_runs))
        for name, options in workers:
            rounds[name].append(decode(babyalbum, tiny, overhead_runs, "--sandboxed", "--pause-ms", PAUSE_MS, *options))
    base = median_figures(rounds["base"])
    overhead = {}
    for name, options in workers:
        warm = median_figures(rounds[name])
        cold = decode(babyalbum, tiny, overhead_runs, "--sandboxed", "--cold", *options)
        overhead[name] = {"wall": warm[0] - base[0], "ratio": warm[0] / base[0], "path cpu": warm[4] - base[4],
                          "path ratio": warm[4] / base[4], "cold": cold[0] - base[0], "cpu": warm[3] - base[3],
                          "idle": warm[5]}
    return report(times, memory, overhead, base, runs)


def report(times, memory, overhead, base, runs):
    """The tables; `base` is the in-process decode's figures (decode())."""
    ours = "babyalbum worker (decode + scale to 1920x1080 fill)"
    full = "heif-convert to Y4M (full decode, raw)"
    lines = [f"\nHEIC: a 4032x3024 grid (48 tiles of 512x512) to a 1920x1080 fill, median of {runs} runs\n",
             "| time, ms | ms | ratio to heif-convert (Y4M) |", "|---|---:|---:|"]
    for name, value in times.items():
        lines.append(f"| {name} | {value:.1f} | {value / times[full]:.2f}x |")
    lines += ["", "| peak resident memory | MB |", "|---|---:|"]
    lines += [f"| {name} | {value:.1f} |" for name, value in memory.items()]
    lines += ["", f"| worker cost per photo (a 64x48 PNG to 1920x1080, medians of {OVERHEAD_ROUNDS} interleaved rounds"
              f"{', SCHED_FIFO' if REALTIME else ''}; in process {base[0]:.2f} ms wall, {base[4]:.2f} ms "
              "CPU) | wall, waiting worker, ms (ratio) | CPU on the critical path, ms (ratio) | wall, started per "
              "photo, ms | CPU, both processes, start-up included, ms | waiting worker's VmRSS / RssAnon, MB |",
              "|---|---:|---:|---:|---:|---:|"]
    for name, o in overhead.items():
        idle = f"{o['idle'][0] / 1024:.1f} / {o['idle'][1] / 1024:.1f}" if o["idle"] else "?"
        lines.append(f"| {name} | {o['wall']:.2f} ({o['ratio']:.2f}x) | {o['path cpu']:.2f} ({o['path ratio']:.2f}x) | "
                     f"{o['cold']:.2f} | {o['cpu']:.2f} | {idle} |")
    ours_cost = overhead[WORKER]
    lines += ["", f"12 MP grid HEIC: babyalbum worker / heif-convert full decode = {times[ours] / times[full]:.2f}x "
              f"(target <= 1.2x); worker cost on the critical path with a waiting worker "
              f"{ours_cost['wall']:.2f} ms wall, {ours_cost['path cpu']:.2f} ms CPU (target <= 5 ms)",
              f"load average while measuring: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores"]
    return "\n".join(lines)
