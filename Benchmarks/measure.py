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


def run(command, **kwargs):
    return subprocess.run(command, check=True, capture_output=True, text=True, **kwargs)


def run_once(command, env=None):
    """One whole-process run: (wall ms, peak RSS MB). Exits the benchmark when the command fails."""
    with tempfile.TemporaryFile() as stderr:
        start = time.perf_counter()
        process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=stderr, env=env)
        _, status, usage = os.wait4(process.pid, 0)
        elapsed = (time.perf_counter() - start) * 1000
        process.returncode = os.waitstatus_to_exitcode(status)
        if process.returncode != 0:
            stderr.seek(0)
            sys.exit(f"failed ({process.returncode}): {' '.join(command)}\n{stderr.read().decode(errors='replace')}")
    return elapsed, usage.ru_maxrss / 1024


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


def resident_over_run(command, env=None, settle_seconds=1.0):
    """Runs `command` to its end, sampling /proc/PID/status every 20 ms. Returns (peak MB from
    the kernel's ru_maxrss, steady MB: the median VmRSS of the samples after `settle_seconds`,
    when the process mostly waits between photos)."""
    samples, start = [], time.monotonic()
    with tempfile.TemporaryFile() as stderr:
        process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=stderr, env=env)
        while True:
            done, status, usage = os.wait4(process.pid, os.WNOHANG)
            if done:
                break
            try:
                with open(f"/proc/{process.pid}/status") as proc_status:
                    rss = next(int(line.split()[1]) for line in proc_status if line.startswith("VmRSS:"))
                samples.append((time.monotonic() - start, rss / 1024))
            except (OSError, StopIteration):
                pass
            time.sleep(0.02)
        process.returncode = os.waitstatus_to_exitcode(status)
        if process.returncode != 0:
            stderr.seek(0)
            sys.exit(f"failed: {' '.join(command)}\n{stderr.read().decode(errors='replace')}")
    late = [rss for at, rss in samples if at >= settle_seconds] or [rss for _, rss in samples] or [0]
    return usage.ru_maxrss / 1024, statistics.median(late)
