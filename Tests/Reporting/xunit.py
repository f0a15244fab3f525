#!/usr/bin/python3
"""Per-test records in the JUnit/xunit XML that `swift test --xunit-output` writes (stdlib only).

Every rig (Tests/VM/run, Tests/Deploy/run, Tests/Sync/run, Tests/Package/run, Tests/Image/run)
writes one record a test: passed, failed or skipped (with the reason), and its time. They go to
$BABYALBUM_RESULTS/<suite>.xml when scripts/test sets BABYALBUM_RESULTS (a folder); without it the
records are only counted. scripts/test sums every file of a step with `summary`.

As a library (Python rigs):
    records = Records("VM")                      # or Records("VM", path)
    records.add("name", "passed", 1.5)           # "failed" or "skipped" take a message
    result = run_unittest(records, suite, verbosity)   # unittest: each test becomes a record
    records.write(); print(records.line())       # "VM tests: 5 passed, 0 failed, 1 skipped"

From the command line (bash rigs, scripts/test):
    xunit.py add FILE SUITE NAME passed|failed|skipped SECONDS [MESSAGE]
    xunit.py summary PATH...   (files, or folders of *.xml): names every failed and skipped test,
                               then prints "N passed, M failed, K skipped" (exit 2 without records)
"""
import os
import re
import sys
import time
import unittest
import xml.etree.ElementTree as ElementTree

STATUSES = ("passed", "failed", "skipped")

#: What XML 1.0 cannot hold, even escaped: control characters but tab, newline and carriage
#: return (a guest console's ESC), surrogates, U+FFFE and U+FFFF.
NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def xml_text(text):
    """`text` with each character XML cannot hold written as Python writes its escape (ESC
    becomes "\\x1b"): a record that quotes a console stays readable, and the file stays XML."""
    return NOT_XML.sub(lambda match: match.group().encode("unicode_escape").decode("ascii"), text)


class Record:
    """One test's result: its name, status, seconds and (failed or skipped) message."""

    def __init__(self, classname, name, status, seconds, message=""):
        if status not in STATUSES:
            raise ValueError(f"status {status!r} is not one of {STATUSES}")
        self.classname, self.name, self.status = xml_text(classname), xml_text(name), status
        self.seconds, self.message = float(seconds), xml_text(message)

    def element(self):
        """The record as a <testcase> element."""
        case = ElementTree.Element("testcase", classname=self.classname, name=self.name,
                                   time=f"{self.seconds:.3f}")
        if self.status == "failed":
            ElementTree.SubElement(case, "failure", message=first_line(self.message)).text = self.message
        elif self.status == "skipped":
            ElementTree.SubElement(case, "skipped", message=self.message)
        return case


def first_line(text):
    """A message's one-line reason (the attribute; the whole text is the element's): its first
    non-empty line, or a traceback's last (the exception)."""
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    if not lines:
        return ""
    return lines[-1] if lines[0].startswith("Traceback") else lines[0]


def default_path(suite):
    """$BABYALBUM_RESULTS/<suite>.xml, or None when BABYALBUM_RESULTS is not set."""
    folder = os.environ.get("BABYALBUM_RESULTS")
    return os.path.join(folder, f"{suite}.xml") if folder else None


class Records:
    """One suite's records, written as one xunit file."""

    def __init__(self, suite, path=None):
        self.suite, self.records = suite, []
        self.path = path if path is not None else default_path(suite)

    def add(self, name, status, seconds, message="", classname=None):
        """Adds one record (and writes the file, so a rig that dies keeps what it recorded)."""
        self.records.append(Record(classname or self.suite, name, status, seconds, message))
        self.write()

    def count(self, status):
        """How many records have this status."""
        return sum(1 for record in self.records if record.status == status)

    def line(self):
        """The rig's last line: "SUITE tests: N passed, M failed, K skipped"."""
        counts = ", ".join(f"{self.count(status)} {status}" for status in STATUSES)
        return f"{self.suite} tests: {counts}"

    def tree(self):
        """The records as a <testsuites> document."""
        root = ElementTree.Element("testsuites")
        suite = ElementTree.SubElement(
            root, "testsuite", name=self.suite, tests=str(len(self.records)), errors="0",
            failures=str(self.count("failed")), skipped=str(self.count("skipped")),
            time=f"{sum(record.seconds for record in self.records):.3f}")
        suite.extend(record.element() for record in self.records)
        ElementTree.indent(root)
        return ElementTree.ElementTree(root)

    def write(self):
        """Writes the file (atomically), when there is a path."""
        if not self.path:
            return
        os.makedirs(os.path.dirname(os.path.abspath(self.path)), exist_ok=True)
        temporary = self.path + ".new"
        self.tree().write(temporary, encoding="UTF-8", xml_declaration=True)
        os.replace(temporary, self.path)

    @classmethod
    def load(cls, path, suite):
        """The records already in a file (none when it does not exist), to add to."""
        records = cls(suite, path)
        if os.path.exists(path):
            records.records = [read_case(case) for case in ElementTree.parse(path).iter("testcase")]
        return records


def read_case(case):
    """A <testcase> element as a Record: a <failure> or <error> fails it, a <skipped> skips it."""
    status, message = "passed", ""
    for child in case:
        if child.tag in ("failure", "error"):
            status, message = "failed", child.text or child.get("message", "")
            break
        if child.tag == "skipped":
            status, message = "skipped", child.get("message", "") or (child.text or "")
    return Record(case.get("classname", ""), case.get("name", ""), status, case.get("time") or 0, message)


# ---- unittest ----------------------------------------------------------------------------------

class RecordingResult(unittest.TextTestResult):
    """A TextTestResult that also adds one record a test to `records` (set by run_unittest)."""

    records = None

    def startTest(self, test):
        self.started = time.monotonic()
        super().startTest(test)

    def _record(self, test, status, message=""):
        seconds = time.monotonic() - getattr(self, "started", time.monotonic())
        classname = f"{self.records.suite}.{type(test).__module__}.{type(test).__name__}"
        name = getattr(test, "_testMethodName", None) or str(test)
        self.records.add(name, status, seconds, message, classname)

    def addSuccess(self, test):
        super().addSuccess(test)
        self._record(test, "passed")

    def addFailure(self, test, err):
        super().addFailure(test, err)
        self._record(test, "failed", self.failures[-1][1])

    def addError(self, test, err):
        super().addError(test, err)
        self._record(test, "failed", self.errors[-1][1])

    def addSkip(self, test, reason):
        super().addSkip(test, reason)
        self._record(test, "skipped", reason)

    def addExpectedFailure(self, test, err):
        super().addExpectedFailure(test, err)
        self._record(test, "passed")

    def addUnexpectedSuccess(self, test):
        super().addUnexpectedSuccess(test)
        self._record(test, "failed", "passed unexpectedly (marked as an expected failure)")


def run_unittest(records, suite, verbosity=1, stream=None):
    """Runs a unittest suite with one record a test; returns unittest's result."""
    result_class = type("BoundRecordingResult", (RecordingResult,), {"records": records})
    runner = unittest.TextTestRunner(verbosity=verbosity, stream=stream or sys.stdout,
                                     resultclass=result_class)
    return runner.run(suite)


# ---- summing -----------------------------------------------------------------------------------

def files(paths):
    """The xunit files among paths: files as given, folders' *.xml files in name order."""
    for path in paths:
        if os.path.isdir(path):
            yield from sorted(os.path.join(path, name) for name in os.listdir(path) if name.endswith(".xml"))
        elif os.path.exists(path):
            yield path


def summary(paths, out=sys.stdout):
    """Prints every failed and skipped record (with its reason) and the counts line; returns
    (passed, failed, skipped, number of records)."""
    counts = dict.fromkeys(STATUSES, 0)
    for path in files(paths):
        for case in ElementTree.parse(path).iter("testcase"):
            record = read_case(case)
            counts[record.status] += 1
            label = f"{record.classname}.{record.name}" if record.classname else record.name
            if record.status != "passed":
                reason = first_line(record.message) or "no reason recorded"
                print(f"{'FAIL' if record.status == 'failed' else 'skipped'} - {label}: {reason}", file=out)
    print(", ".join(f"{counts[status]} {status}" for status in STATUSES), file=out)
    return counts["passed"], counts["failed"], counts["skipped"], sum(counts.values())


def main(arguments):
    """The command line: add, summary."""
    if len(arguments) >= 6 and arguments[0] == "add":
        path, suite, name, status, seconds = arguments[1:6]
        records = Records.load(path, suite)
        records.add(name, status, seconds, arguments[6] if len(arguments) > 6 else "")
        return 0
    if len(arguments) >= 2 and arguments[0] == "summary":
        return 0 if summary(arguments[1:])[3] > 0 else 2
    print(__doc__, file=sys.stderr)
    return 64


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
