"""Memory on the real DRM driver (bochs) in a QEMU guest, with the defaults (issue 24).

The slideshow runs with its defaults (--scale auto --transition fade, a photo every 15 s) on the
guest's screen (1280x800) over two copies of a 48 MP photo of each kind (baseline JPEG, PNG,
lossy WebP), so a fade goes from one full-size photo to another. Once the second photo has faded
in, the kernel's VmHWM (peak resident) and VmRSS of the process must be at most 40 MB: a ceiling
above the 36 MB goal (README: Performance), so the figure cannot drift back to the 121-140 MB
measured before.

The interval is the default one because it sets how long a decode may take (the interval and 1 s):
a 48 MP PNG under TCG, beside the run's other guests on two cores, took over the 5 s that
`--interval 4` gives (CI, 2026-12-01), and was passed over as a parent's slow photo would be.
"""

import os
import re
import shutil
import unittest

from PIL import Image

from vmrig import BABYALBUM_BIN, release_shared_vm, shared_vm

LIMIT_MB = 40
SIZE = (8000, 6000)  # 48 MP


def photo(size):
    """A smooth photo-like RGB picture (gradients), quick to make and to compress."""
    small = (size[0] // 8, size[1] // 8)
    red = Image.linear_gradient("L").resize(small)
    green = Image.radial_gradient("L").resize(small)
    blue = Image.linear_gradient("L").rotate(90).resize(small)
    return Image.merge("RGB", (red, green, blue)).resize(size, Image.BILINEAR)


def resident_mb(status_text):
    """VmHWM and VmRSS of a /proc/PID/status text, MB."""
    values = dict(re.findall(r"^(VmHWM|VmRSS):\s+(\d+) kB", status_text, re.M))
    return int(values["VmHWM"]) / 1024, int(values["VmRSS"]) / 1024


class MemoryTests(unittest.TestCase):
    """One guest; one slideshow per kind of photo."""

    @classmethod
    def setUpClass(cls):
        if not os.access(BABYALBUM_BIN, os.X_OK):
            raise unittest.SkipTest(f"{BABYALBUM_BIN} not built (swift build -c release: babyalbum and babyalbum-decoder)")
        cls.vm = shared_vm()
        cls.work = os.path.join(cls.vm.out, "memory-photos")  # the guest sees the rig's folder
        picture = photo(SIZE)
        cls.folders = {}
        for kind, options in (("jpg", {"quality": 90}), ("png", {"compress_level": 1}), ("webp", {"quality": 85})):
            folder = os.path.join(cls.work, kind)
            os.makedirs(folder)
            first = os.path.join(folder, "IMG_0001." + kind)
            picture.save(first, **options)
            os.link(first, os.path.join(folder, "IMG_0002." + kind))
            cls.folders[kind] = folder

    @classmethod
    def tearDownClass(cls):
        release_shared_vm(cls.vm)
        shutil.rmtree(cls.work, ignore_errors=True)

    def check(self, kind):
        app = self.vm.spawn(
            f"{BABYALBUM_BIN} --photos {self.folders[kind]} --state-dir none --statistics")
        try:
            # The second photo has faded in over the first (--statistics logs each fade's end).
            app.wait_for_log(r"showing \S+[\s\S]*showing \S+[\s\S]*fade: \d+ pictures", timeout=240)
            status, text = self.vm.sh(f"cat /proc/{app.pid}/status")
            self.assertEqual(status, 0, text)
            peak, now = resident_mb(text)
            print(f"\n  48 MP {kind}, defaults, real DRM: VmHWM {peak:.1f} MB, VmRSS {now:.1f} MB; "
                  + self.with_workers(app.pid))
            self.assertLessEqual(peak, LIMIT_MB, f"VmHWM {peak:.1f} MB; log:\n{app.log()}")
            self.assertLessEqual(now, LIMIT_MB, f"VmRSS {now:.1f} MB")
        finally:
            if not app.exited():
                app.signal("TERM")
                app.wait(timeout=60)

    def with_workers(self, pid):
        """Reported, not checked: the slideshow's Pss and its decode workers' (the waiting one,
        which maps the frame memfd), from smaps_rollup, so shared pages count once."""
        _, text = self.vm.sh(f"for p in {pid} $(cat /proc/{pid}/task/*/children); do "
                             "echo $p $(grep '^Pss:' /proc/$p/smaps_rollup); done")
        pss = [int(m) / 1024 for m in re.findall(r"^\d+ Pss:\s+(\d+) kB", text, re.M)]
        if not pss:
            return "Pss not readable"
        return (f"with its worker: Pss {sum(pss):.1f} MB (slideshow {pss[0]:.1f}"
                + "".join(f", worker {value:.1f}" for value in pss[1:]) + ")")

    def test_baseline_jpeg_48mp(self):
        self.check("jpg")

    def test_png_48mp(self):
        self.check("png")

    def test_lossy_webp_48mp(self):
        self.check("webp")
