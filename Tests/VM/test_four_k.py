"""A 4K television (issue 38): a display whose preferred mode is 3840x2160 is drawn in 1920x1080
by default, and in 3840x2160 with `mode = native` in the settings file; a portrait panel of
1200x1920 keeps its own mode.

The guest runs virtio-gpu with `xres=3840,yres=2160`: QEMU's EDID then prefers 3840x2160 (at
75 Hz, QEMU's refresh rate) and also offers the usual smaller modes (1920x1080@60 among them).
Each run is checked by the frame's log lines and by the size of what QEMU shows (one
screendump: a 4K PNG is large and slow under TCG). The memory of each run (VmHWM, VmRSS and its
parts, Pss) is printed once the second photo has faded in, reported and not checked.
virtio-gpu's dumb buffers are guest memory mapped page by page (PFN mappings): like bochs's
video memory, they are not in the process's RSS.
"""

import os
import re
import time
import unittest

from PIL import Image

from vmrig import BABYALBUM_BIN, REPO, VM

PHOTOS = os.path.join(REPO, "Photos")
APP = f"{BABYALBUM_BIN} --photos {PHOTOS} --seed 3 --interval 4 --state-dir none --statistics"


def screen_size(vm, name):
    """The size of what the guest's display shows now (one screendump)."""
    path = os.path.join(vm.out, name)
    vm.screendump(path)
    try:
        with Image.open(path) as image:
            return image.size
    finally:
        os.unlink(path)


def memory(vm, pid):
    """VmHWM, VmRSS (RssAnon, RssFile, RssShmem) and Pss (with the decode workers), MB, as text."""
    _, status = vm.sh(f"cat /proc/{pid}/status")
    values = {k: int(v) / 1024 for k, v in re.findall(r"^(Vm\w+|Rss\w+):\s+(\d+) kB", status, re.M)}
    _, text = vm.sh(f"for p in {pid} $(cat /proc/{pid}/task/*/children); do "
                    "echo $p $(grep '^Pss:' /proc/$p/smaps_rollup); done")
    pss = [int(m) / 1024 for m in re.findall(r"^\d+ Pss:\s+(\d+) kB", text, re.M)]
    return (f"VmHWM {values['VmHWM']:.1f} MB, VmRSS {values['VmRSS']:.1f} MB (anon {values['RssAnon']:.1f}, "
            f"file {values['RssFile']:.1f}, shmem {values['RssShmem']:.1f}); Pss {sum(pss):.1f} MB "
            f"(slideshow {pss[0] if pss else 0:.1f}" + "".join(f", worker {v:.1f}" for v in pss[1:]) + ")")


class FrameRun:
    """One slideshow in the guest, up to the second photo faded in (timed, from the spawn)."""

    def __init__(self, vm, options=""):
        self.vm = vm
        started = time.monotonic()
        self.app = vm.spawn(f"{APP} {options}".strip())
        self.app.wait_for_log(r"showing \S+", timeout=120)
        self.first_photo_seconds = time.monotonic() - started
        self.app.wait_for_log(r"showing \S+[\s\S]*showing \S+[\s\S]*fade: \d+ pictures", timeout=240)
        self.second_fade_seconds = time.monotonic() - started

    def log(self):
        return self.app.log()

    def fade(self):
        """The last fade's summary line (--statistics), like `fade: 23 pictures in 1.06 s`."""
        lines = re.findall(r"fade: \d+ pictures in [\d.]+ s", self.log())
        return lines[-1] if lines else "no fade logged"

    def end(self, test):
        if not self.app.exited():
            self.app.signal("TERM")
            test.assertEqual(self.app.wait(timeout=60), 0, self.app.log())


class FourKTelevisionTests(unittest.TestCase):
    """One guest with a 4K display."""

    @classmethod
    def setUpClass(cls):
        if not os.access(BABYALBUM_BIN, os.X_OK):
            raise unittest.SkipTest(f"{BABYALBUM_BIN} not built (swift build -c release: babyalbum and babyalbum-decoder)")
        cls.vm = VM(vga=None, devices=["virtio-gpu-pci,xres=3840,yres=2160"])
        cls.vm.start()

    @classmethod
    def tearDownClass(cls):
        cls.vm.stop()

    def test_the_display_offers_4k_first(self):
        # The positive control: the guest's connector prefers 3840x2160 (else nothing here is 4K).
        status, modes = self.vm.sh("cat /sys/class/drm/card0-Virtual-1/modes")
        self.assertEqual(status, 0, modes)
        self.assertEqual(modes.split()[:1], ["3840x2160"], modes)
        self.assertIn("1920x1080", modes.split())

    def test_default_draws_1080p_and_names_both_modes(self):
        run = FrameRun(self.vm)
        try:
            self.assertRegex(
                run.log(), r"display prefers 3840x2160@\d+; using 1920x1080@\d+ \(mode = native keeps 3840x2160\)")
            self.assertRegex(run.log(), r"drawing on /dev/dri/card0 \(virtio_gpu\) Virtual-1 at 1920x1080@\d+")
            self.assertEqual(screen_size(self.vm, "default.png"), (1920, 1080), run.log())
            print(f"\n  4K display, default (1920x1080): first photo after {run.first_photo_seconds:.1f} s, "
                  f"second faded in after {run.second_fade_seconds:.1f} s ({run.fade()}); "
                  + memory(self.vm, run.app.pid))
        finally:
            run.end(self)

    def test_mode_native_in_the_settings_file_draws_4k(self):
        settings = os.path.join(self.vm.out, "babyalbum.txt")
        with open(settings, "w") as f:
            f.write("mode = native\n")
        run = FrameRun(self.vm, f"--settings {settings}")
        try:
            self.assertRegex(run.log(), r"drawing on /dev/dri/card0 \(virtio_gpu\) Virtual-1 at 3840x2160@\d+")
            self.assertNotIn("display prefers", run.log())
            self.assertEqual(screen_size(self.vm, "native.png"), (3840, 2160), run.log())
            print(f"\n  4K display, mode = native (3840x2160): first photo after {run.first_photo_seconds:.1f} s, "
                  f"second faded in after {run.second_fade_seconds:.1f} s ({run.fade()}); "
                  + memory(self.vm, run.app.pid))
        finally:
            run.end(self)


class PortraitPanelTests(unittest.TestCase):
    """One guest with a 1200x1920 display: at most 1920x1200 turned, so its own mode is kept."""

    @classmethod
    def setUpClass(cls):
        if not os.access(BABYALBUM_BIN, os.X_OK):
            raise unittest.SkipTest(f"{BABYALBUM_BIN} not built (swift build -c release: babyalbum and babyalbum-decoder)")
        cls.vm = VM(vga=None, devices=["virtio-gpu-pci,xres=1200,yres=1920"])
        cls.vm.start()

    @classmethod
    def tearDownClass(cls):
        cls.vm.stop()

    def test_a_portrait_panel_keeps_its_mode(self):
        run = FrameRun(self.vm)
        try:
            self.assertRegex(run.log(), r"Virtual-1 at 1200x1920@\d+")
            self.assertNotIn("display prefers", run.log())
            self.assertEqual(screen_size(self.vm, "portrait.png"), (1200, 1920), run.log())
        finally:
            run.end(self)


if __name__ == "__main__":
    unittest.main()
