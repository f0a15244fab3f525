#!/usr/bin/python3
"""scripts/dtb-clock-bus on the Raspberry Pi device trees of Debian's linux-image-arm64 (bookworm
and trixie), without building the card: each Pi 3/4 family tree, decompiled with dtc after the
change, has an i2c-gpio node /clock-i2c with SDA on GPIO 23 and SCL on GPIO 24, open drain, of
the tree's own GPIO controller (its phandle), and nothing else changed; a second run changes
nothing; a tree without the controller is refused, untouched. The trees come as for
test_dtb_exit_button.py ($BABYALBUM_DTB_CACHE, BABYALBUM_DTB_DIR, BABYALBUM_DTB_SUITES).

Usage: Tests/Image/test_dtb_clock_bus.py [-v]     (Python unittest, standard library only)
"""

import glob
import os
import sys
import unittest

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import exit_button  # noqa: E402
from test_dtb_exit_button import PatchedTrees, decompile, run  # noqa: E402

SCRIPT = os.path.join(os.path.dirname(os.path.dirname(HERE)), "scripts", "dtb-clock-bus")
SDA, SCL, OPEN_DRAIN = 23, 24, 6


def bus_problems(source):
    """What is wrong with the clock bus of a decompiled tree; [] when it is right."""
    nodes = exit_button.parse(source)
    bus = nodes.get("/clock-i2c")
    if bus is None:
        return ["no /clock-i2c node"]
    problems = []
    if exit_button.strings(bus.get("compatible")) != ["i2c-gpio"]:
        problems.append(f"/clock-i2c is not i2c-gpio: {bus.get('compatible')}")
    controllers = exit_button.gpio_controllers(nodes)
    phandle = exit_button.cells(nodes[controllers[0]]["phandle"])[0] if len(controllers) == 1 else None
    for name, pin in (("sda-gpios", SDA), ("scl-gpios", SCL)):
        if exit_button.cells(bus.get(name)) != [phandle, pin, OPEN_DRAIN]:
            problems.append(f"{name} is {bus.get(name)}, not GPIO {pin} open drain of the tree's controller")
    if exit_button.cells(bus.get("#address-cells")) != [1] or exit_button.cells(bus.get("#size-cells")) != [0]:
        problems.append("the bus's #address-cells/#size-cells are not 1/0")
    return problems


class DebianTrees(PatchedTrees, unittest.TestCase):
    script = SCRIPT

    def test_every_tree_has_the_bus_and_nothing_else_changed(self):
        for what, folder, copies, changed in self.sets:
            self.assertEqual(changed.returncode, 0, f"{what}: {changed.stderr}")
            trees = sorted(glob.glob(os.path.join(copies, "*.dtb")))
            self.assertGreaterEqual(len(trees), len(exit_button.PI_TREES))
            for tree in trees:
                with self.subTest(f"{what} {os.path.basename(tree)}"):
                    source = decompile(tree)
                    self.assertEqual(bus_problems(source), [])
                    before = exit_button.parse(decompile(os.path.join(folder, os.path.basename(tree))))
                    after = exit_button.parse(source)
                    self.assertEqual(sorted(set(after) - set(before)), ["/clock-i2c"])
                    self.assertEqual(sorted(p for p in before if before[p] != after.get(p)), [])
            print(f"  {what}: /clock-i2c (i2c-gpio, SDA GPIO {SDA}, SCL GPIO {SCL}) in {len(trees)} trees",
                  file=sys.stderr)

    def test_the_button_and_the_bus_go_together(self):
        """scripts/image runs both scripts: the button's checks still hold with the bus added."""
        for what, _, copies, _ in self.sets:
            tree = os.path.join(copies, "bcm2711-rpi-4-b.dtb")
            run(os.path.join(os.path.dirname(SCRIPT), "dtb-exit-button"), tree)
            source = decompile(tree)
            with self.subTest(what):
                self.assertEqual(exit_button.problems(source), [])
                self.assertEqual(bus_problems(source), [])


class Checker(unittest.TestCase):
    """bus_problems is not vacuous."""

    TREE = """/dts-v1/;

/ {
\tgpio@7e200000 {
\t\tcompatible = "brcm,bcm2835-gpio";
\t\tphandle = <0x0b>;
\t};

\tclock-i2c {
\t\tcompatible = "%(compatible)s";
\t\tsda-gpios = <%(sda)s>;
\t\tscl-gpios = <0x0b 0x18 0x06>;
\t\t#address-cells = <0x01>;
\t\t#size-cells = <0x00>;
\t};
};
"""

    def test_good_and_faults(self):
        good = {"compatible": "i2c-gpio", "sda": "0x0b 0x17 0x06"}
        self.assertEqual(bus_problems(self.TREE % good), [])
        self.assertIn("not i2c-gpio", bus_problems(self.TREE % dict(good, compatible="i2c-gpio-x"))[0])
        self.assertIn("sda-gpios", bus_problems(self.TREE % dict(good, sda="0x0b 0x03 0x06"))[0])
        self.assertIn("sda-gpios", bus_problems(self.TREE % dict(good, sda="0x0c 0x17 0x06"))[0])
        self.assertIn("sda-gpios", bus_problems(self.TREE % dict(good, sda="0x0b 0x17 0x00"))[0])


if __name__ == "__main__":
    unittest.main()
