"""Child-proof input: babyalbum grabs every evdev device in a QEMU guest and only the exit button ends it.

The guest's keyboard and tablet are QEMU's virtio devices, fed from the host over QMP; the exit
button is a uinput device made in the guest by this very file, run there as a helper
(``python3 test_input.py button FIFO NAME``, see ``guest_main``). Whether a device is grabbed is
asked the kernel directly: a second ``EVIOCGRAB`` on it fails with ``EBUSY``.

What is checked (issue 4):
- a storm of touches, swipes and keys (Escape, Alt+F4, Ctrl+Alt+F2, Ctrl+Alt+Del, Alt+SysRq+B,
  a short Power) changes nothing: no reboot, babyalbum still runs, same virtual terminal, same
  picture on the screen;
- the uinput button: a press shorter than ``--exit-hold`` does nothing, a longer hold exits 0 with
  the console back (text mode, grabs released);
- with ``--exit-device`` naming the button, KEY_POWER held on the virtio keyboard does nothing;
- a keyboard hot-plugged after start (QMP ``device_add virtio-keyboard-pci``) is grabbed: its
  Ctrl+Alt+F2 does not switch the terminal (it does once babyalbum has exited: the control case);
- a device another program holds (EBUSY) and devices it may not open (EACCES, run as ``nobody``)
  are logged with their path and cause (the ``input`` group), and babyalbum keeps running.

Only a real button ends it (issue 18):
- with the default options, the virtio keyboard's Power key held 3 s does not end it (the log says
  the keyboard may not), and in the same run a uinput device offering only KEY_POWER does;
- ``--exit-device`` naming the keyboard lets the keyboard end it (and the button then may not);
- a uinput device named and phys-tagged like the Pi's gpio-keys button (``gpio-keys/input0``,
  ``BUS_HOST``) is matched by the settings file deploy/install.sh writes for a Pi (a real staged run), and
  a decoy button without that phys is not.
"""

import errno
import fcntl
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import time
import unittest

# MARK: - Guest side (stdlib only: runs in the guest's chroot of the host's root filesystem)

EV_SYN, EV_KEY, SYN_REPORT, KEY_POWER = 0, 1, 0, 116
BUS_VIRTUAL, BUS_HOST = 0x06, 0x19


def _ioc(direction, kind, number, size):
    return (direction << 30) | (size << 16) | (ord(kind) << 8) | number


UI_DEV_CREATE = _ioc(0, "U", 1, 0)
UI_DEV_DESTROY = _ioc(0, "U", 2, 0)
UI_DEV_SETUP = _ioc(1, "U", 3, 92)  # struct uinput_setup: input_id (8) + name[80] + ff_effects_max (4)
UI_SET_EVBIT = _ioc(1, "U", 100, 4)
UI_SET_KEYBIT = _ioc(1, "U", 101, 4)
UI_SET_PHYS = _ioc(1, "U", 108, 8)  # _IOW('U', 108, char *)
EVIOCGRAB = _ioc(1, "E", 0x90, 4)
KDGETMODE, KD_TEXT = 0x4B3B, 0


def ui_get_sysname(length):
    return _ioc(2, "U", 44, length)


def eviocgname(length):
    return _ioc(2, "E", 0x06, length)


def write_event(fd, kind, code, value):
    # struct input_event on 64-bit: struct timeval (2 longs), u16 type, u16 code, s32 value.
    os.write(fd, struct.pack("llHHi", 0, 0, kind, code, value))


def make_button(name, phys=None):
    """A uinput device with one key, KEY_POWER; returns (uinput fd, /dev/input/eventN).

    With `phys` it poses as the kernel's gpio-keys driver does: that phys (``gpio-keys/input0``),
    ``BUS_HOST``, vendor and product 1, version 0x0100 (drivers/input/keyboard/gpio_keys.c)."""
    fd = os.open("/dev/uinput", os.O_WRONLY | os.O_NONBLOCK)
    fcntl.ioctl(fd, UI_SET_EVBIT, EV_KEY)
    fcntl.ioctl(fd, UI_SET_KEYBIT, KEY_POWER)
    if phys:
        fcntl.ioctl(fd, UI_SET_PHYS, phys.encode() + b"\0")
        setup = struct.pack("HHHH80sI", BUS_HOST, 0x0001, 0x0001, 0x0100, name.encode(), 0)
    else:
        setup = struct.pack("HHHH80sI", BUS_VIRTUAL, 0x1209, 0x0001, 1, name.encode(), 0)
    fcntl.ioctl(fd, UI_DEV_SETUP, setup)
    fcntl.ioctl(fd, UI_DEV_CREATE)
    sysname = fcntl.ioctl(fd, ui_get_sysname(64), bytes(64)).split(b"\0")[0].decode()
    node = None
    deadline = time.monotonic() + 10
    while node is None and time.monotonic() < deadline:
        try:
            events = [e for e in os.listdir(f"/sys/class/input/{sysname}") if e.startswith("event")]
        except FileNotFoundError:
            events = []
        if events and os.path.exists(f"/dev/input/{events[0]}"):
            node = f"/dev/input/{events[0]}"
        else:
            time.sleep(0.01)
    return fd, node


def run_button(fifo, name, phys=None):
    """Serves commands from `fifo`: ``press SECONDS`` (press, hold, release), ``flood N`` (N short
    presses at once), ``quit``."""
    fd, node = make_button(name, phys)
    print(f"node {node}", flush=True)
    try:
        while True:
            with open(fifo) as commands:
                for line in commands:
                    words = line.split()
                    if not words:
                        continue
                    if words[0] == "quit":
                        return
                    if words[0] == "flood":  # short presses, far more than an evdev client buffer holds
                        for _ in range(int(words[1])):
                            write_event(fd, EV_KEY, KEY_POWER, 1)
                            write_event(fd, EV_SYN, SYN_REPORT, 0)
                            write_event(fd, EV_KEY, KEY_POWER, 0)
                            write_event(fd, EV_SYN, SYN_REPORT, 0)
                        print(f"flooded {words[1]}", flush=True)
                    if words[0] == "press":
                        write_event(fd, EV_KEY, KEY_POWER, 1)
                        write_event(fd, EV_SYN, SYN_REPORT, 0)
                        time.sleep(float(words[1]))
                        write_event(fd, EV_KEY, KEY_POWER, 0)
                        write_event(fd, EV_SYN, SYN_REPORT, 0)
                        print(f"pressed {words[1]}", flush=True)
    finally:
        fcntl.ioctl(fd, UI_DEV_DESTROY)
        os.close(fd)


def grab_states():
    """Prints ``NODE grabbed|free|error NAME`` for every evdev node. A device nobody holds is grabbed
    and released again at once, so only call this when no grabber may be starting."""
    nodes = sorted((n for n in os.listdir("/dev/input") if n.startswith("event")), key=lambda n: int(n[5:]))
    for node in nodes:
        path = f"/dev/input/{node}"
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
        try:
            name = fcntl.ioctl(fd, eviocgname(256), bytes(256)).split(b"\0")[0].decode(errors="replace")
            try:
                fcntl.ioctl(fd, EVIOCGRAB, 1)
                fcntl.ioctl(fd, EVIOCGRAB, 0)
                state = "free"
            except OSError as error:
                state = "grabbed" if error.errno == errno.EBUSY else f"error-{error.errno}"
        finally:
            os.close(fd)
        print(f"{path} {state} {name}")


def hold_grab(path):
    """Grabs `path` like another program would, prints ``holding``, and keeps it until killed."""
    fd = os.open(path, os.O_RDONLY)
    fcntl.ioctl(fd, EVIOCGRAB, 1)
    print("holding", flush=True)
    while True:
        time.sleep(60)


def console_mode(tty="/dev/tty1"):
    """Prints ``text`` or ``graphics``: the KDGETMODE of the console."""
    fd = os.open(tty, os.O_RDONLY | os.O_NOCTTY)
    try:
        mode = struct.unpack("i", fcntl.ioctl(fd, KDGETMODE, bytes(4)))[0]
    finally:
        os.close(fd)
    print("text" if mode == KD_TEXT else "graphics")


def guest_main(argv):
    if argv[0] == "button":
        run_button(argv[1], argv[2], argv[3] if len(argv) > 3 else None)
    elif argv[0] == "grab-states":
        grab_states()
    elif argv[0] == "hold-grab":
        hold_grab(argv[1])
    elif argv[0] == "console-mode":
        console_mode()
    else:
        raise SystemExit(f"unknown helper command {argv[0]}")


if __name__ == "__main__" and len(sys.argv) > 1:
    guest_main(sys.argv[1:])
    sys.exit(0)

# MARK: - Host side

from PIL import Image, ImageChops  # noqa: E402  (the guest helper needs only the stdlib)

from vmrig import BABYALBUM_BIN, REPO, VM  # noqa: E402

PHOTOS = os.path.join(REPO, "Photos")
HELPER = os.path.abspath(__file__)
BUTTON_NAME = "BabyAlbum Test Button"
ACTIVE_VT = "/sys/class/tty/tty0/active"


def same_pixels(a_path, b_path):
    with Image.open(a_path) as a, Image.open(b_path) as b:
        a, b = a.convert("RGB"), b.convert("RGB")
        return a.size == b.size and ImageChops.difference(a, b).getbbox() is None


def is_black(path):
    with Image.open(path) as image:
        return image.convert("RGB").getbbox() is None


class GuestInput:
    """Helpers over one VM."""

    def __init__(self, test, vm):
        self.test, self.vm = test, vm

    def sh(self, cmd, timeout=60):
        status, out = self.vm.sh(cmd, timeout=timeout)
        self.test.assertEqual(status, 0, f"guest command failed: {cmd}\n{out}")
        return out

    def active_vt(self):
        return self.sh(f"cat {ACTIVE_VT}").strip()

    def wait_for_vt(self, name, message, timeout=15):
        """Waits until the active terminal is `name` (a switch is asynchronous in the kernel)."""
        deadline = time.monotonic() + timeout
        while self.active_vt() != name:
            self.test.assertLess(time.monotonic(), deadline, f"{message} (active: {self.active_vt()})")
            time.sleep(0.1)

    def steady_screen(self, app, path, timeout=60):
        """Waits until the screen shows a picture that two captures half a second apart agree on
        (the first photo drawn, its fade over) and returns the capture; not a fixed sleep."""
        deadline = time.monotonic() + timeout
        previous = self.vm.still_screendump(path + ".a.png")
        while True:
            time.sleep(0.5)
            current = self.vm.still_screendump(path)
            if not is_black(current) and same_pixels(previous, current):
                return current
            self.test.assertLess(time.monotonic(), deadline, f"the screen never settled on a photo:\n{app.log()}")
            previous = self.vm.still_screendump(path + ".a.png")

    def uptime(self):
        return float(self.sh("cat /proc/uptime").split()[0])

    def grab_states(self):
        """{node: (state, name)} for every evdev node."""
        states = {}
        for line in self.sh(f"python3 {HELPER} grab-states").splitlines():
            path, state, name = line.split(" ", 2)
            states[path] = (state, name)
        return states

    def start_babyalbum(self, *flags):
        """babyalbum with `flags` (shell words) after its photo options; returns when it shows a photo."""
        app = self.vm.spawn(f"{BABYALBUM_BIN} --photos {PHOTOS} --seed 3 --interval 3600 " + " ".join(flags))
        app.wait_for_log(r"grabbed \d+ of \d+ input devices", timeout=120)
        app.wait_for_log(r"showing ", timeout=120)
        return app

    def start_button(self, name=BUTTON_NAME, phys=None, fifo="/tmp/button.fifo"):
        """A uinput button (only KEY_POWER) served by this file's guest helper: (process, fifo, node)."""
        self.sh(f"rm -f {fifo}; mkfifo {fifo}")
        button = self.vm.spawn(f"python3 -u {HELPER} button {fifo} '{name}'" + (f" '{phys}'" if phys else ""))
        node = button.wait_for_log(r"node (/dev/input/event\d+)", timeout=60).group(1)
        return button, fifo, node

    def press(self, button, fifo, seconds):
        count = button.log().count("pressed ")
        self.sh(f"echo 'press {seconds}' > {fifo}")
        deadline = time.monotonic() + 30 + seconds
        while button.log().count("pressed ") == count:
            self.test.assertLess(time.monotonic(), deadline, f"button helper did not press:\n{button.log()}")
            time.sleep(0.05)

    def settle(self, app, seconds):
        """Lets the guest run `seconds` (for the key events to arrive) and asserts babyalbum still runs."""
        time.sleep(seconds)
        self.test.assertFalse(app.exited(), f"babyalbum exited:\n{app.log()}")


def installed_pi_settings():
    """The settings file deploy/install.sh writes for a Raspberry Pi with its exit button
    (/boot/firmware/babyalbum.txt): a real install.sh run, staged (``--root``) in a temporary tree
    like Tests/Deploy's, on this host."""
    root = tempfile.mkdtemp(prefix="babyalbum-input-pi-")
    try:
        os.makedirs(f"{root}/boot/firmware")
        os.makedirs(f"{root}/etc/systemd/system/getty.target.wants")
        os.makedirs(f"{root}/usr/bin")
        with open(f"{root}/boot/firmware/cmdline.txt", "w") as f:
            f.write("console=tty1 root=PARTUUID=4e639091-02 rootwait\n")
        with open(f"{root}/boot/firmware/config.txt", "w") as f:
            f.write("dtoverlay=vc4-kms-v3d\n[all]\n")
        for name in ("passwd", "group", "shadow", "gshadow"):
            shutil.copy(f"/etc/{name}", f"{root}/etc/")
        shutil.copytree("/usr/lib/systemd/system", f"{root}/usr/lib/systemd/system", symlinks=True)
        os.symlink("usr/bin", f"{root}/bin")
        shutil.copy("/usr/bin/dash", f"{root}/usr/bin/sh")
        # Stand-ins for the frame and its decode worker, which install.sh copies beside each other.
        os.makedirs(f"{root}/stand-in")
        for name in ("babyalbum", "babyalbum-decoder"):
            shutil.copy("/bin/true", f"{root}/stand-in/{name}")
        result = subprocess.run(
            ["bash", os.path.join(REPO, "deploy/install.sh"), "--root", root, "--binary", f"{root}/stand-in/babyalbum",
             "--no-apt",
             "--owner", "root", "--board", "pi"], capture_output=True, text=True, timeout=300)
        if result.returncode != 0:
            raise AssertionError(f"staged install.sh failed:\n{result.stdout}{result.stderr}")
        with open(f"{root}/boot/firmware/babyalbum.txt") as f:
            return f.read()
    finally:
        shutil.rmtree(root, ignore_errors=True)


def storm_events():
    """Touches, swipes and clicks on the virtio tablet (absolute axes 0..0x7fff)."""
    events = []
    for i in range(40):
        x, y = (i * 2654435761) % 0x7FFF, (i * 40503) % 0x7FFF
        events.append([{"type": "abs", "data": {"axis": "x", "value": x}},
                       {"type": "abs", "data": {"axis": "y", "value": y}},
                       {"type": "btn", "data": {"down": True, "button": "left"}}])
        for step in range(1, 6):  # a swipe
            events.append([{"type": "abs", "data": {"axis": "x", "value": (x + step * 3000) % 0x7FFF}}])
        events.append([{"type": "btn", "data": {"down": False, "button": "left"}}])
    for button in ("right", "middle", "wheel-up", "wheel-down"):
        events.append([{"type": "btn", "data": {"down": True, "button": button}}])
        events.append([{"type": "btn", "data": {"down": False, "button": button}}])
    return events


#: Key chords a child (or an adult) might hit; each is pressed together, then released.
STORM_CHORDS = [
    ["esc"], ["alt", "f4"], ["ctrl", "alt", "f2"], ["ctrl", "alt", "delete"], ["alt", "sysrq", "b"],
    ["ctrl", "c"], ["ctrl", "alt", "backspace"], ["alt", "tab"], ["meta_l"], ["ret"], ["spc"],
    ["a"], ["q"], ["1"], ["f1"], ["alt", "f2"], ["ctrl", "alt", "f1"], ["power"], ["sleep"],
    ["ctrl", "alt", "f3"], ["alt", "sysrq", "c"], ["ctrl", "d"], ["ctrl", "z"],
]


class InputTests(unittest.TestCase):
    """Each test boots its own guest (about 5 s) and starts babyalbum on the bochs display."""

    def setUp(self):
        if not os.access(BABYALBUM_BIN, os.X_OK):
            self.skipTest(f"{BABYALBUM_BIN} not built (swift build -c release: babyalbum and babyalbum-decoder)")

    def boot(self, devices=None):
        vm = VM(vga="std", devices=devices)
        vm.start()
        self.addCleanup(vm.stop)
        guest = GuestInput(self, vm)
        # The kernel switches only to allocated terminals (a getty would have opened them): open tty2-3.
        guest.sh("for n in 2 3; do : </dev/tty$n; done")
        return vm, guest

    def test_storm_changes_nothing(self):
        vm, guest = self.boot()
        # Control: without babyalbum, Ctrl+Alt+F2 from the virtio keyboard does switch the terminal.
        self.assertEqual(guest.active_vt(), "tty1")
        vm.send_key("ctrl", "alt", "f2")
        guest.wait_for_vt("tty2", "the rig's keyboard cannot switch terminals: control failed")
        vm.send_key("ctrl", "alt", "f1")
        guest.wait_for_vt("tty1", "the rig's keyboard did not switch back")

        app = guest.start_babyalbum()
        states = guest.grab_states()
        self.assertTrue(states, "no input devices in the guest")
        for path, (state, name) in states.items():
            self.assertEqual(state, "grabbed", f"{path} ({name}) not grabbed:\n{app.log()}")
        before = guest.steady_screen(app, os.path.join(vm.out, "before.png"))
        uptime = guest.uptime()

        for batch in storm_events():
            vm.input_events(batch)
        for chord in STORM_CHORDS:
            vm.send_key(*chord, hold_time=50)
        vm.send_key("power", hold_time=300)  # the default exit key, but shorter than --exit-hold 1
        guest.settle(app, 3)

        self.assertGreater(guest.uptime(), uptime, "the guest rebooted")
        self.assertEqual(guest.active_vt(), "tty1", "the virtual terminal switched")
        after = vm.screendump(os.path.join(vm.out, "after.png"))
        self.assertTrue(same_pixels(before, after), "the screen changed during the storm")
        self.assertNotIn("ended the slideshow", app.log())
        app.signal("TERM")
        self.assertEqual(app.wait(timeout=60), 0, app.log())

    def test_exit_button_hold(self):
        vm, guest = self.boot()
        app = guest.start_babyalbum("--exit-key", "KEY_POWER", "--exit-hold", "1", "--exit-device", f"'{BUTTON_NAME}'")
        app.wait_for_log(r"(?i)no grabbed input device carries the exit button", timeout=60)
        button, fifo, node = guest.start_button()
        app.wait_for_log(rf"exit button KEY_POWER \(held 1\.0 s\) on {BUTTON_NAME} \({node}\): "
                         rf"chosen by --exit-device '{BUTTON_NAME}'", timeout=30)

        guest.press(button, fifo, 0.3)  # shorter than --exit-hold: nothing
        guest.settle(app, 2)
        vm.send_key("power", hold_time=2500)  # KEY_POWER held on the virtio keyboard: not the exit device
        guest.settle(app, 2)

        # Overflow the button's evdev buffer while babyalbum is stopped: it resyncs (SYN_DROPPED) and
        # the burst of short presses does not count as a hold.
        app.signal("STOP")
        guest.sh(f"echo 'flood 500' > {fifo}")
        button.wait_for_log("flooded 500", timeout=60)
        app.signal("CONT")
        app.wait_for_log(rf"{BUTTON_NAME} \({node}\) overflowed \(SYN_DROPPED\)", timeout=30)
        guest.settle(app, 2)

        held = time.monotonic()
        guest.press(button, fifo, 2.5)
        status = app.wait(timeout=30)
        self.assertEqual(status, 0, app.log())
        self.assertLess(time.monotonic() - held, 30)
        self.assertEqual(len(re.findall(r"exit button: .*ended the slideshow", app.log())), 1, app.log())
        self.assertRegex(app.log(), rf"KEY_POWER on {BUTTON_NAME} \({node}\)")
        # The console is back: text mode, and every grab released.
        self.assertEqual(guest.sh(f"python3 {HELPER} console-mode").strip(), "text")
        for path, (state, name) in guest.grab_states().items():
            self.assertEqual(state, "free", f"{path} ({name}) still grabbed after exit")
        guest.sh(f"echo quit > {fifo}")

    def test_default_keyboard_power_never_ends_it_but_a_button_does(self):
        vm, guest = self.boot()
        button, fifo, node = guest.start_button()
        # doctor says the same as the start-up log: which devices may end the slideshow, and why.
        _, report = vm.sh(f"{BABYALBUM_BIN} doctor --photos {PHOTOS}", timeout=120)
        self.assertRegex(report, r"'QEMU Virtio Keyboard': can be grabbed, may not end the slideshow "
                                 r"\(a keyboard \(it has letter keys\)")
        self.assertRegex(report, rf"{node} '{BUTTON_NAME}': can be grabbed, EXIT BUTTON \(KEY_POWER\): "
                                 r"a button, not a keyboard")
        app = guest.start_babyalbum()  # the defaults: KEY_POWER held 1 s, from a button, not a keyboard
        self.assertRegex(app.log(), r"QEMU Virtio Keyboard \(/dev/input/event\d+\) may not end the slideshow: "
                                    r"a keyboard \(it has letter keys\)")
        app.wait_for_log(rf"exit button KEY_POWER \(held 1\.0 s\) on {BUTTON_NAME} \({node}\): "
                         r"a button, not a keyboard", timeout=30)

        vm.send_key("power", hold_time=3000)  # the keyboard's Power key, held three times as long as needed
        guest.settle(app, 2)
        self.assertNotIn("ended the slideshow", app.log())

        # Positive control, same run: the button that offers only KEY_POWER ends it after the hold.
        guest.press(button, fifo, 2.5)
        self.assertEqual(app.wait(timeout=30), 0, app.log())
        self.assertRegex(app.log(), rf"KEY_POWER on {BUTTON_NAME} \({node}\)")
        guest.sh(f"echo quit > {fifo}")

    def test_exit_device_naming_the_keyboard_lets_it_end_it(self):
        vm, guest = self.boot()
        button, fifo, node = guest.start_button()
        app = guest.start_babyalbum("--exit-device", "'QEMU Virtio Keyboard'")
        self.assertRegex(app.log(), r"exit button KEY_POWER \(held 1\.0 s\) on QEMU Virtio Keyboard "
                                    r"\(/dev/input/event\d+\): chosen by --exit-device 'QEMU Virtio Keyboard'")
        self.assertRegex(app.log(), rf"{BUTTON_NAME} \({node}\) may not end the slideshow: "
                                    r"not the --exit-device 'QEMU Virtio Keyboard'")
        guest.press(button, fifo, 2.5)  # the button is not the chosen device: nothing
        guest.settle(app, 1)

        vm.send_key("power", hold_time=3000)
        self.assertEqual(app.wait(timeout=30), 0, app.log())
        self.assertRegex(app.log(), r"KEY_POWER on QEMU Virtio Keyboard \(/dev/input/event\d+\)")
        guest.sh(f"echo quit > {fifo}")

    def test_install_sh_binding_matches_the_pis_gpio_keys_button(self):
        settings = installed_pi_settings()
        self.assertRegex(settings, r"(?m)^exit-device = gpio-keys/input0$")
        vm, guest = self.boot()
        settings_path = os.path.join(vm.out, "babyalbum.txt")  # the rig's output folder is shared
        with open(settings_path, "w") as f:
            f.write(settings)
        # The Pi's button as gpio_keys.c registers it (name from the device-tree node, phys
        # gpio-keys/input0), and a decoy button that offers the same key without that phys.
        gpio, gpio_fifo, gpio_node = guest.start_button("button@3", phys="gpio-keys/input0", fifo="/tmp/gpio.fifo")
        decoy, decoy_fifo, decoy_node = guest.start_button("Decoy Power Button", fifo="/tmp/decoy.fifo")
        app = guest.start_babyalbum("--settings", settings_path)
        self.assertRegex(app.log(), rf"exit button KEY_POWER \(held 1\.0 s\) on button@3 \({gpio_node}\): "
                                    r"chosen by --exit-device 'gpio-keys/input0'")
        self.assertRegex(app.log(), rf"Decoy Power Button \({decoy_node}\) may not end the slideshow")

        guest.press(decoy, decoy_fifo, 2.5)
        vm.send_key("power", hold_time=2500)
        guest.settle(app, 1)
        guest.press(gpio, gpio_fifo, 2.5)
        self.assertEqual(app.wait(timeout=30), 0, app.log())
        self.assertRegex(app.log(), rf"KEY_POWER on button@3 \({gpio_node}\)")
        for fifo in (gpio_fifo, decoy_fifo):
            guest.sh(f"echo quit > {fifo}")

    def test_errors_name_the_cause_and_it_keeps_running(self):
        vm, guest = self.boot()
        states = guest.grab_states()
        keyboard = next(path for path, (_, name) in states.items() if name == "QEMU Virtio Keyboard")
        # Another program holds the virtio keyboard: EBUSY for it, the other devices are grabbed.
        other = vm.spawn(f"python3 -u {HELPER} hold-grab {keyboard}")
        other.wait_for_log("holding", timeout=60)
        app = guest.start_babyalbum()
        self.assertRegex(app.log(), rf"{keyboard}: cannot grab: another program holds an exclusive grab on it")
        self.assertRegex(app.log(), rf"grabbed {len(states) - 1} of {len(states)} input devices")
        self.assertRegex(app.log(), r"AT Translated Set 2 keyboard \(/dev/input/event\d+\) may not end the slideshow: "
                                    r"a keyboard \(it has letter keys\)")
        guest.settle(app, 1)
        app.signal("TERM")
        app.wait(timeout=60)
        other.signal("KILL")

        # No permission on the input devices (the display is allowed): the log names the input group.
        guest.sh("chmod 666 /dev/dri/card0")
        binary, photos = vm.reachable_by_any_user(BABYALBUM_BIN, PHOTOS)
        app = vm.spawn(f"setpriv --reuid=65534 --regid=65534 --clear-groups {binary} --photos {photos} "
                       "--interval 3600")
        app.wait_for_log(r"grabbed 0 of \d+ input devices", timeout=120)
        self.assertRegex(app.log(), rf"{keyboard}: open: Permission denied: add the user to the 'input' group")
        # The warning follows the summary line: wait for it rather than read the log once.
        app.wait_for_log(r"NO grabbed input device carries the exit button", timeout=60)
        app.wait_for_log(r"showing ", timeout=120)
        guest.settle(app, 1)
        app.signal("TERM")
        app.wait(timeout=60)

    def test_hotplugged_keyboard_is_grabbed(self):
        vm, guest = self.boot(devices=["virtio-keyboard-pci,id=kbd1", "virtio-tablet-pci"])
        app = guest.start_babyalbum()
        vm.device_del("kbd1")  # from now on, keys reach the guest only through the new keyboard
        app.wait_for_log(r"closed QEMU Virtio Keyboard \(/dev/input/event\d+\)", timeout=60)
        nodes = set(guest.grab_states())
        added = time.monotonic()
        vm.device_add("virtio-keyboard-pci", id="kbd2")
        match = app.wait_for_log(r"grabbed new input device (QEMU Virtio Keyboard) \((/dev/input/event\d+)\)",
                                 timeout=60)
        latency = time.monotonic() - added
        print(f"\n  hot-plugged keyboard grabbed {latency:.2f} s after device_add "
              "(PCI hotplug and driver probe under TCG included)", file=sys.stderr)
        self.assertLess(latency, 3.0, "the new keyboard was grabbed too late (inotify should make it immediate)")
        states = guest.grab_states()
        self.assertNotIn(match.group(2), nodes)
        self.assertEqual(states[match.group(2)][0], "grabbed")

        vm.send_key("ctrl", "alt", "f2")
        guest.settle(app, 2)
        self.assertEqual(guest.active_vt(), "tty1", "Ctrl+Alt+F2 on the new keyboard switched the terminal")
        app.signal("TERM")
        self.assertEqual(app.wait(timeout=60), 0, app.log())

        # Control: once babyalbum is gone, the same keyboard switches terminals again.
        vm.send_key("ctrl", "alt", "f2")
        guest.wait_for_vt("tty2", "the new keyboard's keys did not reach the guest at all")


if __name__ == "__main__":
    unittest.main()
