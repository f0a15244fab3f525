"""How the benchmarks measure: commands run to completion, their wall time and peak memory."""
import statistics
import subprocess
import sys
import time


def run(command, **kwargs):
    return subprocess.run(command, check=True, capture_output=True, text=True, **kwargs)


def peak_rss_mb(command):
    """Peak resident memory of a whole process, from GNU time."""
    result = subprocess.run(["/usr/bin/time", "-f", "%M"] + command, capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit(f"failed: {' '.join(command)}\n{result.stderr}")
    return int(result.stderr.strip().splitlines()[-1]) / 1024


def timed_ms(command, runs):
    """Median wall time of the whole process over `runs` runs, in ms."""
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        run(command)
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)
