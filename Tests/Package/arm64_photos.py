"""The photos the arm64 board must show through its decode sandbox, made at test time from the
repository's sample pictures (Pillow, libheif's heif-enc, Tests/HEIF/heif_fixtures.py):

- camera.jpg: what a phone or camera writes: 1800x1200 baseline 4:2:0, quality 92, EXIF
  orientation 6 (shown turned a quarter clockwise), a DateTimeOriginal;
- progressive-adobe-rgb.jpg: progressive, with an embedded Adobe RGB (1998) ICC profile
  (Ghostscript's a98.icc, from libgs-common), so lcms2 converts it;
- gray.jpg: a one-channel JPEG;
- photo.png (the sample duck), photo.webp (lossy, 4:2:0), photo.heic (one HEVC image),
  grid.heic (an iPhone-style 2x2 grid of HEVC tiles).
"""

import os
import subprocess
import sys

from PIL import Image

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
PHOTOS = os.path.join(REPO, "Photos")
ADOBE_RGB = "/usr/share/color/icc/ghostscript/a98.icc"
HEIF_FIXTURES = os.path.join(REPO, "Tests", "HEIF", "heif_fixtures.py")

#: The EXIF orientation tag and DateTimeOriginal (a camera's).
ORIENTATION, DATE_TIME_ORIGINAL, EXIF_IFD = 0x0112, 0x9003, 0x8769


def sample(name, size):
    with Image.open(os.path.join(PHOTOS, name)) as image:
        return image.convert("RGB").resize(size, Image.LANCZOS)


def make(folder):
    """Writes every photo into `folder`; returns their names."""
    os.makedirs(folder, exist_ok=True)
    camera = sample("meadow.png", (1800, 1200))
    exif = Image.Exif()
    exif[ORIENTATION] = 6
    exif.get_ifd(EXIF_IFD)[DATE_TIME_ORIGINAL] = "2026:05:01 10:30:00"
    camera.save(os.path.join(folder, "camera.jpg"), quality=92, subsampling=2, exif=exif.tobytes())
    with open(ADOBE_RGB, "rb") as profile:
        sample("sunset.png", (1600, 1200)).save(os.path.join(folder, "progressive-adobe-rgb.jpg"), quality=90,
                                                 progressive=True, icc_profile=profile.read())
    sample("night-sky.png", (1200, 900)).convert("L").save(os.path.join(folder, "gray.jpg"), quality=90)
    sample("duck.png", (1024, 768)).save(os.path.join(folder, "photo.png"))
    sample("balloons.png", (1400, 1050)).save(os.path.join(folder, "photo.webp"), quality=85)
    rainbow = os.path.join(folder, "rainbow-source.png")
    sample("rainbow.png", (1280, 960)).save(rainbow)
    run([sys.executable, HEIF_FIXTURES, "single", rainbow, os.path.join(folder, "photo.heic")])
    run([sys.executable, HEIF_FIXTURES, "grid", rainbow, os.path.join(folder, "grid.heic"), "--tile", "640"])
    os.unlink(rainbow)
    return sorted(os.listdir(folder))


def run(command):
    result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode != 0:
        raise RuntimeError(f"{' '.join(command)} failed:\n{result.stdout}{result.stderr}")


if __name__ == "__main__":
    print("\n".join(make(sys.argv[1])))
