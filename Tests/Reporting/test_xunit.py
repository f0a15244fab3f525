#!/usr/bin/python3
"""The xunit helper's own tests: python3 Tests/Reporting/test_xunit.py (seconds, no VM)."""
import io
import os
import subprocess
import sys
import tempfile
import unittest

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import xunit  # noqa: E402

# What `swift test --xunit-output` (Swift Testing, 6.3) writes: a skipped test has <skipped>.
SWIFT_TESTING = """<?xml version="1.0" encoding="UTF-8"?>
<testsuites>
  <testsuite name="TestResults" errors="0" tests="3" failures="1" skipped="1" time="0.5">
    <testcase classname="AModule.Suite" name="passes()" time="0.1" />
    <testcase classname="AModule.Suite" name="fails()" time="0.2">
      <failure message="Expectation failed: 1 == 2" />
    </testcase>
    <testcase classname="AModule.Suite" name="needsRoot()" time="0">
      <skipped />
    </testcase>
  </testsuite>
</testsuites>
"""


def xunit_command(*arguments, check=False):
    """xunit.py's command line, as the bash rigs and scripts/test run it."""
    return subprocess.run([sys.executable, os.path.join(HERE, "xunit.py"), *arguments], capture_output=True,
                          text=True, check=check)


def sample():
    """A TestCase with one test of each outcome, for run_unittest (not itself discovered)."""

    class Sample(unittest.TestCase):
        def test_passes(self):
            pass

        def test_fails(self):
            self.fail("on purpose")

        def test_errs(self):
            raise OSError("no such device")

        @unittest.skip("needs a GPU")
        def test_skipped(self):
            pass

    return Sample


def summed(*paths):
    """summary()'s counts and printed text."""
    out = io.StringIO()
    counts = xunit.summary(paths, out)
    return counts, out.getvalue()


class XunitTests(unittest.TestCase):
    def setUp(self):
        self.folder = tempfile.mkdtemp(prefix="babyalbum-xunit-test.")

    def test_unittest_outcomes_become_records(self):
        records = xunit.Records("Sample", os.path.join(self.folder, "Sample.xml"))
        suite = unittest.TestLoader().loadTestsFromTestCase(sample())
        xunit.run_unittest(records, suite, stream=io.StringIO())
        self.assertEqual(records.line(), "Sample tests: 1 passed, 2 failed, 1 skipped")
        counts, text = summed(self.folder)
        self.assertEqual(counts, (1, 2, 1, 4))
        self.assertIn(f"skipped - Sample.{__name__}.Sample.test_skipped: needs a GPU", text)
        self.assertIn(f"FAIL - Sample.{__name__}.Sample.test_errs: OSError: no such device", text)
        self.assertTrue(text.endswith("1 passed, 2 failed, 1 skipped\n"))

    def test_swift_testings_skipped_tests_are_skipped(self):
        with open(os.path.join(self.folder, "swift-swift-testing.xml"), "w") as file:
            file.write(SWIFT_TESTING)
        counts, text = summed(self.folder)
        self.assertEqual(counts, (1, 1, 1, 3))
        self.assertIn("skipped - AModule.Suite.needsRoot(): no reason recorded", text)
        self.assertIn("FAIL - AModule.Suite.fails(): Expectation failed: 1 == 2", text)

    def test_the_command_line_adds_to_a_file(self):
        path = os.path.join(self.folder, "Deploy.xml")
        for name, status, message in (("a", "passed", ""), ("b", "skipped", "BABYALBUM_SKIP_SYSTEMD_VM")):
            xunit_command("add", path, "Deploy", name, status, "1.5", message, check=True)
        result = xunit_command("summary", self.folder)
        self.assertEqual(result.returncode, 0)
        self.assertEqual(result.stdout, "skipped - Deploy.b: BABYALBUM_SKIP_SYSTEMD_VM\n1 passed, 0 failed, 1 skipped\n")

    def test_no_records_is_its_own_exit_status(self):
        result = xunit_command("summary", self.folder)
        self.assertEqual((result.returncode, result.stdout), (2, "0 passed, 0 failed, 0 skipped\n"))

    def test_a_message_quoting_a_console_is_kept_readable_and_the_file_stays_xml(self):
        # A guest console's colours (ESC) in a failure once made the file unreadable: the next
        # record's `add` failed to parse it, and that test went unrecorded.
        path = os.path.join(self.folder, "Deploy.xml")
        console = "[\x1b[0;32m  OK  \x1b[0m] Reached target sysinit.target\x07"
        for name, status, message in (("a", "failed", console), ("b", "passed", "")):
            xunit_command("add", path, "Deploy", name, status, "1.5", message, check=True)
        result = xunit_command("summary", self.folder)
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertEqual(result.stdout, "FAIL - Deploy.a: [\\x1b[0;32m  OK  \\x1b[0m] Reached target "
                         "sysinit.target\\x07\n1 passed, 1 failed, 0 skipped\n")

    def test_an_unknown_status_is_refused(self):
        with self.assertRaises(ValueError):
            xunit.Record("Suite", "name", "ok", 0)


def main():
    """Runs the tests; their records go to $BABYALBUM_RESULTS/Reporting.xml when it is set."""
    records = xunit.Records("Reporting")
    suite = unittest.TestLoader().loadTestsFromTestCase(XunitTests)
    result = xunit.run_unittest(records, suite, verbosity=2 if "-v" in sys.argv[1:] else 1)
    print(records.line())
    sys.exit(0 if result.wasSuccessful() and result.testsRun > 0 else 1)


if __name__ == "__main__":
    main()
