#!/usr/bin/python3
"""HEIF test files, made at test time with libheif's own heif-enc, and Pillow references.

  heif_fixtures.py photo OUT.png W H [--alpha] [--sixteen]   a synthetic photo (gradients, shapes)
  heif_fixtures.py single IN.png OUT.heic                    one HEVC image (heif-enc -q 90)
  heif_fixtures.py grid IN.png OUT.heic [--tile N] [--irot Q] [--imir AXIS]
      an iPhone-style grid: N x N HEVC tiles (hidden items) under a `grid` primary item, with
      optional `irot` (Q quarter turns anticlockwise) and `imir` (0: top-bottom, 1: left-right)
  heif_fixtures.py bomb-grid IN.png OUT.heic ROWS COLUMNS W H [--avif] [--tile-ispe TW TH] [--clones] [--overlay]
      a CPU bomb: a ROWS x COLUMNS grid declaring a W x H image whose every tile reference points
      to the one image of IN (as heif-enc, or heif-enc -A, encodes it), its `ispe` TW x TH;
      --clones: every tile an item of its own, all with that one image's data; --overlay: an `iovl`
      overlay of the ROWS * COLUMNS references (every layer at 0, 0) instead of a grid
  heif_fixtures.py loose-grid IN.png OUT.heic W H [--tile N] [--avif] [--tile-ispe TW TH]
      IN's tiles (as `grid` makes them, AV1 with --avif) under a grid that declares a W x H image:
      more tiles than covering it takes; --tile-ispe: the tiles' shared `ispe` says TW x TH
  heif_fixtures.py lie IN.heic OUT.heic W H
      IN with its (first) image's `ispe` rewritten to W x H: the coded image is another size
  heif_fixtures.py big-exif OUT.heic KB
      a small HEIC (pillow-heif) with a dated Exif item of KB kilobytes (padded after the TIFF data)
  heif_fixtures.py predicted IN.png OUT.heic
      OUT: IN with a primary item predicted from another (`pred`), which the frame refuses
  heif_fixtures.py reference IN.heic W H OUT.rgb              Pillow's decode (pillow-heif),
      resized to W x H with Image.BOX, as raw RGB bytes
  heif_fixtures.py dated OUT.heic [DATE [OFFSET]] [--bad-offset]
      a small HEIC (pillow-heif) with an EXIF DateTimeOriginal (and OffsetTimeOriginal) and EXIF
      Orientation 6 (pillow-heif adds `irot`); --bad-offset: the Exif item's offset to its TIFF
      header points far past its end
  heif_fixtures.py patches IN.ppm OUT.heic [--icc FILE] [--nclx P T] [--no-colr]
      the colour patches (pillow-heif, quality 95), tagged with an ICC profile, or with its nclx
      `colr` box's primaries and transfer set to P and T, or with the `colr` box renamed away
  heif_fixtures.py srgb-reference IN.heic PROFILE.icc W H OUT.rgb
      Pillow's decode converted from PROFILE to sRGB by ImageCms (lcms2: perceptual, black-point
      compensation), resized to W x H with Image.BOX, as raw RGB bytes

heif-enc (libheif 1.15) writes no grids: this writes the grid item, its `dimg` references, its
descriptor (in `idat`) and its properties into the meta box heif-enc wrote for the tiles.
"""
import os
import struct
import subprocess
import sys
import tempfile

from PIL import Image, ImageDraw


def make_photo(out, width, height, alpha=False, sixteen=False):
    red = Image.linear_gradient("L").resize((width, height))
    green = Image.radial_gradient("L").resize((width, height))
    blue = Image.linear_gradient("L").rotate(90).resize((width, height))
    image = Image.merge("RGB", (red, green, blue))
    draw = ImageDraw.Draw(image)
    draw.rectangle((width // 8, height // 6, width // 3, height // 2), fill=(240, 30, 20))
    draw.ellipse((width // 2, height // 2, width * 7 // 8, height * 5 // 6), fill=(20, 200, 60))
    if alpha:
        mask = Image.linear_gradient("L").rotate(-90).resize((width, height))
        image.putalpha(mask)
    if sixteen:
        # A 16-bit PNG: heif-enc makes a 10-bit HEIC of it.
        import array
        raw = image.convert("RGB").tobytes()
        words = array.array("H", [value * 257 for value in raw])
        words.byteswap()
        write_png16(out, width, height, words.tobytes())
        return
    image.save(out)


def write_png16(out, width, height, big_endian_rgb16):
    import zlib
    rows = b"".join(b"\0" + big_endian_rgb16[y * width * 6:(y + 1) * width * 6] for y in range(height))

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    header = struct.pack(">IIBBBBB", width, height, 16, 2, 0, 0, 0)
    with open(out, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))


def heif_enc(inputs, out, avif=False):
    subprocess.run(["heif-enc"] + (["-A"] if avif else []) + ["-q", "90", "-o", out] + inputs, check=True,
                   stdout=subprocess.DEVNULL)


# --- ISO-BMFF boxes -----------------------------------------------------------------------


def boxes(data, start=0, end=None):
    end = len(data) if end is None else end
    while start < end:
        size, kind = struct.unpack(">I4s", data[start:start + 8])
        header = 8
        if size == 1:
            size = struct.unpack(">Q", data[start + 8:start + 16])[0]
            header = 16
        elif size == 0:
            size = end - start
        yield kind.decode("latin-1"), data[start + header:start + size], start
        start += size


def box(kind, payload):
    return struct.pack(">I4s", 8 + len(payload), kind.encode("latin-1")) + payload


def full_box(kind, version, flags, payload):
    return box(kind, struct.pack(">I", (version << 24) | flags) + payload)


def read_uint(data, offset, size):
    return int.from_bytes(data[offset:offset + size], "big") if size else 0, offset + size


def parse_iloc(payload):
    version = payload[0]
    sizes = struct.unpack(">H", payload[4:6])[0]
    offset_size, length_size, base_size = sizes >> 12, (sizes >> 8) & 15, (sizes >> 4) & 15
    index_size = sizes & 15 if version in (1, 2) else 0
    at = 6
    count, at = read_uint(payload, at, 2 if version < 2 else 4)
    items = []
    for _ in range(count):
        item, at = read_uint(payload, at, 2 if version < 2 else 4)
        method = 0
        if version in (1, 2):
            method, at = read_uint(payload, at, 2)
            method &= 15
        _, at = read_uint(payload, at, 2)  # data_reference_index
        base, at = read_uint(payload, at, base_size)
        extent_count, at = read_uint(payload, at, 2)
        extents = []
        for _ in range(extent_count):
            _, at = read_uint(payload, at, index_size)
            extent_offset, at = read_uint(payload, at, offset_size)
            length, at = read_uint(payload, at, length_size)
            extents.append((base + extent_offset, length))
        items.append((item, method, extents))
    return items


def build_iloc(items, delta):
    body = struct.pack(">HH", (4 << 12) | (4 << 8), len(items))
    for item, method, extents in items:
        body += struct.pack(">HHHH", item, method, 0, len(extents))
        for offset, length in extents:
            body += struct.pack(">II", offset + (delta if method == 0 else 0), length)
    return full_box("iloc", 1, 0, body)


def parse_iinf(payload):
    version = payload[0]
    at = 4
    _, at = read_uint(payload, at, 2 if version == 0 else 4)
    return [(kind, body) for kind, body, _ in boxes(payload, at)]


def infe(item, item_type, hidden):
    return full_box("infe", 2, 1 if hidden else 0, struct.pack(">HH4s", item, 0, item_type.encode()) + b"\0")


def parse_ipma(payload):
    version, flags = payload[0], int.from_bytes(payload[1:4], "big")
    count = struct.unpack(">I", payload[4:8])[0]
    at = 8
    entries = []
    for _ in range(count):
        item, at = read_uint(payload, at, 2 if version < 1 else 4)
        n, at = read_uint(payload, at, 1)
        associations = []
        for _ in range(n):
            if flags & 1:
                value, at = read_uint(payload, at, 2)
                associations.append((value >> 15, value & 0x7FFF))
            else:
                value, at = read_uint(payload, at, 1)
                associations.append((value >> 7, value & 0x7F))
        entries.append((item, associations))
    return entries


def build_ipma(entries):
    body = struct.pack(">I", len(entries))
    for item, associations in entries:
        body += struct.pack(">HB", item, len(associations))
        for essential, index in associations:
            body += struct.pack(">H", (essential << 15) | index)
    return full_box("ipma", 0, 1, body)


def rewrite(source, out, tiles_shape=None, size=None, irot=None, imir=None, references=None, clones=0,
            overlay=False):
    """Adds a grid primary item over every image of `source` (when `tiles_shape`), and `irot`/`imir`.
    `references`: the grid's `dimg` list, when not every image once; `clones`: items added that
    are the first image again (its data, its properties), under ids of their own; `overlay`: an
    `iovl` item over the references (every layer at 0, 0) instead of a grid."""
    data = open(source, "rb").read()
    top = list(boxes(data))
    meta_payload = next(body for kind, body, _ in top if kind == "meta")
    children = {kind: body for kind, body, _ in boxes(meta_payload, 4)}
    iloc = parse_iloc(children["iloc"])
    infes = parse_iinf(children["iinf"])
    ipco = [(kind, body) for kind, body, _ in boxes(children["iprp"]) if kind == "ipco"][0][1]
    properties = [(kind, body) for kind, body, _ in boxes(ipco)]
    ipma = parse_ipma([body for kind, body, _ in boxes(children["iprp"]) if kind == "ipma"][0])
    primary = struct.unpack(">H", children["pitm"][4:6])[0]
    items = [struct.unpack(">H", body[4:6])[0] for _, body in infes]
    new_infes = [box(kind, body) for kind, body in infes]
    irefs = children.get("iref", b"\0\0\0\0")[4:]
    idat = b""
    types = [body[8:12].decode("latin-1") for _, body in infes]
    if clones:
        first = items[0]
        location = next(entry for entry in iloc if entry[0] == first)
        associations = dict(ipma)[first]
        for clone in range(max(items) + 1, max(items) + 1 + clones):
            items.append(clone)
            types.append(types[0])
            iloc.append((clone, location[1], location[2]))
            ipma.append((clone, associations))
        references = items
    if tiles_shape:
        rows, columns = tiles_shape
        grid = max(items) + 1
        tiles = references if references is not None else items
        new_infes = [infe(item, kind, True) for item, kind in zip(items, types)]
        new_infes.append(infe(grid, "iovl" if overlay else "grid", False))
        idat = struct.pack(">BBBBHH", 0, 0, rows - 1, columns - 1, size[0], size[1])
        if overlay:
            idat = struct.pack(">BB4HHH", 0, 0, 0, 0, 0, 65535, size[0], size[1]) + b"\0\0\0\0" * len(tiles)
        iloc.append((grid, 1, [(0, len(idat))]))
        irefs += box("dimg", struct.pack(">HH", grid, len(tiles)) + b"".join(struct.pack(">H", i) for i in tiles))
        properties.append(("ispe", struct.pack(">III", 0, size[0], size[1])))
        first = dict(ipma)[items[0]]
        shared = [(e, i) for e, i in first if properties[i - 1][0] not in ("hvcC", "av1C", "ispe")]
        ipma.append((grid, [(0, len(properties))] + shared))
        primary = grid
    extra = []
    if irot is not None:
        properties.append(("irot", struct.pack(">B", irot & 3)))
        extra.append((1, len(properties)))
    if imir is not None:
        properties.append(("imir", struct.pack(">B", imir & 1)))
        extra.append((1, len(properties)))
    ipma = [(item, associations + (extra if item == primary else [])) for item, associations in ipma]
    properties, ipma = shared_properties(properties, ipma)
    new_ipco = box("ipco", b"".join(box(kind, body) for kind, body in properties))

    def meta_box(delta):
        parts = [box("hdlr", children["hdlr"]), full_box("pitm", 0, 0, struct.pack(">H", primary)),
                 build_iloc(iloc, delta),
                 full_box("iinf", 0, 0, struct.pack(">H", len(new_infes)) + b"".join(new_infes)),
                 full_box("iref", 0, 0, irefs), box("iprp", new_ipco + build_ipma(ipma))]
        if idat:
            parts.append(box("idat", idat))
        return full_box("meta", 0, 0, b"".join(parts))

    ftyp_body = next(body for kind, body, _ in top if kind == "ftyp")
    brands = list(dict.fromkeys(ftyp_body[i:i + 4] for i in range(8, len(ftyp_body), 4)))
    ftyp = box("ftyp", ftyp_body[:8] + b"".join(brands))
    # ftyp and meta come before mdat: the tiles' data moves by what they gained or lost.
    old_sizes = sum(8 + len(body) for kind, body, _ in top if kind in ("ftyp", "meta"))
    delta = len(ftyp) + len(meta_box(0)) - old_sizes
    with open(out, "wb") as f:
        for kind, body, start in top:
            if kind == "meta":
                f.write(meta_box(delta))
            elif kind == "ftyp":
                f.write(ftyp)
            else:
                f.write(box(kind, body))


def shared_properties(properties, ipma):
    """One copy of each property (as an iPhone's tiles share one hvcC and one ispe): libheif
    refuses more than 100 boxes in ipco."""
    unique, index_of, remap = [], {}, {}
    for old, prop in enumerate(properties, start=1):
        if prop not in index_of:
            unique.append(prop)
            index_of[prop] = len(unique)
        remap[old] = index_of[prop]
    return unique, [(item, [(e, remap[i]) for e, i in associations]) for item, associations in ipma]


def make_bomb_grid(source_png, out, rows, columns, size, avif=False, tile_ispe=None, clones=False, overlay=False):
    with tempfile.TemporaryDirectory() as folder:
        single = os.path.join(folder, "tile.heic")
        subprocess.run(["heif-enc"] + (["-A"] if avif else []) + ["-q", "50", "-o", single, source_png], check=True,
                       stdout=subprocess.DEVNULL)
        data = open(single, "rb").read()
        meta = next(body for kind, body, _ in boxes(data) if kind == "meta")
        first = struct.unpack(">H", dict((k, b) for k, b, _ in boxes(meta, 4))["pitm"][4:6])[0]
        if clones:
            rewrite(single, out, (rows, columns), size, clones=rows * columns - 1, overlay=overlay)
        else:
            rewrite(single, out, (rows, columns), size, references=[first] * (rows * columns), overlay=overlay)
    if tile_ispe:
        lie_about_size(out, tile_ispe)


def make_predicted(source_png, out):
    """A HEIC whose primary item has a `pred` reference (HEIF's predictively coded images): heif-enc
    writes the photo with a thumbnail, whose `thmb` reference (thumbnail -> primary) is turned in
    place into `pred` from the primary to the thumbnail."""
    subprocess.run(["heif-enc", "-q", "90", "-t", "64", "-o", out, source_png], check=True, stdout=subprocess.DEVNULL)
    data = bytearray(open(out, "rb").read())
    _, meta, meta_at = next(found for found in boxes(data) if found[0] == "meta")
    _, iref, iref_at = next(found for found in boxes(meta, 4) if found[0] == "iref")
    assert iref[0] == 0, "heif-enc writes iref version 0 (16-bit item ids)"
    base = meta_at + 8 + iref_at + 8  # iref's body in the file
    entry = next(base + at for kind, _, at in boxes(iref, 4) if kind == "thmb")
    thumbnail, count, primary = struct.unpack(">HHH", data[entry + 8:entry + 14])
    assert count == 1
    data[entry + 4:entry + 8] = b"pred"
    data[entry + 8:entry + 14] = struct.pack(">HHH", primary, 1, thumbnail)
    open(out, "wb").write(data)


def lie_about_size(path, size):
    """Rewrites the first `ispe` (the first image's) to `size`: the coded image is larger."""
    data = bytearray(open(path, "rb").read())
    at = data.find(b"ispe")
    if at < 0:
        sys.exit("no ispe")
    data[at + 8:at + 16] = struct.pack(">II", *size)
    open(path, "wb").write(data)


def make_grid(source_png, out, tile=512, irot=None, imir=None, size=None, avif=False):
    image = Image.open(source_png)
    width, height = image.size
    columns, rows = -(-width // tile), -(-height // tile)
    padded = Image.new(image.mode, (columns * tile, rows * tile))
    padded.paste(image, (0, 0))
    with tempfile.TemporaryDirectory() as folder:
        names = []
        for row in range(rows):
            for column in range(columns):
                name = os.path.join(folder, f"t{row:02}{column:02}.png")
                padded.crop((column * tile, row * tile, (column + 1) * tile, (row + 1) * tile)).save(name)
                names.append(name)
        tiles = os.path.join(folder, "tiles.heic")
        heif_enc(names, tiles, avif)
        rewrite(tiles, out, (rows, columns), size or (width, height), irot, imir)


def reference(source, width, height, out):
    import pillow_heif
    pillow_heif.register_heif_opener()
    image = Image.open(source)
    image = image.convert("RGBA")
    black = Image.new("RGBA", image.size, (0, 0, 0, 255))
    image = Image.alpha_composite(black, image).convert("RGB")
    open(out, "wb").write(image.resize((width, height), Image.BOX).tobytes())


def heif_opener():
    import pillow_heif
    pillow_heif.register_heif_opener()


def make_dated(out, date=None, offset=None, bad_offset=False):
    heif_opener()
    exif = Image.Exif()
    exif[0x0112] = 6
    if date:
        exif[0x8769] = {0x9003: date, **({0x9011: offset} if offset else {})}
    Image.new("RGB", (64, 48), (200, 120, 40)).save(out, exif=exif.tobytes(), quality=90)
    if bad_offset:
        data = bytearray(open(out, "rb").read())
        at = data.find(b"\0\0\0\x06Exif\0\0")
        if at < 0:
            sys.exit("no Exif item")
        data[at:at + 4] = struct.pack(">I", 0xFFFFFFF0)
        open(out, "wb").write(data)


def make_big_exif(out, kilobytes):
    heif_opener()
    exif = Image.Exif()
    exif[0x8769] = {0x9003: "2024:05:06 07:08:09"}
    padding = b"\0" * (kilobytes * 1024)
    Image.new("RGB", (64, 48), (200, 120, 40)).save(out, exif=exif.tobytes() + padding, quality=90)


def make_patches(source, out, icc=None, nclx=None, no_colr=False):
    heif_opener()
    image = Image.open(source).convert("RGB")
    options = {"icc_profile": open(icc, "rb").read()} if icc else {}
    image.save(out, quality=95, **options)
    data = bytearray(open(out, "rb").read())
    if nclx or no_colr:
        at = data.find(b"colrnclx")
        if at < 0:
            sys.exit("no nclx colr box")
        if no_colr:
            data[at:at + 4] = b"xolr"  # an unknown property: libheif passes over it
        else:
            data[at + 8:at + 12] = struct.pack(">HH", *nclx)
    open(out, "wb").write(data)


def srgb_reference(source, profile, width, height, out):
    from PIL import ImageCms
    heif_opener()
    image = Image.open(source).convert("RGB")
    transform = ImageCms.buildTransform(
        ImageCms.ImageCmsProfile(profile), ImageCms.createProfile("sRGB"), "RGB", "RGB",
        renderingIntent=ImageCms.Intent.PERCEPTUAL, flags=ImageCms.Flags.BLACKPOINTCOMPENSATION)
    image = ImageCms.applyTransform(image, transform)
    open(out, "wb").write(image.resize((width, height), Image.BOX).tobytes())


def main(argv):
    command = argv[1]
    if command == "photo":
        make_photo(argv[2], int(argv[3]), int(argv[4]), "--alpha" in argv, "--sixteen" in argv)
    elif command == "single":
        heif_enc([argv[2]], argv[3])
    elif command == "grid":
        options = dict(zip(argv[4::2], argv[5::2]))
        irot = int(options["--irot"]) if "--irot" in options else None
        imir = int(options["--imir"]) if "--imir" in options else None
        make_grid(argv[2], argv[3], int(options.get("--tile", 512)), irot, imir)
    elif command == "bomb-grid":
        at = argv.index("--tile-ispe") if "--tile-ispe" in argv else None
        lie = (int(argv[at + 1]), int(argv[at + 2])) if at else None
        make_bomb_grid(argv[2], argv[3], int(argv[4]), int(argv[5]), (int(argv[6]), int(argv[7])), "--avif" in argv,
                       lie, "--clones" in argv, "--overlay" in argv)
    elif command == "loose-grid":
        options = [argument for argument in argv[6:] if argument != "--avif"]
        tile = int(options[options.index("--tile") + 1]) if "--tile" in options else 512
        make_grid(argv[2], argv[3], tile, size=(int(argv[4]), int(argv[5])), avif="--avif" in argv)
        if "--tile-ispe" in options:
            at = options.index("--tile-ispe")
            lie_about_size(argv[3], (int(options[at + 1]), int(options[at + 2])))
    elif command == "lie":
        data = open(argv[2], "rb").read()
        open(argv[3], "wb").write(data)
        lie_about_size(argv[3], (int(argv[4]), int(argv[5])))
    elif command == "predicted":
        make_predicted(argv[2], argv[3])
    elif command == "big-exif":
        make_big_exif(argv[2], int(argv[3]))
    elif command == "reference":
        reference(argv[2], int(argv[3]), int(argv[4]), argv[5])
    elif command == "dated":
        dated = [argument for argument in argv[3:] if argument != "--bad-offset"]
        make_dated(argv[2], *dated[:2], bad_offset="--bad-offset" in argv)
    elif command == "patches":
        options = argv[4:]
        icc = options[options.index("--icc") + 1] if "--icc" in options else None
        at = options.index("--nclx") if "--nclx" in options else None
        nclx = (int(options[at + 1]), int(options[at + 2])) if at is not None else None
        make_patches(argv[2], argv[3], icc, nclx, "--no-colr" in options)
    elif command == "srgb-reference":
        srgb_reference(argv[2], argv[3], int(argv[4]), int(argv[5]), argv[6])
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv)
