"""pnp's own CMYK ICC profile: a generic press model with the shop's total ink limit built in.

No freely licensed characterised CMYK profile (FOGRA, SWOP/GRACoL) ships in a Debian or PyPI
package we may bundle, so pnp writes one (ICC v2, output class, Lab PCS, 16-bit LUTs) from a
plain model: sRGB with grey component replacement, the ink limit taken out of C, M and Y.
It is deterministic and MIT licensed like pnp. It is not a measured press condition (no
dot gain, no paper white): colours print close to, not exactly as, the screen shows them.
Pillow's ImageCms (LittleCMS) does every conversion through it; the PDF/X OutputIntent embeds
the same bytes, so the file says which conversion made it.
"""

from __future__ import annotations

import struct
from functools import cache

D50 = (0.9642, 1.0, 0.8249)
B2A_GRID = 17  # Lab -> CMYK table: 17^3 points
A2B_GRID = 9  # CMYK -> Lab table: 9^4 points
GCR_START = 0.35  # black replaces grey from 35 % of the darkest ink on


def _s15(v: float) -> bytes:
    return struct.pack(">i", round(v * 65536))


def _srgb_to_linear(c: float) -> float:
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def _linear_to_srgb(c: float) -> float:
    c = min(1.0, max(0.0, c))
    return 12.92 * c if c <= 0.0031308 else 1.055 * c ** (1 / 2.4) - 0.055


# sRGB (D65) <-> XYZ (D50, Bradford-adapted): the matrices of the ICC's sRGB profile
_RGB_TO_XYZ = ((0.4360747, 0.3850649, 0.1430804),
               (0.2225045, 0.7168786, 0.0606169),
               (0.0139322, 0.0971045, 0.7141733))
_XYZ_TO_RGB = ((3.1338561, -1.6168667, -0.4906146),
               (-0.9787684, 1.9161415, 0.0334540),
               (0.0719453, -0.2289914, 1.4052427))


def _mul(m, v):
    return tuple(sum(m[i][j] * v[j] for j in range(3)) for i in range(3))


def _f(t: float) -> float:
    return t ** (1 / 3) if t > (6 / 29) ** 3 else t / (3 * (6 / 29) ** 2) + 4 / 29


def _finv(t: float) -> float:
    return t ** 3 if t > 6 / 29 else 3 * (6 / 29) ** 2 * (t - 4 / 29)


def rgb_to_lab(rgb: tuple[float, float, float]) -> tuple[float, float, float]:
    x, y, z = _mul(_RGB_TO_XYZ, tuple(_srgb_to_linear(c) for c in rgb))
    fx, fy, fz = _f(x / D50[0]), _f(y / D50[1]), _f(z / D50[2])
    return (116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz))


def lab_to_rgb(lab: tuple[float, float, float]) -> tuple[float, float, float]:
    L, a, b = lab
    fy = (L + 16) / 116
    xyz = (D50[0] * _finv(fy + a / 500), D50[1] * _finv(fy), D50[2] * _finv(fy - b / 200))
    return tuple(_linear_to_srgb(c) for c in _mul(_XYZ_TO_RGB, xyz))  # type: ignore[return-value]


def rgb_to_cmyk(rgb: tuple[float, float, float], ink_limit: int) -> tuple[float, ...]:
    """The model: complementary inks, grey replaced by black, C+M+Y+K within `ink_limit` %."""
    r, g, b = (min(1.0, max(0.0, v)) for v in rgb)
    c, m, y = 1 - r, 1 - g, 1 - b
    grey = min(c, m, y)
    k = 0.0 if grey <= GCR_START else (grey - GCR_START) / (1 - GCR_START)
    if k >= 1:
        return (0.0, 0.0, 0.0, 1.0)
    c, m, y = ((v - k) / (1 - k) for v in (c, m, y))
    limit = ink_limit / 100
    cmy = c + m + y
    if cmy + k > limit and cmy > 0:
        scale = max(0.0, limit - k) / cmy
        c, m, y = c * scale, m * scale, y * scale
    return (c, m, y, k)


def cmyk_to_rgb(cmyk: tuple[float, ...]) -> tuple[float, float, float]:
    c, m, y, k = cmyk
    return ((1 - c) * (1 - k), (1 - m) * (1 - k), (1 - y) * (1 - k))


def _lab16(lab) -> tuple[int, int, int]:
    """ICC v2 16-bit Lab (L 0..100 -> 0..0xFF00, a/b -128..127.996 -> 0..0xFFFF)."""
    L, a, b = lab
    return (min(0xFF00, max(0, round(L * 0xFF00 / 100))),
            min(0xFFFF, max(0, round((a + 128) * 256))),
            min(0xFFFF, max(0, round((b + 128) * 256))))


def _lut16(inputs: int, outputs: int, grid: int, clut: list[tuple[int, ...]]) -> bytes:
    identity = b"".join(_s15(v) for v in (1, 0, 0, 0, 1, 0, 0, 0, 1))
    ramp = b"".join(struct.pack(">H", v) for v in (0, 0xFFFF))  # 2-entry identity curves
    out = b"mft2" + bytes(4) + struct.pack(">BBBB", inputs, outputs, grid, 0) + identity
    out += struct.pack(">HH", 2, 2) + ramp * inputs
    out += b"".join(struct.pack(f">{outputs}H", *point) for point in clut)
    return out + ramp * outputs


def _b2a(ink_limit: int) -> bytes:
    clut = []
    n = B2A_GRID - 1
    for i in range(B2A_GRID):
        for j in range(B2A_GRID):
            for k in range(B2A_GRID):
                lab = (i / n * 0xFFFF / 0xFF00 * 100, j / n * 0xFFFF / 256 - 128,
                       k / n * 0xFFFF / 256 - 128)
                cmyk = rgb_to_cmyk(lab_to_rgb(lab), ink_limit)
                clut.append(tuple(round(v * 0xFFFF) for v in cmyk))
    return _lut16(3, 4, B2A_GRID, clut)


def _a2b() -> bytes:
    n = A2B_GRID - 1
    clut = [_lab16(rgb_to_lab(cmyk_to_rgb((c / n, m / n, y / n, k / n))))
            for c in range(A2B_GRID) for m in range(A2B_GRID)
            for y in range(A2B_GRID) for k in range(A2B_GRID)]
    return _lut16(4, 3, A2B_GRID, clut)


def _desc(text: str) -> bytes:
    ascii_ = text.encode("ascii") + b"\0"
    return (b"desc" + bytes(4) + struct.pack(">I", len(ascii_)) + ascii_
            + struct.pack(">II", 0, 0) + struct.pack(">HB", 0, 0) + bytes(67))


def _text(text: str) -> bytes:
    return b"text" + bytes(4) + text.encode("ascii") + b"\0"


def description(ink_limit: int) -> str:
    return f"pnp generic CMYK, {ink_limit}% total ink"


@cache
def cmyk_profile(ink_limit: int = 300) -> bytes:
    """The ICC profile's bytes (the same for the same ink limit)."""
    a2b, b2a = _a2b(), _b2a(ink_limit)
    tags = [(b"desc", _desc(description(ink_limit))),
            (b"cprt", _text("No copyright: made by pnp, use freely (MIT).")),
            (b"wtpt", b"XYZ " + bytes(4) + b"".join(_s15(v) for v in D50)),
            (b"A2B0", a2b), (b"A2B1", a2b), (b"A2B2", a2b),
            (b"B2A0", b2a), (b"B2A1", b2a), (b"B2A2", b2a)]
    table_size = 4 + 12 * len(tags)
    offset = 128 + table_size
    entries, blobs, placed = [], b"", {}
    for sig, data in tags:
        if data not in placed:  # the three intents share one table
            placed[data] = offset + len(blobs)
            blobs += data + bytes(-len(data) % 4)
        entries.append(struct.pack(">4sII", sig, placed[data], len(data)))
    size = 128 + table_size + len(blobs)
    header = struct.pack(">I4sI4s4s4s", size, b"lcms", 0x02100000, b"prtr", b"CMYK", b"Lab ")
    header += struct.pack(">6H", 2026, 1, 1, 0, 0, 0) + b"acsp" + bytes(24 + 4)  # platform .. attributes, intent 0
    header += b"".join(_s15(v) for v in D50) + b"pnp " + bytes(44)  # illuminant, creator
    assert len(header) == 128, len(header)
    return header + struct.pack(">I", len(tags)) + b"".join(entries) + blobs

