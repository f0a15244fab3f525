"""Pillow baseline: open a PNG and ImageOps.fit it to WxH; prints the median of RUNS in ms.

usage: /usr/bin/python3 pillow-fit.py PNG WxH RUNS
"""
import statistics
import sys
import time

from PIL import Image, ImageOps

path, size, runs = sys.argv[1], tuple(int(v) for v in sys.argv[2].split("x")), int(sys.argv[3])
times = []
for _ in range(runs):
    start = time.perf_counter()
    with Image.open(path) as image:
        ImageOps.fit(image.convert("RGB"), size)
    times.append((time.perf_counter() - start) * 1000)
print(f"{statistics.median(times):.3f}")
