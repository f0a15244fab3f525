"""A screen mounted turned: `--rotate 90` on the real DRM driver draws, pixel for pixel, the
frame `--output png:` renders for the same seed at the panel's own size (1280x800), which is the
upright frame turned a quarter counter-clockwise (so that it is upright on a panel turned
clockwise). The unrotated frame is the positive control: it differs.
"""

import os
import re
import subprocess
import tempfile
import time
import unittest

from PIL import Image, ImageChops

from vmrig import BABYALBUM_BIN, REPO, VM, release_shared_vm, shared_vm

PHOTOS = os.path.join(REPO, "Photos")


def load_rgb(path):
    with Image.open(path) as image:
        return image.convert("RGB")


def render(directory, *options):
    done = subprocess.run(
        [BABYALBUM_BIN, "--photos", PHOTOS, "--output", f"png:{directory}", "--size", "1280x800",
         "--seed", "3", "--count", "1", "--interval", "1", *options],
        check=True, cwd=REPO, capture_output=True, text=True, timeout=300)
    shown = re.findall(r"showing (\S+)", done.stderr)
    return os.path.basename(shown[0]), load_rgb(os.path.join(directory, "frame-0001.png"))


def same_pixels(a, b):
    return a.size == b.size and ImageChops.difference(a, b).getbbox() is None


def screen_once_equal(vm, name, expected, timeout=20):
    """Screendumps until one equals `expected` or `timeout` s pass; returns the last one."""
    shot = os.path.join(vm.out, name)
    deadline = time.monotonic() + timeout
    while True:
        screen = load_rgb(vm.screendump(shot))
        if same_pixels(screen, expected) or time.monotonic() > deadline:
            return screen
        time.sleep(0.5)


class RotationTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        if not os.access(BABYALBUM_BIN, os.X_OK):
            raise unittest.SkipTest(f"{BABYALBUM_BIN} not built (swift build -c release: babyalbum and babyalbum-decoder)")
        cls.frames = tempfile.TemporaryDirectory(prefix="babyalbum-rotation-")
        cls.photo, cls.turned = render(os.path.join(cls.frames.name, "turned"), "--rotate", "90")
        _, cls.upright = render(os.path.join(cls.frames.name, "upright"), "--rotate", "0")
        cls.vm = shared_vm()

    @classmethod
    def tearDownClass(cls):
        release_shared_vm(cls.vm)
        cls.frames.cleanup()

    def test_the_png_frame_is_the_upright_one_turned(self):
        upright_portrait = render(os.path.join(self.frames.name, "portrait"), "--rotate", "0",
                                  "--size", "800x1280")[1]
        self.assertTrue(same_pixels(self.turned, upright_portrait.transpose(Image.Transpose.ROTATE_90)))
        self.assertFalse(same_pixels(self.turned, self.upright), "the control: unrotated differs")

    def test_rotate_90_on_the_real_screen_equals_the_png_frame(self):
        app = self.vm.spawn(f"{BABYALBUM_BIN} --photos {PHOTOS} --seed 3 --interval 60 --rotate 90")
        shown = app.wait_for_log(r"showing (\S+)", timeout=60).group(1)
        self.assertEqual(os.path.basename(shown), self.photo, app.log())
        screen = screen_once_equal(self.vm, "rotated.png", self.turned)
        self.assertTrue(same_pixels(screen, self.turned), f"screen differs from the png frame; log:\n{app.log()}")
        self.assertFalse(same_pixels(screen, self.upright))
        app.signal("TERM")
        self.assertEqual(app.wait(timeout=30), 0, app.log())


class PanelOrientationTests(unittest.TestCase):
    """A sideways tablet panel, with no flag: the kernel's `panel orientation` property of the
    connector (set here from the command line, `video=Virtual-1:panel_orientation=left_side_up`,
    as the DMI quirk table sets it on such tablets) makes `--rotate auto`, the default, turn the
    photos as `--rotate 90` does; doctor says why."""

    @classmethod
    def setUpClass(cls):
        if not os.access(BABYALBUM_BIN, os.X_OK):
            raise unittest.SkipTest(f"{BABYALBUM_BIN} not built (swift build -c release: babyalbum and babyalbum-decoder)")
        cls.frames = tempfile.TemporaryDirectory(prefix="babyalbum-panel-")
        cls.photo, cls.turned = render(os.path.join(cls.frames.name, "turned"), "--rotate", "90")
        _, cls.upright = render(os.path.join(cls.frames.name, "upright"), "--rotate", "0")
        cls.vm = VM(vga="std", kernel_args=["video=Virtual-1:panel_orientation=left_side_up"])
        cls.vm.start()

    @classmethod
    def tearDownClass(cls):
        cls.vm.stop()
        cls.frames.cleanup()

    def test_a_sideways_panel_gets_upright_photos_without_a_flag(self):
        _, report = self.vm.sh(f"{BABYALBUM_BIN} doctor --photos {PHOTOS} 2>&1", timeout=120)
        self.assertIn("Left Side Up", report, "the kernel reports the panel orientation")
        turned = next((line.strip() for line in report.splitlines() if "Photos are turned" in line), None)
        print(f"\n  doctor: {turned}", flush=True)
        self.assertIsNotNone(turned, report)
        app = self.vm.spawn(f"{BABYALBUM_BIN} --photos {PHOTOS} --seed 3 --interval 60")
        shown = app.wait_for_log(r"showing (\S+)", timeout=60).group(1)
        self.assertEqual(os.path.basename(shown), self.photo, app.log())
        screen = screen_once_equal(self.vm, "panel.png", self.turned)
        self.assertTrue(same_pixels(screen, self.turned), f"screen is not the turned frame; log:\n{app.log()}")
        self.assertFalse(same_pixels(screen, self.upright), "the control: the unturned frame differs")
        app.signal("TERM")
        self.assertEqual(app.wait(timeout=30), 0, app.log())


if __name__ == "__main__":
    unittest.main()
