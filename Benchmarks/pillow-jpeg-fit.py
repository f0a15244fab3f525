"""Pillow baselines for JPEG: open, optionally draft() (Pillow's DCT scaling, the largest of
1/8, 1/4, 1/2 that still covers the size), then ImageOps.fit to WxH; prints the median of RUNS
in ms.

usage: /usr/bin/python3 pillow-jpeg-fit.py JPEG WxH RUNS draft|nodraft
"""
import statistics
import sys
import time

from PIL import Image, ImageOps

path, size, runs = sys.argv[1], tuple(int(v) for v in sys.argv[2].split("x")), int(sys.argv[3])
draft = sys.argv[4] == "draft"
times = []
for _ in range(runs):
    start = time.perf_counter()
    with Image.open(path) as image:
        if draft:
            image.draft("RGB", size)
        ImageOps.fit(image.convert("RGB"), size)
    times.append((time.perf_counter() - start) * 1000)
print(f"{statistics.median(times):.3f}")
