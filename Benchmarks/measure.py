"""How the benchmarks measure: whole processes, each run to completion, with its wall time and its
peak resident memory (the kernel's ru_maxrss, as /usr/bin/time -v reports it) taken from the same
run. Commands compared with each other run interleaved, round after round, so a busy moment of the
machine falls on all of them alike; every figure is the median of the runs."""
import os
import statistics
import subprocess
import sys
import tempfile
import time

#: The HEIF fixture maker of the tests (a grid of 512x512 HEVC tiles, as phones write), for the
#: benchmarks' HEICs.
HEIF_FIXTURES = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "Tests", "HEIF",
                             "heif_fixtures.py")


def run(command, **kwargs):
    return subprocess.run(command, check=True, capture_output=True, text=True, **kwargs)


def run_once(command, env=None):
    """One whole-process run: (wall ms, peak RSS MB). Exits the benchmark when the command fails.

    The command runs under GNU time, which reports its peak: the kernel's ru_maxrss of a child
    of this Python process would start from Python's own resident size (the child is a copy of
    it until exec), about 13 MB, and so hide anything smaller."""
    with tempfile.NamedTemporaryFile(mode="r") as peak, tempfile.TemporaryFile() as stderr:
        start = time.perf_counter()
        result = subprocess.run(["/usr/bin/time", "-f", "%M", "-o", peak.name, *command],
                                stdout=subprocess.DEVNULL, stderr=stderr, env=env)
        elapsed = (time.perf_counter() - start) * 1000
        if result.returncode != 0:
            stderr.seek(0)
            sys.exit(f"failed ({result.returncode}): {' '.join(command)}\n{stderr.read().decode(errors='replace')}")
        return elapsed, int(peak.read().strip().splitlines()[-1]) / 1024


def compare(commands, runs, env=None):
    """Runs every command of `commands` (name -> argv) `runs` times, interleaved; returns
    name -> (median wall ms, median peak RSS MB)."""
    samples = {name: [] for name in commands}
    for _ in range(runs):
        for name, command in commands.items():
            samples[name].append(run_once(command, env))
    return {name: (statistics.median(t for t, _ in runs_), statistics.median(m for _, m in runs_))
            for name, runs_ in samples.items()}


def timed_ms(command, runs):
    """Median wall time of the whole process over `runs` runs, in ms."""
    return compare({"c": command}, runs)["c"][0]


def peak_rss_mb(command):
    """Peak resident memory of one whole process, MB."""
    return run_once(command)[1]


def tree_resident_mb(pid):
    """The proportional set size (Pss, /proc/PID/smaps_rollup) of `pid` and of every process below
    it (the slideshow's decode workers), summed, MB: the pages they share, the binary's above all
    (the worker is the same program), are counted once between them, and a memfd's pages once.
    Children are listed per thread (/proc/PID/task/TID/children): the worker is started by the
    slideshow's spawning thread."""
    total, pending = 0, [pid]
    while pending:
        current = pending.pop()
        try:
            with open(f"/proc/{current}/smaps_rollup") as rollup:
                total += next(int(line.split()[1]) for line in rollup if line.startswith("Pss:"))
            for task in os.listdir(f"/proc/{current}/task"):
                with open(f"/proc/{current}/task/{task}/children") as children:
                    pending += [int(child) for child in children.read().split()]
        except (OSError, StopIteration, ValueError):
            continue  # the process ended between two reads
    return total / 1024


def resident_over_run(command, env=None, settle_seconds=1.0):
    """Runs `command` to its end under GNU time, sampling the command's /proc/PID/status (and its
    workers') every 20 ms. Returns (peak MB, GNU time's maximum resident size: the largest of the
    process and the workers it reaped, never their sum; steady MB: the median VmRSS of the samples
    after `settle_seconds`, when the process mostly waits between photos; the sampled peak and the
    steady median of the process and its workers together, their Pss summed)."""
    samples, start = [], time.monotonic()
    with tempfile.NamedTemporaryFile(mode="r") as peak, tempfile.TemporaryFile() as stderr:
        wrapper = subprocess.Popen(["/usr/bin/time", "-f", "%M", "-o", peak.name, *command],
                                   stdout=subprocess.DEVNULL, stderr=stderr, env=env)
        child = None
        while wrapper.poll() is None:
            try:
                if child is None:
                    with open(f"/proc/{wrapper.pid}/task/{wrapper.pid}/children") as children:
                        child = int(children.read().split()[0])
                with open(f"/proc/{child}/status") as proc_status:
                    rss = next(int(line.split()[1]) for line in proc_status if line.startswith("VmRSS:"))
                samples.append((time.monotonic() - start, rss / 1024, tree_resident_mb(child)))
            except (OSError, StopIteration, IndexError, ValueError):
                pass
            time.sleep(0.02)
        if wrapper.returncode != 0:
            stderr.seek(0)
            sys.exit(f"failed: {' '.join(command)}\n{stderr.read().decode(errors='replace')}")
        peak_mb = int(peak.read().strip().splitlines()[-1]) / 1024
    late = [sample for sample in samples if sample[0] >= settle_seconds] or samples or [(0, 0, 0)]
    tree_peak = max((tree for _, _, tree in samples), default=0)
    return (peak_mb, statistics.median(rss for _, rss, _ in late), tree_peak,
            statistics.median(tree for _, _, tree in late))


def cpu_run(command):
    """One whole-process run: (wall ms, CPU ms). The CPU time is the process's user + system time
    and that of every child it reaped (a decode worker's too), from wait4's rusage at microsecond
    resolution: unlike wall time, it is not stretched while other processes hold the CPU."""
    start = time.perf_counter()
    child = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(child.pid, 0)
    child.returncode = os.waitstatus_to_exitcode(status)
    elapsed = (time.perf_counter() - start) * 1000
    if child.returncode != 0:
        sys.exit(f"failed ({child.returncode}): {' '.join(command)}")
    return elapsed, (usage.ru_utime + usage.ru_stime) * 1000
