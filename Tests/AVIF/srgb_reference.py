"""What the frame should show of an image coded in another colour space, computed with Pillow
alone and formulas written here from the specifications, apart from the frame's C code (CColour,
which builds lcms2 profiles): the reference of conformance.py for wide-gamut files.

- Primaries: the RGB-to-XYZ matrix of each set of primaries from its chromaticities (ITU-T H.273
  table 2), both white points D65, so the conversion to sRGB is one 3x3 matrix in linear light
  (relative colorimetric; lcms2's perceptual intent with black-point compensation gives the same
  for matrix-shaper profiles, whose black is 0).
- Transfer: the BT.709 family (1, 6, 14, 15) and sRGB (13) are decoded with the sRGB curve, as
  phones and browsers show them (docs/formats-and-colour.md); 4 is gamma 2.2, 5 gamma 2.8, 8
  linear.
- HDR: PQ (16) by SMPTE ST 2084's EOTF to nits; HLG (18) by BT.2100's inverse OETF to scene
  light, then its OOTF for a 1,000-nit display (nits = 1000 E^1.2, each channel); then divided by
  SDR's reference white, 203 nits (BT.2408), and values above 0.75 rolled off towards 1 with
  0.75 + 0.25 (1 - exp(-(x - 0.75) / 0.25)) (docs/formats-and-colour.md).
- Out-of-gamut values are clipped, then encoded with the sRGB curve to 8 bits.
"""
import math

from PIL import Image

#: H.273 colour primaries: (red x, y), (green x, y), (blue x, y), (white x, y).
PRIMARIES = {
    1: ((0.640, 0.330), (0.300, 0.600), (0.150, 0.060), (0.3127, 0.3290)),
    5: ((0.640, 0.330), (0.290, 0.600), (0.150, 0.060), (0.3127, 0.3290)),
    6: ((0.630, 0.340), (0.310, 0.595), (0.155, 0.070), (0.3127, 0.3290)),
    9: ((0.708, 0.292), (0.170, 0.797), (0.131, 0.046), (0.3127, 0.3290)),
    12: ((0.680, 0.320), (0.265, 0.690), (0.150, 0.060), (0.3127, 0.3290)),
}
TRANSFERS = {1, 2, 4, 5, 6, 8, 13, 14, 15, 16, 18}
WHITE_NITS = 203.0


def pq_to_nits(v):
    """SMPTE ST 2084 (BT.2100 table 4): the PQ signal v (0 to 1) as display light in nits."""
    m1, m2 = 0.1593017578125, 78.84375
    c1, c2, c3 = 0.8359375, 18.8515625, 18.6875
    p = v ** (1 / m2)
    return 10000 * (max(p - c1, 0) / (c2 - c3 * p)) ** (1 / m1)


def hlg_to_nits(v):
    """BT.2100 table 5: the HLG signal v as scene light, then display light on a 1,000-nit display
    (system gamma 1.2), channel by channel."""
    a = 0.17883277
    b = 1 - 4 * a
    c = 0.5 - a * math.log(4 * a)
    scene = v * v / 3 if v <= 0.5 else (math.exp((v - c) / a) + b) / 12
    return 1000 * scene ** 1.2


def roll_off(x):
    """Relative to SDR white: unchanged up to 0.75, then approaching 1."""
    return x if x <= 0.75 else 0.75 + 0.25 * (1 - math.exp(-(x - 0.75) / 0.25))


def to_xyz(primaries):
    """The RGB-to-XYZ matrix of `primaries` (rows X, Y, Z)."""
    (rx, ry), (gx, gy), (bx, by), (wx, wy) = primaries
    columns = [(x / y, 1.0, (1 - x - y) / y) for x, y in ((rx, ry), (gx, gy), (bx, by))]
    white = (wx / wy, 1.0, (1 - wx - wy) / wy)
    m = [[columns[c][r] for c in range(3)] for r in range(3)]
    scale = solve(m, white)
    return [[m[r][c] * scale[c] for c in range(3)] for r in range(3)]


def solve(m, v):
    """x with m x = v (Cramer's rule)."""
    def det(a):
        return (a[0][0] * (a[1][1] * a[2][2] - a[1][2] * a[2][1]) - a[0][1] * (a[1][0] * a[2][2] - a[1][2] * a[2][0])
                + a[0][2] * (a[1][0] * a[2][1] - a[1][1] * a[2][0]))
    d = det(m)
    result = []
    for c in range(3):
        a = [row[:] for row in m]
        for r in range(3):
            a[r][c] = v[r]
        result.append(det(a) / d)
    return result


def inverse(m):
    columns = [solve(m, [1.0 if r == c else 0.0 for r in range(3)]) for c in range(3)]
    return [[columns[c][r] for c in range(3)] for r in range(3)]


def multiply(a, b):
    return [[sum(a[r][k] * b[k][c] for k in range(3)) for c in range(3)] for r in range(3)]


def srgb_decode(v):
    return v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4


def srgb_encode(v):
    v = min(max(v, 0.0), 1.0)
    return 12.92 * v if v <= 0.0031308 else 1.055 * v ** (1 / 2.4) - 0.055


def decoder(transfer):
    if transfer == 4:
        return lambda v: v ** 2.2
    if transfer == 5:
        return lambda v: v ** 2.8
    if transfer == 8:
        return lambda v: v
    if transfer == 16:
        return lambda v: roll_off(pq_to_nits(v) / WHITE_NITS)
    if transfer == 18:
        return lambda v: roll_off(hlg_to_nits(v) / WHITE_NITS)
    return srgb_decode


def convert(image, primaries, transfer):
    """`image` (RGB, 8 bits, coded in `primaries` and `transfer`) in sRGB, or None when the frame
    leaves it as coded (unknown primaries or transfer)."""
    if primaries == 2:
        primaries = 1
    if primaries not in PRIMARIES or transfer not in TRANSFERS:
        return None
    matrix = multiply(inverse(to_xyz(PRIMARIES[1])), to_xyz(PRIMARIES[primaries]))
    linear = [decoder(transfer)(v / 255) for v in range(256)]
    # Per pixel in linear light: Pillow has no 3x3 matrix on floats, so each output channel is
    # the sum of three per-channel tables, kept at 16 bits, then encoded.
    pixels = image.convert("RGB").tobytes()
    out = bytearray(len(pixels))
    encode = [round(srgb_encode(i / 65535) * 255) for i in range(65536)]
    tables = [[[m * linear[v] for v in range(256)] for m in row] for row in matrix]
    for at in range(0, len(pixels), 3):
        r, g, b = pixels[at], pixels[at + 1], pixels[at + 2]
        for c in range(3):
            t = tables[c]
            value = t[0][r] + t[1][g] + t[2][b]
            out[at + c] = encode[min(max(int(value * 65535 + 0.5), 0), 65535)]
    return Image.frombytes("RGB", image.size, bytes(out))
