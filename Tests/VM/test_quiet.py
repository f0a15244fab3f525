"""Quiet hours on the real DRM driver (bochs) in a QEMU guest, with the guest's wall clock moved.

The guest's clock is set with `date -s` (the guest runs as root), and babyalbum runs with
``TZ=UTC`` so the windows below are read on a known wall clock. What is checked (issue 13):
- started inside a window (02:00 in 19:00-07:00): the connector's ``dpms`` reads Off, no photo
  is decoded, and the exit button still ends the frame (exit 0, display back on);
- started outside a window: the photo shows; ``date -s`` across the start edge turns DPMS off
  within a few seconds, and ``date -s`` back across the end edge turns it on with a photo;
- started a few seconds before a window ends: it is dark, then lights on its own at the edge;
- ``--quiet-mode black``: a black screendump with DPMS On.
Each jump is followed "within a second or two" on a real machine; under TCG the guest is several
times slower, so the limits below are a few seconds, measured from the `date -s` command's return.
"""

import os
import time
import unittest

from PIL import Image

from vmrig import GuestTestCase, BABYALBUM_BIN, REPO

PHOTOS = os.path.join(REPO, "Photos")
WINDOW = "19:00-07:00"
#: How long the screen may take to follow a clock jump in the guest (TCG is slow).
FOLLOW_SECONDS = 4


class QuietHoursTests(GuestTestCase):
    """One guest; each test starts its own babyalbum and stops it."""

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.shot = os.path.join(cls.vm.out, "quiet.png")

    # MARK: Helpers

    def set_clock(self, moment):
        status, out = self.vm.sh(f"date -u -s '{moment}'")
        self.assertEqual(status, 0, out)
        return time.monotonic()

    def start(self, *options):
        self.app = self.vm.spawn(
            f"env TZ=UTC {BABYALBUM_BIN} --photos {PHOTOS} --seed 3 --interval 6 --state-dir none "
            f"--quiet-hours '{WINDOW}' " + " ".join(options))
        return self.app

    def dpms(self):
        status, out = self.vm.sh("cat /sys/class/drm/card*-*/dpms")
        self.assertEqual(status, 0, out)
        return out.strip()

    def wait_for_dpms(self, wanted, timeout, since=None):
        """Polls the connector's DPMS state until it reads `wanted`; returns the seconds taken."""
        start = since if since is not None else time.monotonic()
        deadline = time.monotonic() + timeout
        while True:
            state = self.dpms()
            if state == wanted:
                return time.monotonic() - start
            if time.monotonic() > deadline:
                self.fail(f"dpms reads {state!r}, not {wanted!r}, after {timeout} s; log:\n{self.app.log()}")
            time.sleep(0.1)

    def screen_is_black(self):
        with Image.open(self.vm.screendump(self.shot)) as image:
            return image.convert("RGB").getbbox() is None

    def wait_for_photo_on_screen(self, timeout):
        deadline = time.monotonic() + timeout
        while self.screen_is_black():
            if time.monotonic() > deadline:
                self.fail(f"the screen is still black after {timeout} s; log:\n{self.app.log()}")
            time.sleep(0.2)

    def wait_for_showing_count_above(self, app, count, timeout):
        deadline = time.monotonic() + timeout
        while app.log().count("showing") <= count:
            if time.monotonic() > deadline:
                self.fail(f"no fresh photo on waking within {timeout} s; log:\n{app.log()}")
            time.sleep(0.1)

    def assert_holds_for(self, seconds, condition, message):
        """A negative check's bounded window: `condition` is watched every 0.2 s for `seconds` (its
        caller says why that is long enough) and fails the test as soon as it does not hold."""
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            self.assertTrue(condition(), message)
            time.sleep(0.2)
        self.assertTrue(condition(), message)

    # MARK: Tests

    def test_started_inside_a_window_is_dark_and_the_exit_button_still_works(self):
        self.set_clock("2030-01-07 02:00:00")
        # The rig's exit button is the virtio keyboard's Power key: a keyboard counts only when chosen.
        app = self.start("--exit-device", "'QEMU Virtio Keyboard'")
        app.wait_for_log(r"quiet hours began: display off", timeout=60)
        self.wait_for_dpms("Off", timeout=15)
        # Nothing to wait for: the check is that no photo comes. A frame that ignored the window
        # would show its first photo as soon as it was decoded, without waiting for the interval;
        # the display went off after the start, and 2 s more covers that first decode.
        self.assert_holds_for(2, lambda: "showing" not in app.log(), "a photo was decoded and shown in quiet hours")
        self.assertEqual(self.dpms(), "Off")
        self.vm.send_key("power", hold_time=2500)  # the default exit key, held past --exit-hold 1
        self.assertEqual(app.wait(timeout=60), 0, app.log())
        self.assertIn("exit button", app.log())
        self.assertEqual(self.dpms(), "On", "the console comes back lit")

    def test_clock_jumps_across_the_edges_are_followed(self):
        self.set_clock("2030-01-07 12:00:00")
        app = self.start()
        app.wait_for_log(r"showing \S+", timeout=60)
        self.wait_for_photo_on_screen(timeout=10)
        self.assertEqual(self.dpms(), "On")

        jumped = self.set_clock("2030-01-07 19:00:01")
        took = self.wait_for_dpms("Off", timeout=FOLLOW_SECONDS, since=jumped)
        print(f"\n  DPMS off {took:.2f} s after the jump across the start edge")
        app.wait_for_log(r"wall clock was set", timeout=5)
        shown_before = app.log().count("showing")

        jumped = self.set_clock("2030-01-08 07:00:01")
        took = self.wait_for_dpms("On", timeout=FOLLOW_SECONDS, since=jumped)
        print(f"  DPMS on {took:.2f} s after the jump across the end edge")
        self.wait_for_photo_on_screen(timeout=FOLLOW_SECONDS)
        app.wait_for_log(r"quiet hours ended", timeout=5)
        # The old photo stays in the framebuffer through DPMS off, so the screen is lit at once;
        # the fresh photo is decoded after the wake (seconds under TCG), so wait for its log line.
        self.wait_for_showing_count_above(app, shown_before, timeout=30)

    def test_a_frame_started_before_the_end_lights_on_its_own(self):
        # 20 s before the end: time for the start on a loaded machine (it must begin inside the window).
        self.set_clock("2030-01-08 06:59:40")
        app = self.start()
        app.wait_for_log(r"quiet hours began", timeout=60)
        self.wait_for_dpms("Off", timeout=5)
        self.assertNotIn("quiet hours ended", app.log(), "it woke before 07:00")
        # No jump: the timer for the edge at 07:00 wakes it.
        app.wait_for_log(r"quiet hours ended", timeout=45)
        self.wait_for_dpms("On", timeout=FOLLOW_SECONDS)
        app.wait_for_log(r"showing \S+", timeout=30)
        self.wait_for_photo_on_screen(timeout=10)
        self.assertNotIn("wall clock was set", app.log(), "the edge came from the timer, not a jump")

    def test_black_mode_keeps_the_signal_on_with_a_black_picture(self):
        self.set_clock("2030-01-07 12:00:00")
        app = self.start("--quiet-mode", "black")
        app.wait_for_log(r"showing \S+", timeout=60)
        self.wait_for_photo_on_screen(timeout=10)
        jumped = self.set_clock("2030-01-07 23:30:00")
        app.wait_for_log(r"quiet hours began: black screen", timeout=FOLLOW_SECONDS)
        deadline = jumped + FOLLOW_SECONDS
        while not self.screen_is_black():
            if time.monotonic() > deadline:
                self.fail(f"the screen is not black {FOLLOW_SECONDS} s after the jump; log:\n{app.log()}")
            time.sleep(0.2)
        self.assertEqual(self.dpms(), "On", "black mode keeps the signal on")
        # Nothing to wait for: the check is that no photo comes. 7 s is longer than the 6 s
        # interval, so the tick that would show the next photo falls inside the window.
        self.assert_holds_for(7, self.screen_is_black, "a photo came during quiet hours")
        self.assertEqual(self.dpms(), "On")


if __name__ == "__main__":
    unittest.main()
