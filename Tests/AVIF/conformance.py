#!/usr/bin/python3
"""The av1-avif conformance files shown through the frame, compared with libavif's avifdec.

  conformance.py check-sums [DIR]
      every file of SHA256SUMS (beside the files, in DIR: by default the vendored subset,
      Tests/Fixtures/avif-conformance) has its checksum; exits 1 otherwise
  conformance.py compare [--root ROOT] [--program BIN] [--files DIR] [--limit N] [--json OUT] [NAME...]
      each AVIF of DIR (or the NAMEs, paths relative to it) decoded by avifdec (Debian's
      libavif-bin, dav1d) and shown by BIN (`--output png:` at the photo's own size after its
      transforms, `--scale fit`): prints one line a file with the mean absolute difference per
      channel (0 to 255) and exits 1 when a file differs by more than N (default 3; an HDR one,
      PQ or HLG, by more than N + 1: see HDR_ALLOWANCE), when the
      frame does not show a file that avifdec decodes, or shows one that avifdec refuses.
      With --root, BIN (default /usr/bin/babyalbum) and avifdec are those of the Debian file
      tree ROOT (another release's libraries: the Package suite's trixie root), run there by
      chroot with /proc and /dev mounted in a mount namespace of their own; the comparison
      itself runs here
  conformance.py tagged DIR
      writes into DIR one AVIF of Photos/meadow.png (avifenc) for each colour class that the set
      lacks or has only once: Display P3 (12/13/1), BT.2020 SDR (9/1/9, 10 bits), HDR PQ (9/16/9) and
      HDR HLG (9/18/9); and an image sequence without a primary item (only its track: the vendored
      Netflix Chimera with its `meta` box renamed `free`); `compare --files DIR` then compares them
  conformance.py verdicts [--root ROOT] [--program BIN] DIR
      each HEIF or AVIF file of DIR (e.g. libheif's examples and fuzzing corpus, Nokia's HEIF
      conformance files) shown by BIN at 320x240 and decoded by libheif's heif-convert (ROOT's,
      with --root, as for compare): exits 1 when one crashes the worker, hangs,
      is skipped without a one-line reason, or when the frame shows a file heif-convert refuses or
      refuses one it decodes
  conformance.py tracks-only IN OUT
      IN (an image sequence) with its `meta` box renamed `free`: its tracks alone (a fuzz seed)
  conformance.py reference FILE OUT.png
      avifdec's decode of FILE as the frame would show it: transforms applied, alpha over black

The reference: `avifdec -d 8` writes the image as coded (libavif leaves `clap`, `irot` and `imir`
to the caller), so this script applies them itself in the order the AVIF specification gives
(clean aperture, then rotation, then mirror), reading the boxes with its own parser, not the
frame's; an alpha channel is composited over black, as the frame draws a photo over its black
backdrop. A file that avifdec refuses in its strict mode only (a `clap` at an odd offset in a 4:2:0
image) is compared with `avifdec --no-strict`: libheif shows it, and so does the frame. A file that
avifdec refuses outright must be refused by the frame with one line naming it, not crash or hang.

Colour: the frame converts a photo's nclx description to sRGB (CColour), avifdec writes the coded
RGB. Files with BT.709 primaries (1) or unspecified ones (2), and an SDR transfer, are compared
as they are. Others (wide gamut, HDR) are converted here to sRGB by `srgb_reference`, written
apart from the frame's C code (docs/formats-and-colour.md describes both), before comparing.
"""
import hashlib
import json
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import threading
import time
from fractions import Fraction

from PIL import Image, ImageChops, ImageStat

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
VENDORED = os.path.join(REPO, "Tests", "Fixtures", "avif-conformance")
AVIFDEC = "/usr/bin/avifdec"
#: HDR transfers (PQ, HLG): their files are compared after a tone mapping to SDR, which spreads a
#: reference's rounding. avifdec 0.11 (Debian 12) and 1.2.1 (Debian 13) themselves differ by 2.74
#: after it on Netflix's hdr_cosmos12920 qp10, where the frame's output is the same on both
#: Debian's libheif: those files are allowed this much more than the limit.
HDR_TRANSFERS = (16, 18)
HDR_ALLOWANCE = 1.0
#: The Debian file tree the frame and avifdec run in (`compare --root`), or None: this machine.
ROOT = None
#: How long the frame may take to show one photo (a 4K AVIF decodes in about a second).
FRAME_TIMEOUT = 120


# ---- ISO-BMFF: the primary item's transforms and colour, read here (not by the frame's code) ----

def boxes(data, start=0, end=None):
    """(type, body start, body end) of each box in data[start:end]."""
    end = len(data) if end is None else end
    at = start
    while at + 8 <= end:
        size, kind = struct.unpack(">I4s", data[at:at + 8])
        header = 8
        if size == 1:
            size = struct.unpack(">Q", data[at + 8:at + 16])[0]
            header = 16
        elif size == 0:
            size = end - at
        if size < header or at + size > end:
            return
        yield kind.decode("latin-1"), at + header, at + size
        at += size


def child(data, start, end, kind, skip=0):
    for found, body, stop in boxes(data, start + skip, end):
        if found == kind:
            return body, stop
    return None


def brands(data):
    found = child(data, 0, len(data), "ftyp")
    if not found:
        return []
    body, stop = found
    return [data[body:body + 4].decode("latin-1")] + [
        data[at:at + 4].decode("latin-1") for at in range(body + 8, stop - 3, 4)]


def primary_properties(data):
    """The primary item's properties, {type: [bodies as bytes]} in their ipma order, or {}."""
    meta = child(data, 0, len(data), "meta")
    if not meta:
        return {}
    pitm = child(data, *meta, "pitm", skip=4)
    iprp = child(data, *meta, "iprp", skip=4)
    if not pitm or not iprp:
        return {}
    version = data[pitm[0]]
    primary = struct.unpack(">H" if version == 0 else ">I", data[pitm[0] + 4:pitm[0] + (6 if version == 0 else 8)])[0]
    ipco = child(data, *iprp, "ipco")
    ipma = child(data, *iprp, "ipma")
    properties = [(kind, bytes(data[body:stop])) for kind, body, stop in boxes(data, *ipco)]
    at = ipma[0]
    version, flags = data[at], int.from_bytes(data[at + 1:at + 4], "big")
    count = struct.unpack(">I", data[at + 4:at + 8])[0]
    at += 8
    found = {}
    for _ in range(count):
        item = struct.unpack(">H" if version < 1 else ">I", data[at:at + (2 if version < 1 else 4)])[0]
        at += 2 if version < 1 else 4
        associations = data[at]
        at += 1
        for _ in range(associations):
            if flags & 1:
                index = struct.unpack(">H", data[at:at + 2])[0] & 0x7FFF
                at += 2
            else:
                index = data[at] & 0x7F
                at += 1
            if item == primary and 0 < index <= len(properties):
                kind, body = properties[index - 1]
                found.setdefault(kind, []).append(body)
    return found


def transforms(data):
    """The primary item's clap (a crop box: left, top, width, height, as Fractions of the image's
    size, resolved later), irot (quarter turns anticlockwise) and imir (0 or 1), as found."""
    properties = primary_properties(data)
    result = {}
    if "clap" in properties:
        values = struct.unpack(">8i", properties["clap"][0][:32])
        width, height = Fraction(values[0], values[1]), Fraction(values[2], values[3])
        horizontal, vertical = Fraction(values[4], values[5]), Fraction(values[6], values[7])
        result["clap"] = (width, height, horizontal, vertical)
    if "irot" in properties:
        result["irot"] = properties["irot"][0][0] & 3
    if "imir" in properties:
        result["imir"] = properties["imir"][0][0] & 1
    return result


def nclx(data):
    """The primary item's colr nclx: (primaries, transfer, matrix, full range), or None."""
    for body in primary_properties(data).get("colr", []):
        if body[:4] == b"nclx":
            primaries, transfer, matrix = struct.unpack(">HHH", body[4:10])
            return primaries, transfer, matrix, bool(body[10] & 0x80)
    return None


def apply_transforms(image, found):
    """clap, then irot, then imir (AVIF 1.1 section 4: the order of the transformative properties)."""
    if "clap" in found:
        width, height, horizontal, vertical = found["clap"]
        # ISO/IEC 14496-12 12.1.4: the aperture's centre is offset from the image's centre.
        centre_x = horizontal + Fraction(image.width - 1, 2)
        centre_y = vertical + Fraction(image.height - 1, 2)
        left = centre_x - (width - 1) / 2
        top = centre_y - (height - 1) / 2
        box = (int(left), int(top), int(left) + int(width), int(top) + int(height))
        image = image.crop(box)
    turns = found.get("irot", 0)
    if turns:
        image = image.transpose({1: Image.ROTATE_90, 2: Image.ROTATE_180, 3: Image.ROTATE_270}[turns])
    if "imir" in found:
        # imir mode 0: top and bottom exchanged (a horizontal axis); 1: left and right (libavif's
        # "top-to-bottom" and "left-to-right"; Link-U's kimono.mirror-*.avif agree).
        image = image.transpose(Image.FLIP_TOP_BOTTOM if found["imir"] == 0 else Image.FLIP_LEFT_RIGHT)
    return image


def over_black(image):
    """RGB, with an alpha channel composited over black as the frame does ((c * a + 127) / 255)."""
    if image.mode in ("RGBA", "LA"):
        rgba = image.convert("RGBA")
        black = Image.new("RGBA", rgba.size, (0, 0, 0, 255))
        alpha = rgba.getchannel("A")
        return Image.composite(rgba, black, alpha).convert("RGB")
    return image.convert("RGB")


# ---- wide gamut and HDR: an sRGB reference computed here ----

def srgb_reference(image, colour):
    """avifdec's RGB (as coded) converted to what the frame is meant to show for `colour`
    (primaries, transfer, matrix, range); None when the frame shows the coded RGB as it is."""
    if colour is None:
        return None
    primaries, transfer, _, _ = colour
    if primaries in (1, 2) and transfer in (1, 2, 6, 13, 14, 15):
        return None
    import srgb_reference as reference  # a module of its own, written apart from CColour
    return reference.convert(image, primaries, transfer)


# ---- the comparison ----

def inside(path):
    """`path` (under ROOT when there is one) as the programs under test see it."""
    return "/" + os.path.relpath(path, ROOT) if ROOT else path


def command_in_root(command):
    """`command` as run in ROOT: chroot, with this machine's /proc and /dev mounted there in a
    private mount namespace (gone with the command), as the frame's sandbox needs them."""
    if not ROOT:
        return command
    script = 'mount --bind /proc "$0/proc" && mount --bind /dev "$0/dev" && exec chroot "$0" "$@"'
    return ["unshare", "--mount", "--propagation", "private", "sh", "-c", script, ROOT] + command


def avifdec(path, out, strict=True):
    command = [AVIFDEC, "--jobs", "1", "-d", "8"] + ([] if strict else ["--no-strict"]) + [inside(path), inside(out)]
    result = subprocess.run(command_in_root(command), capture_output=True, text=True, timeout=300)
    return result.returncode == 0, (result.stdout + result.stderr).strip()


def reference(path, out):
    """Writes the reference to `out`; returns (decoded, how, libavif's words)."""
    decoded, words = avifdec(path, out)
    how = "avifdec"
    if not decoded:
        decoded, loose_words = avifdec(path, out, strict=False)
        how = "avifdec --no-strict"
        if decoded:
            words = words.splitlines()[-1] if words else ""
        else:
            words = loose_words
    if not decoded:
        return False, how, words
    with open(path, "rb") as file:
        data = file.read()
    with Image.open(out) as decoded_image:
        image = decoded_image.copy()
    if "avis" not in brands(data)[:1]:
        image = apply_transforms(image, transforms(data))
    image = over_black(image)
    converted = srgb_reference(image, nclx(data))
    if converted is not None:
        image = converted
        how += ", converted to sRGB here"
    image.save(out)
    return True, how, words


def show(program, path, size, work):
    """The frame's frame of `path` at `size` (None when it showed nothing) and its log."""
    photos, frames = os.path.join(work, "photos"), os.path.join(work, "frames")
    shutil.rmtree(photos, ignore_errors=True)
    shutil.rmtree(frames, ignore_errors=True)
    os.makedirs(photos)
    os.makedirs(frames)
    os.symlink(inside(os.path.abspath(path)), os.path.join(photos, os.path.basename(path)))
    command = [program, "--photos", inside(photos), "--output", "png:" + inside(frames), "--size", f"{size[0]}x{size[1]}",
               "--scale", "fit", "--count", "1", "--transition", "none", "--sticks", "none",
               "--state-dir", "none", "--settings", "/nonexistent"]
    # The frame logs to standard error; a photo it skips leaves it on a black screen, waiting for
    # another: it is stopped as soon as it says so.
    lines = []
    process = subprocess.Popen(command_in_root(command), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    timer = threading.Timer(FRAME_TIMEOUT, process.kill)
    timer.start()
    try:
        for line in process.stderr:
            lines.append(line)
            if "skipping " in line or "could be read" in line:
                process.terminate()
        process.wait()
    finally:
        timer.cancel()
    log = "".join(lines)
    frame = os.path.join(frames, "frame-0001.png")
    if not os.path.exists(frame) or any("skipping " in line for line in lines):
        return None, log
    with Image.open(frame) as shown:
        return shown.convert("RGB"), log


def mean_difference(a, b):
    """The mean absolute difference per channel, 0 to 255."""
    return sum(ImageStat.Stat(ImageChops.difference(a, b)).mean) / 3


def refusal_line(log, name):
    """The frame's line about a photo it skipped ("skipping PATH: REASON"), or None."""
    for line in log.splitlines():
        if "skipping " in line and name in line:
            return line
    return None


def compare_one(program, files, name, limit, work):
    """(passed, line, details) for one file."""
    path = os.path.join(files, name)
    ref = os.path.join(work, "reference.png")
    started = time.monotonic()
    decoded, how, words = reference(path, ref)
    if not decoded:
        frame, log = show(program, path, (640, 480), work)
        line = refusal_line(log, os.path.basename(name))
        # Refused with its own reason: a libheif that decodes AV1 does not lack "an AV1 decoder".
        ok = frame is None and line is not None and "\\n" not in line and "no AV1 decoder" not in line
        verdict = f"refused by libavif ({words.splitlines()[-1] if words else 'no reason'}); the frame: " + (
            line.split("] ", 1)[-1] if line else "no line" if frame is None else "SHOWN")
        return ok, verdict, {"name": name, "libavif": "refused", "frame": line, "passed": ok}
    with Image.open(ref) as expected_image:
        expected = expected_image.convert("RGB")
    frame, log = show(program, path, expected.size, work)
    seconds = time.monotonic() - started
    if frame is None:
        line = refusal_line(log, os.path.basename(name)) or log.strip().splitlines()[-1:]
        return False, f"NOT SHOWN by the frame ({line}); {how} decodes it", {
            "name": name, "libavif": how, "frame": str(line), "passed": False}
    with open(path, "rb") as file:
        data = file.read()
    if (nclx(data) or (0, 0))[1] in HDR_TRANSFERS:
        limit += HDR_ALLOWANCE
    difference = mean_difference(frame, expected)
    ok = difference <= limit
    detail = {"name": name, "libavif": how, "size": list(expected.size), "difference": round(difference, 3),
              "seconds": round(seconds, 2), "passed": ok}
    line = f"{difference:6.2f}  {expected.size[0]}x{expected.size[1]}  ({how})"
    layered = {"a1op", "lsel"} & set(primary_properties(data))
    factor = min(4, 7680 // expected.size[0], 4320 // expected.size[1])  # the frame's largest --size
    if layered and factor >= 2:
        # A layer shown at its own size looks like another one scaled down to it: the frame and
        # the reference are compared enlarged too (up to 4 times: the frame's bilinear
        # enlargement, and Pillow's), where a layer of lower resolution shows.
        size = (expected.size[0] * factor, expected.size[1] * factor)
        enlarged, _ = show(program, path, size, work)
        larger = mean_difference(enlarged, expected.resize(size, Image.BILINEAR)) if enlarged else 255.0
        detail["enlarged_difference"] = round(larger, 3)
        ok = ok and larger <= limit
        detail["passed"] = ok
        line += f"; enlarged {factor} times ({'/'.join(sorted(layered))}): {larger:.2f}"
    return ok, line, detail


def avif_names(files):
    names = []
    for folder, _, found in os.walk(files):
        for name in found:
            if name.endswith(".avif"):
                names.append(os.path.relpath(os.path.join(folder, name), files))
    return sorted(names)


def compare(arguments):
    global ROOT
    program = None
    files, limit, report, names = VENDORED, 3.0, None, []
    while arguments:
        argument = arguments.pop(0)
        if argument == "--root":
            ROOT = os.path.abspath(arguments.pop(0))
        elif argument == "--program":
            program = arguments.pop(0)
        elif argument == "--files":
            files = arguments.pop(0)
        elif argument == "--limit":
            limit = float(arguments.pop(0))
        elif argument == "--json":
            report = arguments.pop(0)
        else:
            names.append(argument)
    if program is None:
        program = "/usr/bin/babyalbum" if ROOT else os.environ.get(
            "BABYALBUM_BIN", os.path.join(REPO, ".build", "debug", "babyalbum"))
    if not os.path.exists((ROOT or "") + AVIFDEC):
        print(f"conformance: avifdec is missing from {ROOT or 'this machine'} "
              "(Debian's libavif-bin: scripts/install-deps --test)")
        return 1
    names = names or avif_names(files)
    work = tempfile.mkdtemp(prefix="babyalbum-avif-", dir=os.path.join(ROOT, "tmp") if ROOT else None)
    results, failures = [], 0
    try:
        if ROOT:  # the files where the programs in ROOT can read them
            files = shutil.copytree(files, os.path.join(work, "files"), symlinks=False,
                                    ignore=lambda folder, found: [n for n in found if n.endswith((".png", ".jpg"))])
        for name in names:
            ok, line, detail = compare_one(program, files, name, limit, work)
            results.append(detail)
            failures += 0 if ok else 1
            print(f"{'ok  ' if ok else 'FAIL'} {name}: {line}", flush=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    if report:
        with open(report, "w") as out:
            json.dump(results, out, indent=1)
    print(f"conformance: {len(names) - failures} passed, {failures} failed (mean difference at most {limit:g})")
    return 1 if failures else 0


#: The colour classes of `tagged`: name, CICP (primaries/transfer/matrix), bit depth.
TAGGED = [("display-p3", "12/13/1", 8), ("bt2020-sdr", "9/1/9", 10), ("pq", "9/16/9", 10), ("hlg", "9/18/9", 10)]


def tagged(arguments):
    folder = arguments[0]
    os.makedirs(folder, exist_ok=True)
    source = os.path.join(folder, "meadow-640.png")
    with Image.open(os.path.join(REPO, "Photos", "meadow.png")) as meadow:
        meadow.convert("RGB").resize((640, 426), Image.LANCZOS).save(source)
    for name, cicp, depth in TAGGED:
        out = os.path.join(folder, f"{name}.avif")
        # The samples are taken as coded in the named space (avifenc converts nothing): what the
        # frame makes of the tag is what is compared.
        subprocess.run(["/usr/bin/avifenc", "-s", "8", "--min", "4", "--max", "4", "-d", str(depth), "--yuv", "444",
                        "--cicp", cicp, "-r", "full", source, out], check=True, capture_output=True)
    os.unlink(source)
    tracks_only(os.path.join(VENDORED, "Netflix", "avis", "Chimera-AV1-10bit-480x270.avif"),
                os.path.join(folder, "sequence-tracks-only.avif"))
    print(f"tagged: {len(TAGGED) + 1} files in {folder}")
    return 0


def tracks_only(source, out):
    """`source` with its top-level `meta` box renamed `free`: a sequence of tracks alone."""
    with open(source, "rb") as sequence:
        data = bytearray(sequence.read())
    for kind, body, _ in list(boxes(data)):
        if kind == "meta":
            data[body - 4:body] = b"free"
    with open(out, "wb") as written:
        written.write(data)
    return 0


def primary_index(path):
    """Which of the file's top-level images (heif-info's order, heif-convert's) is the primary
    one, or None."""
    info = subprocess.run(command_in_root(["heif-info", inside(path)]), capture_output=True, text=True,
                          timeout=120).stdout
    images = [line for line in info.splitlines() if line.startswith("image: ")]
    return next((n for n, line in enumerate(images) if line.rstrip().endswith("primary")), None)


def reference_decodes(path, work):
    """(heif-convert's exit status, whether it decoded the primary image of `path`): it converts
    every top-level image (OUT-1.png, OUT-2.png, ... where there are several) and fails when one
    fails (1.23 on Nokia's files: the primary written, then "Layered HEVC images (lhv1) are not
    supported yet" for the other), so the primary's file is what counts; a file of tracks alone is
    decoded by `heif-dec --sequence` where there is one (1.23)."""
    outputs = os.path.join(work, "reference")
    shutil.rmtree(outputs, ignore_errors=True)
    os.makedirs(outputs)
    status = subprocess.run(command_in_root(["heif-convert", inside(path), inside(os.path.join(outputs, "out.png"))]),
                            capture_output=True, timeout=120).returncode
    if status != 0 and os.listdir(outputs):
        primary = primary_index(path)
        written = os.listdir(outputs)
        return status, primary is not None and (f"out-{primary + 1}.png" in written or written == ["out.png"])
    if status != 0 and os.path.exists((ROOT or "") + "/usr/bin/heif-dec"):
        try:  # without its edit list: Nokia's C038 repeats its samples forever
            subprocess.run(command_in_root(["heif-dec", "--sequence", "--ignore-editlist", "--quiet", inside(path),
                                            inside(os.path.join(outputs, "sequence.png"))]),
                           capture_output=True, timeout=120)
        except subprocess.TimeoutExpired:
            pass  # what it wrote by then counts
    return status, status == 0 or any(name.endswith(".png") for name in os.listdir(outputs))


def verdicts(arguments):
    global ROOT
    program = None
    while arguments[:1] in (["--program"], ["--root"]):
        if arguments[0] == "--root":
            ROOT = os.path.abspath(arguments[1])
        else:
            program = arguments[1]
        arguments = arguments[2:]
    if program is None:
        program = "/usr/bin/babyalbum" if ROOT else os.environ.get(
            "BABYALBUM_BIN", os.path.join(REPO, ".build", "debug", "babyalbum"))
    folder = arguments[0]
    work = tempfile.mkdtemp(prefix="babyalbum-heif-", dir=os.path.join(ROOT, "tmp") if ROOT else None)
    counts, problems = {}, 0
    try:
        if ROOT:
            folder = shutil.copytree(folder, os.path.join(work, "files"))
        for name in sorted(os.listdir(folder)):
            path = os.path.join(folder, name)
            frame, log = show(program, path, (320, 240), work)
            line = refusal_line(log, name)
            verdict = "shown" if frame is not None else "refused" if line else "skipped without a line"
            bad = [entry for entry in log.splitlines() if "SIG" in entry or "timed out" in entry or "\\n" in entry]
            status, decoded = reference_decodes(path, work)
            # heif-convert killed by a signal (1.15's dies of SIGSEGV on Nokia's files with Exif
            # and on its sequences) has no verdict: the frame's own is still checked.
            crashed = (status < 0 or status >= 128) and not decoded
            counts[verdict] = counts.get(verdict, 0) + 1
            if crashed:
                counts["heif-convert crashed"] = counts.get("heif-convert crashed", 0) + 1
                print(f"note {name}: heif-convert crashed (status {status}); the frame: {verdict}")
            if bad or verdict.startswith("skipped") or (not crashed and decoded != (verdict == "shown")):
                problems += 1
                print(f"FAIL {name}: the frame: {verdict}; heif-convert: {'decodes' if decoded else 'refuses'}; "
                      f"{(bad or [line or ''])[0][-200:]}")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print(f"verdicts: {sum(counts.values())} files, " + ", ".join(f"{n} {k}" for k, n in sorted(counts.items()))
          + f"; {problems} problems")
    return 1 if problems else 0


def check_sums(arguments):
    folder = arguments[0] if arguments else VENDORED
    bad = 0
    with open(os.path.join(folder, "SHA256SUMS")) as sums:
        lines = [line.split(None, 1) for line in sums if line.strip()]
    for digest, name in lines:
        name = name.strip().lstrip("*")
        path = os.path.join(folder, name)
        if not os.path.exists(path):
            print(f"missing: {name}")
            bad += 1
            continue
        with open(path, "rb") as file:
            if hashlib.sha256(file.read()).hexdigest() != digest:
                print(f"checksum differs: {name}")
                bad += 1
    print(f"check-sums: {len(lines) - bad} of {len(lines)} files as listed")
    return 1 if bad else 0


def main():
    sys.path.insert(0, HERE)
    arguments = sys.argv[1:]
    if not arguments:
        print(__doc__)
        return 64
    command = arguments.pop(0)
    if command == "compare":
        return compare(arguments)
    if command == "check-sums":
        return check_sums(arguments)
    if command == "tagged" and len(arguments) == 1:
        return tagged(arguments)
    if command == "tracks-only" and len(arguments) == 2:
        tracks_only(*arguments)
        return 0
    if command == "verdicts" and arguments:
        return verdicts(arguments)
    if command == "reference" and len(arguments) == 2:
        decoded, how, words = reference(arguments[0], arguments[1])
        print(how if decoded else f"refused: {words}")
        return 0 if decoded else 1
    print(__doc__)
    return 64


if __name__ == "__main__":
    sys.exit(main())
