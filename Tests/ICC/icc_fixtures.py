#!/usr/bin/python3
"""Hostile ICC profiles, made at test time (the standard library only: ICC.1:2010, v4).

  icc_fixtures.py mpet N OUT.icc
      an RGB display profile whose D2B0 multi-process-element tag lists one small 3->3 CLUT
      element N times (lcms2 evaluates every one of them for each grid point of its transform);
      an identity lut16 A2B0 beside it
  icc_fixtures.py clut G OUT.icc
      the same with one element whose CLUT claims G x G x G grid points (its data absent)
  icc_fixtures.py plain OUT.icc
      the same with one element: a profile lcms2 converts with, quickly
"""
import struct
import sys


def s15(value):
    return struct.pack(">i", int(round(value * 65536)))


def pad(data):
    return data + b"\0" * (-len(data) % 4)


def mluc(text):
    encoded = text.encode("utf-16-be")
    return b"mluc" + b"\0" * 4 + struct.pack(">II", 1, 12) + b"enUS" + struct.pack(">II", len(encoded), 28) + encoded


def xyz(x, y, z):
    return b"XYZ " + b"\0" * 4 + s15(x) + s15(y) + s15(z)


def identity_lut16():
    matrix = b"".join(s15(1.0 if row == column else 0.0) for row in range(3) for column in range(3))
    tables = struct.pack(">HH", 0, 65535) * 3
    clut = b"".join(struct.pack(">HHH", r * 0x7FFF, g * 0x7FFF, b * 0x7FFF)
                    for r in range(2) for g in range(2) for b in range(2))
    return b"mft2" + b"\0" * 4 + struct.pack(">BBBB", 3, 3, 2, 0) + matrix + struct.pack(">HH", 2, 2) + tables + clut + tables


def clut_element(grid, with_data=True):
    points = grid ** 3
    data = b"".join(struct.pack(">fff", (i % 2) * 1.0, (i // 2 % 2) * 1.0, (i // 4 % 2) * 1.0)
                    for i in range(points)) if with_data else b""
    return b"clut" + b"\0" * 4 + struct.pack(">HH", 3, 3) + bytes([grid] * 3 + [0] * 13) + data


def mpet(count, element):
    """A multi-process-element tag whose position table lists `element` `count` times."""
    header = 16 + 8 * count
    return (b"mpet" + b"\0" * 4 + struct.pack(">HHI", 3, 3, count) + struct.pack(">II", header, len(element)) * count
            + element)


def profile(tags):
    table_size = 4 + 12 * len(tags)
    offset = 128 + table_size
    entries, blobs = b"", b""
    for signature, data in tags:
        entries += struct.pack(">4sII", signature.encode(), offset + len(blobs), len(data))
        blobs += pad(data)
    size = 128 + table_size + len(blobs)
    header = (struct.pack(">I", size) + b"\0" * 4 + struct.pack(">I", 0x04300000) + b"mntrRGB XYZ " + b"\0" * 12
              + b"acsp" + b"\0" * 24 + struct.pack(">I", 0) + s15(0.9642) + s15(1.0) + s15(0.8249))
    header += b"\0" * (128 - len(header))
    return header + struct.pack(">I", len(tags)) + entries + blobs


def main(argv):
    command = argv[1]
    if command == "mpet":
        d2b0 = mpet(int(argv[2]), clut_element(2))
    elif command == "clut":
        d2b0 = mpet(1, clut_element(int(argv[2]), with_data=False))
    elif command == "plain":
        d2b0 = mpet(1, clut_element(2))
    else:
        sys.exit(__doc__)
    tags = [("desc", mluc(f"BabyAlbum {command} test")), ("wtpt", xyz(0.9642, 1.0, 0.8249)), ("A2B0", identity_lut16()),
            ("D2B0", d2b0)]
    with open(argv[-1], "wb") as f:
        f.write(profile(tags))


if __name__ == "__main__":
    main(sys.argv)
