#!/usr/bin/python3
"""Draws BabyAlbum's sample pictures (CC0, made for this project) with Pillow.

Run from this folder: /usr/bin/python3 make-pictures.py  (Debian: python3-pil)
"""
import math
import random

from PIL import Image, ImageDraw, ImageFilter

random.seed(2026)


def vertical_gradient(size, top, bottom):
    w, h = size
    image = Image.new("RGB", size)
    draw = ImageDraw.Draw(image)
    for y in range(h):
        t = y / (h - 1)
        draw.line([(0, y), (w, y)], fill=tuple(int(a + (b - a) * t) for a, b in zip(top, bottom)))
    return image


def sunset(path):
    image = vertical_gradient((1600, 1200), (255, 120, 60), (255, 210, 140))
    draw = ImageDraw.Draw(image)
    draw.ellipse([620, 520, 980, 880], fill=(255, 240, 180))
    sea = vertical_gradient((1600, 500), (40, 70, 140), (10, 30, 70))
    image.paste(sea, (0, 700))
    for i in range(40):
        y = 720 + i * 12
        draw.line([(800 - 200 + i * 3, y), (800 + 200 - i * 3, y)], fill=(255, 200, 120), width=3)
    image.filter(ImageFilter.GaussianBlur(1)).save(path, optimize=True)


def balloons(path):
    image = vertical_gradient((1200, 1600), (90, 170, 255), (200, 230, 255))
    draw = ImageDraw.Draw(image)
    colors = [(230, 40, 60), (250, 200, 30), (60, 180, 90), (150, 80, 200), (255, 120, 180)]
    for i, color in enumerate(colors):
        x = 200 + i * 190
        y = 300 + (i % 3) * 260
        draw.line([(x, y + 150), (x + 20 * math.sin(i), y + 600)], fill=(80, 80, 80), width=4)
        draw.ellipse([x - 110, y - 140, x + 110, y + 150], fill=color)
        draw.ellipse([x - 60, y - 100, x - 20, y - 40], fill=tuple(min(255, c + 70) for c in color))
    image.save(path, optimize=True)


def meadow(path):
    image = vertical_gradient((1920, 1080), (130, 200, 250), (220, 240, 255))
    draw = ImageDraw.Draw(image)
    draw.ellipse([-400, 600, 1200, 1500], fill=(90, 170, 70))
    draw.ellipse([800, 650, 2400, 1500], fill=(70, 150, 60))
    for _ in range(160):
        x, y = random.randint(0, 1920), random.randint(760, 1080)
        color = random.choice([(255, 255, 255), (255, 220, 40), (240, 80, 120), (180, 120, 255)])
        r = random.randint(6, 14)
        draw.ellipse([x - r, y - r, x + r, y + r], fill=color)
        draw.ellipse([x - 3, y - 3, x + 3, y + 3], fill=(255, 180, 0))
    draw.ellipse([1550, 80, 1750, 280], fill=(255, 245, 170))
    image.save(path, optimize=True)


def night(path):
    image = vertical_gradient((1600, 1200), (10, 15, 50), (40, 50, 110))
    draw = ImageDraw.Draw(image)
    for _ in range(300):
        x, y, r = random.randint(0, 1600), random.randint(0, 1200), random.choice([1, 1, 2, 3])
        draw.ellipse([x - r, y - r, x + r, y + r], fill=(255, 255, 230))
    draw.ellipse([1100, 150, 1400, 450], fill=(250, 250, 220))
    draw.ellipse([1170, 120, 1470, 420], fill=(14, 20, 58))
    image.save(path, optimize=True)


def rainbow(path):
    image = vertical_gradient((1200, 1200), (150, 210, 255), (240, 250, 255))
    draw = ImageDraw.Draw(image)
    bands = [(230, 40, 40), (250, 140, 30), (250, 220, 40), (60, 190, 80), (50, 120, 230), (120, 70, 200)]
    for i, color in enumerate(bands):
        r = 560 - i * 45
        draw.ellipse([600 - r, 900 - r, 600 + r, 900 + r], outline=color, width=45)
    draw.rectangle([0, 900, 1200, 1200], fill=(100, 190, 90))
    for cx in (250, 950):
        for dx, dy in ((0, 0), (70, -30), (140, 0)):
            draw.ellipse([cx + dx - 80, 850 + dy - 60, cx + dx + 80, 850 + dy + 60], fill=(255, 255, 255))
    image.filter(ImageFilter.GaussianBlur(1.5)).save(path, optimize=True)


def duck(path):
    image = vertical_gradient((1600, 900), (160, 215, 255), (60, 140, 200))
    draw = ImageDraw.Draw(image)
    for i in range(12):
        y = 560 + i * 28
        draw.arc([100 + i * 40, y - 10, 1500 - i * 40, y + 30], 0, 180, fill=(200, 230, 255), width=3)
    draw.ellipse([560, 420, 1040, 700], fill=(255, 215, 0))
    draw.ellipse([900, 280, 1120, 500], fill=(255, 215, 0))
    draw.ellipse([1030, 350, 1060, 380], fill=(20, 20, 20))
    draw.polygon([(1110, 390), (1220, 410), (1110, 440)], fill=(255, 120, 0))
    image.save(path, optimize=True)


for name, draw_picture in [("sunset", sunset), ("balloons", balloons), ("meadow", meadow), ("night-sky", night),
                           ("rainbow", rainbow), ("duck", duck)]:
    draw_picture(name + ".png")
