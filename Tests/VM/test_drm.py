"""The real screen: babyalbum drawing through the kernel's bochs DRM driver in a QEMU guest.

The guest's screen (QMP screendump) must equal, pixel for pixel, the frame `--output png:`
renders on the host for the photo the guest says it shows, at the bochs connector's preferred
mode, 1280x800; and `--seed 3` must show the photos in the order `--output png:` shows them on
the host. No tolerance: both are the same XRGB8888 frame; QEMU's screendump of the 32-bpp VBE
framebuffer and the PNG view both drop only the unused X byte, so any difference is a bug.
"""

import os
import re
import shutil
import subprocess
import tempfile
import time
import unittest

from PIL import Image, ImageChops

from vmrig import BABYALBUM_BIN, REPO, VM, release_shared_vm, shared_vm

PHOTOS = os.path.join(REPO, "Photos")
SEED = "3"
#: Seconds per photo in the guest: long enough for TCG to decode and draw the next photo
#: (a release build takes about a second per photo under TCG) and for the test to look at it.
INTERVAL = "6"
CONNECTOR_STATUS = "/sys/class/drm/card0-Virtual-1/status"
#: A kernel uevent for the card, as the driver sends on hotplug (bochs has no real hotplug).
HOTPLUG_EVENT = 'echo "change $(cat /proc/sys/kernel/random/uuid) HOTPLUG=1" > /sys/class/drm/card0/uevent'


def load_rgb(path):
    with Image.open(path) as image:
        return image.convert("RGB")


def render(photos, directory, count, size="1280x800"):
    """Runs `babyalbum --output png:` on the host: returns (photo names shown, frame files)."""
    done = subprocess.run(
        [BABYALBUM_BIN, "--photos", photos, "--output", f"png:{directory}", "--size", size,
         "--seed", SEED, "--count", str(count), "--interval", "0.01"],
        check=True, cwd=REPO, capture_output=True, text=True, timeout=300,
        env={**os.environ, "BABYALBUM_TEST_FAST_INTERVAL": "1"})  # below 1 s is for tests only
    shown = [os.path.basename(p) for p in re.findall(r"showing (\S+)", done.stderr)]
    frames = sorted(os.path.join(directory, n) for n in os.listdir(directory) if n.endswith(".png"))
    return shown, frames


def same_pixels(a, b):
    return a.size == b.size and ImageChops.difference(a, b).getbbox() is None


class SlideshowOnScreenTests(unittest.TestCase):
    """One guest runs the slideshow; the tests look at it in order (test_1 ... test_5)."""

    @classmethod
    def setUpClass(cls):
        if not os.access(BABYALBUM_BIN, os.X_OK):
            raise unittest.SkipTest(f"{BABYALBUM_BIN} not built (swift build -c release: babyalbum and babyalbum-decoder)")
        cls.frames_dir = tempfile.TemporaryDirectory(prefix="babyalbum-expected-")
        # The order seed 3 gives, and each photo's frame, as --output png: renders them.
        cls.seeded_order = render(PHOTOS, os.path.join(cls.frames_dir.name, "seeded"), count=4)[0]
        cls.expected = {}
        for name in sorted(os.listdir(PHOTOS)):
            if name.endswith(".png"):
                alone = os.path.join(cls.frames_dir.name, "alone-" + name)
                os.mkdir(alone)
                shutil.copy(os.path.join(PHOTOS, name), alone)
                frames = render(alone, os.path.join(cls.frames_dir.name, "frame-" + name), count=1)[1]
                cls.expected[name] = load_rgb(frames[0])
        assert len(cls.expected) >= 2, f"{PHOTOS} has fewer than two photos"
        cls.vm = shared_vm()
        cls.app = cls.vm.spawn(f"{BABYALBUM_BIN} --photos {PHOTOS} --seed {SEED} --interval {INTERVAL}")
        cls.shot = os.path.join(cls.vm.out, "screen.png")

    @classmethod
    def tearDownClass(cls):
        release_shared_vm(cls.vm)
        cls.frames_dir.cleanup()

    def screen(self):
        return load_rgb(self.vm.screendump(self.shot))

    def wait_for_screen(self, expected, timeout, what):
        """Polls the screen until it equals `expected` (an image, or a function giving the image
        expected now); fails with a description otherwise."""
        deadline = time.monotonic() + timeout
        current = expected if callable(expected) else (lambda: expected)
        while True:
            expected = current()
            screen = self.screen()
            if same_pixels(screen, expected):
                return
            if time.monotonic() > deadline:
                differing = ImageChops.difference(screen, expected).getbbox() if screen.size == expected.size else None
                kept = os.path.join(tempfile.gettempdir(), f"babyalbum-vm-{what.replace(' ', '-')}.png")
                screen.save(kept)
                self.fail(f"{what}: the screen is not the expected frame after {timeout} s "
                          f"(size {screen.size}, differing box {differing}, screen kept in {kept}); "
                          f"log:\n{self.app.log()}")
            time.sleep(0.2)

    def shown(self):
        """The photos the guest has shown so far (file names, from its log)."""
        return [os.path.basename(p) for p in re.findall(r"showing (\S+)", self.app.log())]

    def current_frame(self):
        return self.expected[self.shown()[-1]]

    def test_1_first_photo_is_drawn_exactly_as_the_png_output_draws_it(self):
        self.app.wait_for_log(r"drawing on /dev/dri/card0 \(bochs-drm\) Virtual-1 at 1280x800", timeout=60)
        self.app.wait_for_log(r"showing \S+", timeout=60)
        self.wait_for_screen(self.expected[self.shown()[0]], timeout=10, what="first photo")
        self.assertEqual(len(self.shown()), 1, "the second photo came before the first was checked")

    def test_2_next_interval_draws_a_different_photo_exactly(self):
        self.app.wait_for_log(r"showing \S+[\s\S]*showing \S+", timeout=60)
        first, second = self.shown()[:2]
        self.assertNotEqual(first, second)
        self.assertFalse(same_pixels(self.expected[first], self.expected[second]))
        self.wait_for_screen(self.expected[second], timeout=10, what="second photo")

    def test_2b_same_seed_same_order_as_the_png_output(self):
        self.app.wait_for_log(r"showing \S+[\s\S]*showing \S+", timeout=60)
        self.assertEqual(self.shown()[:2], self.seeded_order[:2],
                         "--seed 3 shows a different order in the guest than --output png: on the host")

    def test_3_a_second_instance_is_told_the_display_is_in_use(self):
        status, out = self.vm.sh(f"{BABYALBUM_BIN} --photos {PHOTOS} --seed {SEED}", timeout=120)
        self.assertNotEqual(status, 0, out)
        self.assertIn("holds DRM master", out)
        self.assertFalse(self.app.exited(), self.app.log())

    def test_4_display_unplugged_and_replugged(self):
        # Unplug: force the connector off and send the driver's hotplug event.
        status, out = self.vm.sh(f"echo off > {CONNECTOR_STATUS} && {HOTPLUG_EVENT}")
        self.assertEqual(status, 0, out)
        self.app.wait_for_log(r"Virtual-1 disconnected", timeout=10)
        self.assertFalse(self.app.exited(), "a disconnected display stopped the program")
        # Replug: it is set up again and shows the current photo.
        status, out = self.vm.sh(f"echo detect > {CONNECTOR_STATUS} && {HOTPLUG_EVENT}")
        self.assertEqual(status, 0, out)
        self.app.wait_for_log(r"Virtual-1 connected at 1280x800", timeout=10)
        self.wait_for_screen(self.current_frame, timeout=10, what="photo after replug")

    def test_5_sigterm_gives_the_console_back(self):
        photo = self.screen()
        self.app.signal("TERM")
        self.assertEqual(self.app.wait(timeout=30), 0, self.app.log())
        console = self.screen()
        self.assertFalse(same_pixels(console, photo), "the last photo is still on screen after exit")
        self.assertFalse(any(same_pixels(console, frame) for frame in self.expected.values()))
        # The text console (grey text on black, the VM's banner) is back, not a black screen.
        colours = dict((rgb, n) for n, rgb in console.getcolors(1 << 20))
        self.assertGreater(colours.get((170, 170, 170), 0), 100, "no console text visible")


class ModeAndPermissionTests(unittest.TestCase):
    """`--mode`, and the errors a person gets before anything is drawn (one guest)."""

    @classmethod
    def setUpClass(cls):
        if not os.access(BABYALBUM_BIN, os.X_OK):
            raise unittest.SkipTest(f"{BABYALBUM_BIN} not built")
        cls.vm = shared_vm()

    @classmethod
    def tearDownClass(cls):
        release_shared_vm(cls.vm)

    def wait_for_photo_on_screen(self, name, size):
        """Waits up to 10 s for the guest's screen to equal the frame `--output png:` renders on the
        host for the photo `name` alone at `size`."""
        with tempfile.TemporaryDirectory(prefix="babyalbum-alone-") as work:
            alone = os.path.join(work, "alone")
            os.mkdir(alone)
            shutil.copy(os.path.join(PHOTOS, name), alone)
            expected = load_rgb(render(alone, os.path.join(work, "frames"), count=1, size=size)[1][0])
        shot = os.path.join(self.vm.out, "screen.png")
        deadline = time.monotonic() + 10
        while not same_pixels(load_rgb(self.vm.screendump(shot)), expected):
            self.assertLess(time.monotonic(), deadline, f"{name} at {size} is not on screen")
            time.sleep(0.2)

    def test_an_unknown_mode_is_refused_with_the_modes_offered(self):
        status, out = self.vm.sh(f"{BABYALBUM_BIN} --photos {PHOTOS} --mode 1234x567", timeout=120)
        self.assertNotEqual(status, 0, out)
        self.assertIn("mode 1234x567 is not offered by Virtual-1; it offers", out)
        self.assertIn("1024x768", out)

    def test_a_user_outside_the_video_group_is_told_so(self):
        binary, photos = self.vm.reachable_by_any_user(BABYALBUM_BIN, PHOTOS)
        status, out = self.vm.sh(
            f"setpriv --reuid=65534 --regid=65534 --clear-groups {binary} --photos {photos}", timeout=120)
        self.assertNotEqual(status, 0, out)
        self.assertIn("permission denied opening /dev/dri/card0", out)
        self.assertIn("'video' group", out)

    def test_mode_draws_the_photo_at_that_size(self):
        app = self.vm.spawn(f"{BABYALBUM_BIN} --photos {PHOTOS} --seed {SEED} --interval 60 --mode 1024x768")
        try:
            app.wait_for_log(r"Virtual-1 at 1024x768", timeout=60)
            name = os.path.basename(app.wait_for_log(r"showing (\S+)", timeout=60).group(1))
            self.wait_for_photo_on_screen(name, "1024x768")
        finally:
            app.signal("INT")
            self.assertEqual(app.wait(timeout=30), 0, app.log())

    def test_without_a_display_run_goes_on_with_no_screen_and_starts_on_the_display_once_connected(self):
        # Nothing connected: the connector forced off, as a TV's cable pulled out.
        status, out = self.vm.sh(f"echo off > {CONNECTOR_STATUS}")
        self.assertEqual(status, 0, out)
        app = None
        try:
            # Control: by default the frame ends, naming what is missing.
            status, out = self.vm.sh(f"{BABYALBUM_BIN} --photos {PHOTOS} --seed {SEED}", timeout=120)
            self.assertNotEqual(status, 0, out)
            self.assertIn("no connected display: nothing is connected to /dev/dri/card0 Virtual-1", out)
            app = self.vm.spawn(f"{BABYALBUM_BIN} --photos {PHOTOS} --seed {SEED} --interval {INTERVAL} "
                                "--without-display run")
            app.wait_for_log(r"no connected display: nothing is connected to /dev/dri/card0 Virtual-1: the slideshow "
                             r"runs with no screen \(--without-display run\)", timeout=60)
            app.wait_for_log(r"showing \S+[\s\S]*showing \S+", timeout=60)  # photos decoded, shown to no one
            self.assertNotIn("drawing on", app.log())
            self.assertFalse(app.exited(), app.log())
            # The cable back in: within the 5 s it looks, the frame starts again and draws on it.
            status, out = self.vm.sh(f"echo detect > {CONNECTOR_STATUS}")
            self.assertEqual(status, 0, out)
            app.wait_for_log(r"a display was connected: starting again to draw on it", timeout=30)
            app.wait_for_log(r"starting again to draw on it[\s\S]*drawing on /dev/dri/card0 \(bochs-drm\) "
                             r"Virtual-1 at 1280x800", timeout=60)
            shown = app.wait_for_log(r"starting again to draw on it[\s\S]*?showing (\S+)", timeout=60)
            name = os.path.basename(shown.group(1))
            self.wait_for_photo_on_screen(name, "1280x800")
        finally:
            self.vm.sh(f"echo detect > {CONNECTOR_STATUS}")
            if app is not None:
                app.signal("INT")
                self.assertEqual(app.wait(timeout=30), 0, app.log())


class NoDisplayTests(unittest.TestCase):
    def test_without_a_display_babyalbum_says_so_and_fails(self):
        if not os.access(BABYALBUM_BIN, os.X_OK):
            self.skipTest(f"{BABYALBUM_BIN} not built")
        with VM(vga=None) as vm:
            status, out = vm.sh(f"{BABYALBUM_BIN} --photos {PHOTOS} --seed {SEED}", timeout=120)
        self.assertNotEqual(status, 0, out)
        self.assertIn("no DRM display device", out)
        self.assertNotIn("Fatal error", out)


if __name__ == "__main__":
    unittest.main()
