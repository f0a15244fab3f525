"""A screen that changes its mode while the slideshow runs (issue 14): the photo on screen is made
again at the new size and fills the new mode, pixel for pixel as `--output png:` renders it.

The guest runs virtio-gpu. Its preferred mode changes the way a monitor swapped for another one
changes it: QEMU's display is resized (here by a VNC client's SetDesktopSize, RFB's
ExtendedDesktopSize extension), QEMU tells the guest's driver, and the kernel's connector then
offers the new mode first. The hotplug uevent is sent as the driver would (as test_drm does).
"""

import os
import re
import socket
import struct
import subprocess
import tempfile
import time
import unittest

from PIL import Image, ImageChops

from vmrig import BABYALBUM_BIN, REPO, VM

PHOTOS = os.path.join(REPO, "Photos")
CONNECTOR = "/sys/class/drm/card0-Virtual-1"
HOTPLUG_EVENT = 'echo "change $(cat /proc/sys/kernel/random/uuid) HOTPLUG=1" > /sys/class/drm/card0/uevent'


def load_rgb(path):
    with Image.open(path) as image:
        return image.convert("RGB")


def same_pixels(a, b):
    return a.size == b.size and ImageChops.difference(a, b).getbbox() is None


def render(directory, size):
    """The first frame `--output png:` draws for the test's seed at `size`, and its photo."""
    done = subprocess.run(
        [BABYALBUM_BIN, "--photos", PHOTOS, "--output", f"png:{directory}", "--size", size, "--seed", "3",
         "--count", "1", "--state-dir", "none"],
        check=True, cwd=REPO, capture_output=True, text=True, timeout=300)
    return os.path.basename(re.findall(r"showing (\S+)", done.stderr)[0]), \
        load_rgb(os.path.join(directory, "frame-0001.png"))


def receive(connection, count):
    data = b""
    while len(data) < count:
        chunk = connection.recv(count - len(data))
        if not chunk:
            raise ConnectionError("the VNC server closed the connection")
        data += chunk
    return data


def vnc_set_desktop_size(path, width, height):
    """Asks QEMU's VNC server (a Unix socket) to resize the display: RFB 3.8, no security,
    then SetDesktopSize (message 251) for one screen. Returns the open connection."""
    connection = socket.socket(socket.AF_UNIX)
    connection.connect(path)
    receive(connection, 12)
    connection.sendall(b"RFB 003.008\n")
    types = receive(connection, receive(connection, 1)[0])
    if 1 not in types:
        raise ConnectionError(f"the VNC server wants security types {list(types)}")
    connection.sendall(bytes([1]))
    if struct.unpack(">I", receive(connection, 4))[0] != 0:
        raise ConnectionError("VNC security handshake failed")
    connection.sendall(bytes([1]))  # ClientInit: shared
    server_init = receive(connection, 24)
    receive(connection, struct.unpack(">I", server_init[20:24])[0])  # the desktop's name
    encodings = [0, -308]  # raw, ExtendedDesktopSize
    connection.sendall(struct.pack(">BBH", 2, 0, len(encodings)) + b"".join(struct.pack(">i", e) for e in encodings))
    connection.sendall(struct.pack(">BBHHBB", 251, 0, width, height, 1, 0)
                       + struct.pack(">IHHHHI", 0, 0, 0, width, height, 0))
    return connection


class ModeChangeTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        if not os.access(BABYALBUM_BIN, os.X_OK):
            raise unittest.SkipTest(f"{BABYALBUM_BIN} not built (swift build -c release: babyalbum and babyalbum-decoder)")
        cls.work = tempfile.TemporaryDirectory(prefix="babyalbum-mode-")
        cls.photo, cls.wide = render(os.path.join(cls.work.name, "wide"), "1280x800")
        _, cls.smaller = render(os.path.join(cls.work.name, "smaller"), "1024x768")
        cls.vnc = os.path.join(cls.work.name, "vnc.sock")
        cls.vm = VM(vga="virtio", extra_args=["-vnc", f"unix:{cls.vnc}"])
        cls.vm.start()
        cls.shot = os.path.join(cls.vm.out, "mode.png")

    @classmethod
    def tearDownClass(cls):
        cls.vm.stop()
        cls.work.cleanup()

    def wait_for_screen(self, expected, app, what, timeout=30):
        deadline = time.monotonic() + timeout
        while True:
            screen = load_rgb(self.vm.screendump(self.shot))
            if same_pixels(screen, expected):
                return
            if time.monotonic() > deadline:
                self.fail(f"{what}: the screen ({screen.size[0]}x{screen.size[1]}) differs; log:\n{app.log()}")
            time.sleep(0.5)

    def test_a_new_mode_after_hotplug_is_filled_by_the_photo_made_again(self):
        app = self.vm.spawn(f"{BABYALBUM_BIN} --photos {PHOTOS} --seed 3 --interval 60 --state-dir none")
        shown = app.wait_for_log(r"showing (\S+)", timeout=60).group(1)
        self.assertEqual(os.path.basename(shown), self.photo, app.log())
        self.wait_for_screen(self.wide, app, "positive control: the first mode")

        connection = vnc_set_desktop_size(self.vnc, 1024, 768)
        try:
            deadline = time.monotonic() + 20
            while True:
                status, modes = self.vm.sh(f"cat {CONNECTOR}/modes")
                if modes.split()[:1] == ["1024x768"]:
                    break
                self.assertLess(time.monotonic(), deadline, f"the connector never offered 1024x768 first: {modes}")
                time.sleep(0.5)
            status, out = self.vm.sh(HOTPLUG_EVENT)
            self.assertEqual(status, 0, out)
            app.wait_for_log(r"Virtual-1 connected at 1024x768", timeout=20)
            self.wait_for_screen(self.smaller, app, "the photo made again for 1024x768")
        finally:
            connection.close()
        app.signal("TERM")
        self.assertEqual(app.wait(timeout=30), 0, app.log())


if __name__ == "__main__":
    unittest.main()
