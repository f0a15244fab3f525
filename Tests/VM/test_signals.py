"""Signals on the real screen: SIGHUP keeps the slideshow, SIGQUIT and SIGABRT end it with the
console back (the text console, not the last photo), within a second or two under TCG.
"""

import os
import unittest

from PIL import Image

from vmrig import GuestTestCase, BABYALBUM_BIN, REPO

PHOTOS = os.path.join(REPO, "Photos")
CONSOLE_GREY = (170, 170, 170)


def load_rgb(path):
    with Image.open(path) as image:
        return image.convert("RGB")


def console_text_pixels(image):
    """How many pixels have the text console's grey (the VM's boot messages)."""
    return dict((rgb, n) for n, rgb in image.getcolors(1 << 22)).get(CONSOLE_GREY, 0)


class SignalTests(GuestTestCase):
    """One guest; each test starts its own slideshow and ends it with a signal."""

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.shot = os.path.join(cls.vm.out, "screen.png")

    def screen(self):
        return load_rgb(self.vm.screendump(self.shot))

    def start_slideshow(self):
        app = self.vm.spawn(f"{BABYALBUM_BIN} --photos {PHOTOS} --seed 3 --interval 30 --state-dir none")
        app.wait_for_log(r"showing \S+", timeout=60)
        photo = self.screen()
        # Positive control: while the slideshow shows, the console's text is gone.
        self.assertLess(console_text_pixels(photo), 100, "the photo is not on screen")
        return app

    def assert_console_back(self, app):
        console = self.screen()
        self.assertGreater(console_text_pixels(console), 100, f"no console text visible; log:\n{app.log()}")

    def test_sighup_keeps_the_slideshow_and_reads_the_folder_afresh(self):
        app = self.start_slideshow()
        app.signal("HUP")
        app.wait_for_log(r"SIGHUP: reading the photo folder afresh", timeout=10)
        self.assertFalse(app.exited(), app.log())
        self.assertLess(console_text_pixels(self.screen()), 100, "the photo stays on screen")
        app.signal("TERM")
        self.assertEqual(app.wait(timeout=30), 0, app.log())
        self.assert_console_back(app)

    def test_sigquit_ends_it_with_the_console_back(self):
        app = self.start_slideshow()
        app.signal("QUIT")
        self.assertEqual(app.wait(timeout=30), 0, app.log())
        self.assertIn("signal 3 ended the slideshow", app.log())
        self.assert_console_back(app)

    def test_sigabrt_ends_it_with_the_console_back(self):
        app = self.start_slideshow()
        app.signal("ABRT")
        status = app.wait(timeout=30)
        self.assertNotEqual(status, 0, "an abort is a crash: the service restarts it")
        self.assert_console_back(app)


if __name__ == "__main__":
    unittest.main()
