#!/usr/bin/python3
"""scripts/dtb-exit-button on the Raspberry Pi device trees of Debian's linux-image-arm64, without
building the card (issue 35): each tree, decompiled with dtc after the change, has a gpio-keys node
sending KEY_POWER (linux,code = <0x74>) on GPIO 3, active low, of the GPIO controller that the
tree itself names (found by compatible, its phandle read from the tree), I2C1 off, and nothing
else changed; a second run changes nothing; a tree without the controller is refused, untouched.

Usage: Tests/Image/test_dtb_exit_button.py [-v]     (Python unittest, standard library only)
  BABYALBUM_DTB_DIR=DIR        test the .dtb files in DIR instead of downloading
  BABYALBUM_DTB_SUITES=...     the Debian releases whose kernel's trees are tested (default
                               "bookworm trixie": the card's release and the next card's)
The kernel package is fetched with `apt-get download` through a throwaway apt configuration
(arm64, deb.debian.org or $BABYALBUM_MIRROR) and unpacked with dpkg-deb -x; the trees are kept in
$BABYALBUM_DTB_CACHE (default /var/cache/babyalbum/dtb) so a second run downloads nothing.
Needs device-tree-compiler, apt, dpkg.
"""

import fnmatch
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import exit_button  # noqa: E402

REPO = os.path.dirname(os.path.dirname(HERE))
SCRIPT = os.path.join(REPO, "scripts", "dtb-exit-button")
MIRROR = os.environ.get("BABYALBUM_MIRROR", "http://deb.debian.org/debian")
CACHE = os.environ.get("BABYALBUM_DTB_CACHE", "/var/cache/babyalbum/dtb")


def run(*args, **kw):
    return subprocess.run(args, check=kw.pop("check", True), capture_output=True, text=True, **kw)


def decompile(path):
    return run("dtc", "-q", "-I", "dtb", "-O", "dts", path).stdout


def debian_trees(suite):
    """The folder of the Pi trees (broadcom/*.dtb) of `suite`'s linux-image-arm64, downloaded once."""
    apt = os.path.join(CACHE, suite, "apt")
    os.makedirs(os.path.join(apt, "lists", "partial"), exist_ok=True)
    os.makedirs(os.path.join(apt, "archives", "partial"), exist_ok=True)
    with open(os.path.join(apt, "sources.list"), "w") as f:
        f.write(f"deb {MIRROR} {suite} main\n")
    open(os.path.join(apt, "status"), "a").close()
    options = ["-o", f"Dir::Etc::SourceList={apt}/sources.list", "-o", "Dir::Etc::SourceParts=/dev/null",
               "-o", f"Dir::State::Lists={apt}/lists", "-o", f"Dir::State::status={apt}/status",
               "-o", f"Dir::Cache={apt}", "-o", "APT::Architecture=arm64", "-o", "APT::Architectures=arm64",
               "-o", "Debug::NoLocking=1"]
    if not glob.glob(os.path.join(apt, "lists", "*_Packages*")):
        run("apt-get", "-qq", *options, "update")
    # The metapackage names the kernel: linux-image-arm64 Depends linux-image-6.1.0-N-arm64.
    shown = run("apt-cache", *options, "show", "linux-image-arm64").stdout
    kernel = re.search(r"^Depends: .*?(linux-image-[0-9][^ ,]*-arm64)", shown, re.M).group(1)
    trees = os.path.join(CACHE, suite, kernel)
    if not glob.glob(os.path.join(trees, "*.dtb")):
        download = tempfile.mkdtemp(prefix="babyalbum-dtb.")
        try:
            run("apt-get", "-qq", *options, "download", kernel, cwd=download)
            deb = glob.glob(os.path.join(download, "*.deb"))[0]
            unpacked = os.path.join(download, "root")
            run("dpkg-deb", "-x", deb, unpacked)
            broadcom = glob.glob(os.path.join(unpacked, "usr/lib/linux-image-*/broadcom"))[0]
            os.makedirs(trees, exist_ok=True)
            for tree in glob.glob(os.path.join(broadcom, "bcm*-rpi-*.dtb")):
                shutil.copy(tree, trees)
        finally:
            shutil.rmtree(download, ignore_errors=True)
    return kernel, trees


def sources():
    """[(what, folder of .dtb files)] to test."""
    if os.environ.get("BABYALBUM_DTB_DIR"):
        return [(os.environ["BABYALBUM_DTB_DIR"], os.environ["BABYALBUM_DTB_DIR"])]
    found = []
    for suite in os.environ.get("BABYALBUM_DTB_SUITES", "bookworm trixie").split():
        kernel, folder = debian_trees(suite)
        found.append((f"{suite} {kernel}", folder))
    return found


class PatchedTrees:
    """What every script that patches Debian's Pi trees must do (mixed into a unittest.TestCase
    with `script`, the script's path): copies of each suite's Pi 3/4 family trees patched once in
    setUpClass (`sets`: what, original folder, copies, the run's result); a second run changes
    nothing; a tree without the GPIO controller is refused, untouched."""

    script = None

    @classmethod
    def setUpClass(cls):
        cls.work = tempfile.mkdtemp(prefix=f"babyalbum-{os.path.basename(cls.script)}-test.")
        cls.sets = []
        for what, folder in sources():
            copies = os.path.join(cls.work, re.sub(r"\W+", "-", what))
            os.makedirs(copies)
            for tree in sorted(p for g in exit_button.BUTTON_TREE_GLOBS for p in glob.glob(os.path.join(folder, g))):
                shutil.copy(tree, copies)
            changed = run(cls.script, *sorted(glob.glob(os.path.join(copies, "*.dtb"))), check=False)
            cls.sets.append((what, folder, copies, changed))

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.work, ignore_errors=True)

    def test_a_second_run_changes_nothing(self):
        for what, _, copies, _ in self.sets:
            tree = os.path.join(copies, "bcm2837-rpi-3-b.dtb")
            with open(tree, "rb") as f:
                once = f.read()
            run(self.script, tree)
            with open(tree, "rb") as f:
                self.assertEqual(f.read(), once, what)

    def test_a_tree_without_the_controller_is_refused_untouched(self):
        _, folder, _, _ = self.sets[0]
        tree = os.path.join(self.work, "no-gpio.dtb")
        source = decompile(os.path.join(folder, "bcm2837-rpi-3-b.dtb"))
        self.assertIn('"brcm,bcm2835-gpio"', source)
        source = source.replace('"brcm,bcm2835-gpio"', '"example,not-a-gpio"')
        run("dtc", "-q", "-I", "dts", "-O", "dtb", "-o", tree, input=source)
        with open(tree, "rb") as f:
            before = f.read()
        result = run(self.script, tree, check=False)
        self.assertEqual(result.returncode, 1)
        self.assertIn("0 GPIO controllers", result.stderr)
        with open(tree, "rb") as f:
            self.assertEqual(f.read(), before)


class DebianTrees(PatchedTrees, unittest.TestCase):
    script = SCRIPT

    def test_the_kernel_has_every_pi_tree_of_the_card(self):
        for what, folder, _, _ in self.sets:
            with self.subTest(what):
                names = {os.path.basename(p) for p in glob.glob(os.path.join(folder, "*.dtb"))}
                self.assertEqual([n for n in exit_button.PI_TREES if n not in names], [], f"{what} lacks trees")

    def test_every_tree_has_the_exit_button(self):
        for what, _, copies, changed in self.sets:
            self.assertEqual(changed.returncode, 0, f"{what}: {changed.stderr}")
            trees = sorted(glob.glob(os.path.join(copies, "*.dtb")))
            self.assertGreaterEqual(len(trees), len(exit_button.PI_TREES))
            for tree in trees:
                with self.subTest(f"{what} {os.path.basename(tree)}"):
                    source = decompile(tree)
                    self.assertEqual(exit_button.problems(source), [])
                    print(f"  {what} {os.path.basename(tree)}: {exit_button.describe(source)}", file=sys.stderr)

    def test_only_the_button_and_i2c1_change(self):
        """The decompiled tree after the change equals the original but for the new node's lines
        and I2C1's status."""
        for what, folder, copies, _ in self.sets:
            for tree in sorted(glob.glob(os.path.join(copies, "*.dtb"))):
                with self.subTest(f"{what} {os.path.basename(tree)}"):
                    before = exit_button.parse(decompile(os.path.join(folder, os.path.basename(tree))))
                    after = exit_button.parse(decompile(tree))
                    added = sorted(set(after) - set(before))
                    self.assertEqual(added, ["/exit-button", "/exit-button/exit"])
                    self.assertEqual(sorted(set(before) - set(after)), [])
                    differing = sorted(p for p in before if before[p] != after[p])
                    self.assertIn(differing, ([], [p for p in before if p.endswith("/" + exit_button.I2C1)]))
                    for path in differing:
                        diff = {k for k in set(before[path]) | set(after[path]) if before[path].get(k) != after[path].get(k)}
                        self.assertEqual(diff, {"status"})

    def test_the_phandle_is_the_trees_own(self):
        """The Pi 3's and the Pi 4's controllers differ (compatible): each button points at the
        phandle of its own tree's controller."""
        for what, _, copies, _ in self.sets:
            seen = {}
            for name in ("bcm2837-rpi-3-b.dtb", "bcm2711-rpi-4-b.dtb"):
                nodes = exit_button.parse(decompile(os.path.join(copies, name)))
                [controller] = exit_button.gpio_controllers(nodes)
                phandle = exit_button.cells(nodes[controller]["phandle"])[0]
                self.assertEqual(exit_button.cells(nodes["/exit-button/exit"]["gpios"]), [phandle, 3, 1])
                seen[name] = (exit_button.strings(nodes[controller]["compatible"]), phandle)
            with self.subTest(what):
                self.assertEqual(seen["bcm2837-rpi-3-b.dtb"][0], ["brcm,bcm2835-gpio"])
                self.assertEqual(seen["bcm2711-rpi-4-b.dtb"][0], ["brcm,bcm2711-gpio"])

    def test_other_pi_trees_are_refused_untouched(self):
        """A Pi tree outside the Pi 3 and 4 families (trixie's bcm2712-rpi-5-b.dtb) has no GPIO
        controller the script knows: refused, untouched (scripts/image leaves it off the card)."""
        others = [(what, tree) for what, folder, _, _ in self.sets for tree in glob.glob(os.path.join(folder, "bcm*-rpi-*.dtb"))
                  if not any(fnmatch.fnmatch(os.path.basename(tree), g) for g in exit_button.BUTTON_TREE_GLOBS)]
        if not others:
            self.skipTest("no other Pi trees in " + ", ".join(what for what, _, _, _ in self.sets))
        for what, tree in others:
            with self.subTest(f"{what} {os.path.basename(tree)}"):
                copy = os.path.join(self.work, os.path.basename(tree))
                shutil.copy(tree, copy)
                result = run(SCRIPT, copy, check=False)
                self.assertEqual(result.returncode, 1)
                self.assertIn("0 GPIO controllers", result.stderr)
                with open(tree, "rb") as a, open(copy, "rb") as b:
                    self.assertEqual(a.read(), b.read())


class Checker(unittest.TestCase):
    """exit_button.problems is not vacuous: it finds what is wrong with a tree."""

    TREE = """/dts-v1/;

/ {
\tsoc {
\t\tgpio@7e200000 {
\t\t\tcompatible = "brcm,bcm2835-gpio";
\t\t\tgpio-controller;
\t\t\tphandle = <0x0b>;
\t\t};

\t\ti2c@7e804000 {
\t\t\tcompatible = "brcm,bcm2835-i2c";
\t\t\tstatus = "%(i2c)s";
\t\t};
\t};

\texit-button {
\t\tcompatible = "%(compatible)s";

\t\texit {
\t\t\tgpios = <%(gpios)s>;
\t\t\tlinux,code = <%(code)s>;
\t\t};
\t};
};
"""
    GOOD = {"i2c": "disabled", "compatible": "gpio-keys", "gpios": "0x0b 0x03 0x01", "code": "0x74"}

    def problems(self, **change):
        return exit_button.problems(self.TREE % dict(self.GOOD, **change))

    def test_good(self):
        self.assertEqual(self.problems(), [])

    def test_each_fault_is_found(self):
        self.assertEqual(self.problems(compatible="gpio-leds"), ["no gpio-keys node"])
        self.assertIn("no key", self.problems(code="0x73")[0])
        self.assertIn("not on GPIO 3 active low", self.problems(gpios="0x0b 0x02 0x01")[0])
        self.assertIn("not on GPIO 3 active low", self.problems(gpios="0x0b 0x03 0x00")[0])
        self.assertIn("not on GPIO 3 active low", self.problems(gpios="0x0c 0x03 0x01")[0])
        self.assertIn("I2C1", self.problems(i2c="okay")[0])


if __name__ == "__main__":
    unittest.main()
