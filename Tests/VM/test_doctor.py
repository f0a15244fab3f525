"""`babyalbum doctor` on a real kernel: in the QEMU guest with a display, a keyboard, a tablet and
an exit button made with uinput, and on machines without a display (the guest without a
graphics card, and this host, which has no /dev/dri).

The doctor must find the bochs display and the mode it would use, the exit-button device, count
the valid photos and name each skipped file with its reason, say that the service is not
installed, exit 0 when nothing stops the frame, and exit 1 with a clear problem otherwise.
"""

import json
import os
import shutil
import subprocess
import unittest

from vmrig import BABYALBUM_BIN, REPO, VM, release_shared_vm, shared_vm

PHOTOS = os.path.join(REPO, "Photos")
BUTTON_NAME = "BabyAlbum exit button"

#: Runs in the guest: a uinput device that can send only KEY_POWER, like the Raspberry Pi's
#: gpio-key button; it lives until the process is killed.
UINPUT_BUTTON = r'''
import fcntl, os, struct, sys, time
UI_SET_EVBIT, UI_SET_KEYBIT, UI_DEV_SETUP, UI_DEV_CREATE = 0x40045564, 0x40045565, 0x405C5503, 0x5501
EV_KEY, KEY_POWER, BUS_HOST = 1, 116, 0x19
fd = os.open("/dev/uinput", os.O_WRONLY | os.O_NONBLOCK)
fcntl.ioctl(fd, UI_SET_EVBIT, EV_KEY)
fcntl.ioctl(fd, UI_SET_KEYBIT, KEY_POWER)
fcntl.ioctl(fd, UI_DEV_SETUP, struct.pack("HHHH80sI", BUS_HOST, 1, 1, 1, sys.argv[1].encode(), 0))
fcntl.ioctl(fd, UI_DEV_CREATE)
print("button created", flush=True)
time.sleep(3600)
'''


def make_photo_folder(parent):
    """Two good photos and four files the slideshow skips, in a folder under `parent`."""
    folder = os.path.join(parent, "doctor-photos")
    os.makedirs(os.path.join(folder, "holiday"))
    good = sorted(n for n in os.listdir(PHOTOS) if n.endswith(".png"))[:2]
    shutil.copy(os.path.join(PHOTOS, good[0]), os.path.join(folder, "first.png"))
    shutil.copy(os.path.join(PHOTOS, good[1]), os.path.join(folder, "holiday", "second.png"))
    with open(os.path.join(PHOTOS, good[0]), "rb") as source:
        data = source.read()
    with open(os.path.join(folder, "truncated.png"), "wb") as out:
        out.write(data[: len(data) // 2])
    open(os.path.join(folder, "empty.png"), "wb").close()
    with open(os.path.join(folder, "notes.txt"), "w") as out:
        out.write("not a photo\n")
    with open(os.path.join(folder, ".hidden.png"), "wb") as out:
        out.write(data)
    return folder


def require_binary(test):
    if not os.access(BABYALBUM_BIN, os.X_OK):
        raise unittest.SkipTest(f"{BABYALBUM_BIN} not built (swift build -c release: babyalbum and babyalbum-decoder)")
    result = subprocess.run([BABYALBUM_BIN, "doctor", "--help"], capture_output=True, text=True, timeout=60)
    test.assertEqual(result.returncode, 0, "babyalbum has no `doctor` subcommand (register Doctor in "
                     f"BabyAlbumCommand's subcommands):\n{result.stdout}{result.stderr}")


class DoctorWithDisplayTests(unittest.TestCase):
    """One guest with the bochs display, keyboard, tablet and a uinput exit button."""

    @classmethod
    def setUpClass(cls):
        cls.vm = shared_vm()
        cls.photos = make_photo_folder(cls.vm.out)
        script = os.path.join(cls.vm.out, "button.py")
        with open(script, "w") as out:
            out.write(UINPUT_BUTTON)
        cls.button = cls.vm.spawn(f"python3 {script} '{BUTTON_NAME}'")
        cls.button.wait_for_log("button created", timeout=30)

    @classmethod
    def tearDownClass(cls):
        release_shared_vm(cls.vm)

    def setUp(self):
        require_binary(self)

    def doctor(self, *args):
        status, output = self.vm.sh(
            f"cd / && {BABYALBUM_BIN} doctor --config /nonexistent --photos {self.photos} "
            + " ".join(args) + " 2>&1", timeout=120)
        return status, output

    def test_json_report_finds_display_exit_button_and_photos(self):
        status, output = self.doctor("--exit-device", f"'{BUTTON_NAME}'", "--json")
        self.assertEqual(status, 0, output)
        report = json.loads(output)
        self.assertTrue(report["ok"], report["problems"])
        self.assertEqual(report["problems"], [])

        display = report["display"]
        self.assertEqual(display["chosen"][:len("/dev/dri/card0 Virtual-1 1280x800@")],
                         "/dev/dri/card0 Virtual-1 1280x800@", display)
        card = display["cards"][0]
        self.assertEqual(card["driver"], "bochs-drm")
        self.assertTrue(card["isChosen"])
        connector = card["connectors"][0]
        self.assertTrue(connector["isConnected"])
        self.assertGreater(len(connector["modes"]), 1)
        self.assertEqual((connector["chosenMode"]["width"], connector["chosenMode"]["height"]), (1280, 800))

        devices = report["input"]["devices"]
        names = {device["name"] for device in devices}
        self.assertIn(BUTTON_NAME, names)
        self.assertIn("QEMU Virtio Keyboard", names)
        self.assertTrue(all(device["grabbable"] for device in devices), devices)
        button = [device for device in devices if device["name"] == BUTTON_NAME][0]
        self.assertEqual(button["exitKeys"], ["KEY_POWER"])
        self.assertEqual(report["input"]["exitButtonDevices"], [button["path"]])
        # --exit-device keeps the keyboard's own KEY_POWER out.
        keyboard = [device for device in devices if device["name"] == "QEMU Virtio Keyboard"][0]
        self.assertEqual(keyboard["exitKeys"], [])

        photos = report["photos"]
        self.assertEqual(photos["valid"], 2)
        reasons = {os.path.relpath(entry["path"], self.photos): entry["reason"] for entry in photos["skipped"]}
        self.assertEqual(set(reasons), {"truncated.png", "empty.png", "notes.txt", ".hidden.png"}, reasons)
        self.assertIn("not a photo name", reasons["notes.txt"])
        self.assertIn("hidden", reasons[".hidden.png"])
        self.assertNotEqual(reasons["truncated.png"], "")
        self.assertNotEqual(reasons["empty.png"], reasons["truncated.png"])

        service = report["service"]
        self.assertIsNone(service.get("unitFile"))
        self.assertFalse(service["systemdRunning"])

    def test_text_report_is_readable_and_exits_0(self):
        status, output = self.doctor("--exit-device", f"'{BUTTON_NAME}'")
        self.assertEqual(status, 0, output)
        self.assertIn("OK: BabyAlbum would draw on /dev/dri/card0 Virtual-1 1280x800@", output)
        self.assertRegex(output, rf"/dev/input/event\d+ '{BUTTON_NAME}': can be grabbed, EXIT BUTTON \(KEY_POWER\)")
        self.assertIn("2 valid photo(s), 4 skipped", output)
        self.assertRegex(output, r"skipped \S+/notes.txt: not a photo name")
        self.assertIn("not installed", output)
        self.assertIn("Result: OK", output)

    def test_missing_exit_button_is_a_problem(self):
        status, output = self.doctor("--exit-device", "'no such button'", "--json")
        self.assertEqual(status, 1, output)
        report = json.loads(output)
        self.assertFalse(report["ok"])
        self.assertEqual(len(report["problems"]), 1, report["problems"])
        self.assertIn("no input device sends the exit key KEY_POWER", report["problems"][0])
        self.assertEqual(report["input"]["exitButtonDevices"], [])

    def test_empty_photo_folder_is_a_problem(self):
        empty = os.path.join(self.vm.out, "no-photos")
        os.makedirs(empty, exist_ok=True)
        status, output = self.vm.sh(
            f"{BABYALBUM_BIN} doctor --config /nonexistent --photos {empty} --exit-device '{BUTTON_NAME}'",
            timeout=120)
        self.assertEqual(status, 1, output)
        self.assertIn(f"PROBLEM: no valid photo in {empty}", output)


class DoctorWithoutDisplayTests(unittest.TestCase):
    """No display at all: a clear problem and exit status 1."""

    def setUp(self):
        require_binary(self)

    def test_guest_without_graphics_card(self):
        with VM(vga=None) as vm:
            status, output = vm.sh(f"{BABYALBUM_BIN} doctor --config /nonexistent --photos {PHOTOS} --json",
                                   timeout=120)
            self.assertEqual(status, 1, output)
            report = json.loads(output)
            self.assertFalse(report["ok"])
            self.assertIsNone(report["display"].get("chosen"))
            self.assertTrue(any(problem.startswith("display: ") for problem in report["problems"]),
                            report["problems"])
            self.assertEqual(report["photos"]["valid"], len([n for n in os.listdir(PHOTOS) if n.endswith(".png")]))

    def test_this_machine_without_dri(self):
        if os.path.exists("/dev/dri"):
            self.skipTest("this machine has /dev/dri")
        result = subprocess.run(
            [BABYALBUM_BIN, "doctor", "--config", "/nonexistent", "--photos", PHOTOS],
            capture_output=True, text=True, timeout=120)
        self.assertEqual(result.returncode, 1, result.stdout + result.stderr)
        self.assertIn("PROBLEM: display: no DRM display device", result.stdout)
        self.assertIn("/dev/dri/card", result.stdout)
        self.assertIn("problem(s) would stop the frame", result.stdout)


if __name__ == "__main__":
    unittest.main()
