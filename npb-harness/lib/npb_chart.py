"""A grouped bar chart of Mop/s, written as a PNG with the standard library.

One group per case (benchmark, class, np), one bar per MPI. The picture is an
RGB raster drawn with filled rectangles and a 5x7 bitmap font (upper case,
digits and a few signs: labels are upper-cased), then stored as an 8-bit RGB
PNG: signature, IHDR, one zlib-compressed IDAT, IEND.
"""

import struct
import zlib

# 5x7 glyphs, one string of 7 rows per character, '#' = ink.
_FONT_ROWS = {
    "0": "01110 10001 10011 10101 11001 10001 01110",
    "1": "00100 01100 00100 00100 00100 00100 01110",
    "2": "01110 10001 00001 00010 00100 01000 11111",
    "3": "11110 00001 00001 01110 00001 00001 11110",
    "4": "00010 00110 01010 10010 11111 00010 00010",
    "5": "11111 10000 11110 00001 00001 10001 01110",
    "6": "00110 01000 10000 11110 10001 10001 01110",
    "7": "11111 00001 00010 00100 01000 01000 01000",
    "8": "01110 10001 10001 01110 10001 10001 01110",
    "9": "01110 10001 10001 01111 00001 00010 01100",
    "A": "01110 10001 10001 11111 10001 10001 10001",
    "B": "11110 10001 10001 11110 10001 10001 11110",
    "C": "01110 10001 10000 10000 10000 10001 01110",
    "D": "11110 10001 10001 10001 10001 10001 11110",
    "E": "11111 10000 10000 11110 10000 10000 11111",
    "F": "11111 10000 10000 11110 10000 10000 10000",
    "G": "01110 10001 10000 10111 10001 10001 01111",
    "H": "10001 10001 10001 11111 10001 10001 10001",
    "I": "01110 00100 00100 00100 00100 00100 01110",
    "J": "00111 00010 00010 00010 00010 10010 01100",
    "K": "10001 10010 10100 11000 10100 10010 10001",
    "L": "10000 10000 10000 10000 10000 10000 11111",
    "M": "10001 11011 10101 10101 10001 10001 10001",
    "N": "10001 11001 10101 10011 10001 10001 10001",
    "O": "01110 10001 10001 10001 10001 10001 01110",
    "P": "11110 10001 10001 11110 10000 10000 10000",
    "Q": "01110 10001 10001 10001 10101 10010 01101",
    "R": "11110 10001 10001 11110 10100 10010 10001",
    "S": "01111 10000 10000 01110 00001 00001 11110",
    "T": "11111 00100 00100 00100 00100 00100 00100",
    "U": "10001 10001 10001 10001 10001 10001 01110",
    "V": "10001 10001 10001 10001 10001 01010 00100",
    "W": "10001 10001 10001 10101 10101 10101 01010",
    "X": "10001 10001 01010 00100 01010 10001 10001",
    "Y": "10001 10001 01010 00100 00100 00100 00100",
    "Z": "11111 00001 00010 00100 01000 10000 11111",
    ".": "00000 00000 00000 00000 00000 01100 01100",
    ",": "00000 00000 00000 00000 01100 00100 01000",
    "-": "00000 00000 00000 11111 00000 00000 00000",
    "/": "00001 00010 00010 00100 01000 01000 10000",
    "(": "00010 00100 01000 01000 01000 00100 00010",
    ")": "01000 00100 00010 00010 00010 00100 01000",
    ":": "00000 01100 01100 00000 01100 01100 00000",
    "=": "00000 00000 11111 00000 11111 00000 00000",
    "_": "00000 00000 00000 00000 00000 00000 11111",
    " ": "00000 00000 00000 00000 00000 00000 00000",
}
GLYPH_W, GLYPH_H = 5, 7

WHITE = (255, 255, 255)
BLACK = (0, 0, 0)
GRID = (220, 220, 220)
RED = (200, 30, 30)
# One colour per MPI, in --compare order (rdmpi first).
PALETTE = [(31, 119, 180), (255, 127, 14), (44, 160, 44), (148, 103, 189)]


class Canvas:
    """An RGB raster with the few drawing operations the chart needs."""

    def __init__(self, width, height):
        self.w, self.h = width, height
        self.px = bytearray(WHITE * (width * height))

    def rect(self, x0, y0, x1, y1, color):
        """Fill [x0, x1) x [y0, y1), clipped to the canvas."""
        x0, x1 = max(0, x0), min(self.w, x1)
        y0, y1 = max(0, y0), min(self.h, y1)
        if x0 >= x1:
            return
        row = bytes(color) * (x1 - x0)
        for y in range(y0, y1):
            i = (y * self.w + x0) * 3
            self.px[i:i + len(row)] = row

    def text(self, x, y, s, color=BLACK, scale=2):
        """Draw `s` with its top-left corner at (x, y); unknown characters
        are drawn as blanks."""
        for ch in s.upper():
            rows = _FONT_ROWS.get(ch, _FONT_ROWS[" "]).split()
            for gy, bits in enumerate(rows):
                for gx, bit in enumerate(bits):
                    if bit == "1":
                        self.rect(x + gx * scale, y + gy * scale,
                                  x + (gx + 1) * scale, y + (gy + 1) * scale,
                                  color)
            x += (GLYPH_W + 1) * scale

    def png(self):
        raw = bytearray()
        stride = self.w * 3
        for y in range(self.h):
            raw.append(0)  # filter type: none
            raw += self.px[y * stride:(y + 1) * stride]

        def chunk(kind, data):
            body = kind + data
            return (struct.pack(">I", len(data)) + body
                    + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF))

        ihdr = struct.pack(">IIBBBBB", self.w, self.h, 8, 2, 0, 0, 0)
        return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr)
                + chunk(b"IDAT", zlib.compress(bytes(raw), 9))
                + chunk(b"IEND", b""))


def text_width(s, scale=2):
    return len(s) * (GLYPH_W + 1) * scale


def _nice_step(top):
    """A 1/2/5 x 10^k tick step giving about 5 ticks up to `top`."""
    raw = top / 5.0
    mag = 10 ** len(str(int(raw))) / 10 if raw >= 1 else 1
    while mag > raw and mag > 1e-6:
        mag /= 10
    for m in (1, 2, 5, 10):
        if m * mag >= raw:
            return m * mag
    return 10 * mag


def _fmt(v):
    return ("%d" % v) if v >= 1 or v == 0 else ("%g" % v)


def bar_chart(groups, series, title):
    """groups: list of (label, [value or None per series]), a label may
    have several lines split by newlines; series: names.
    A None value is a run that failed: it gets a red 'X' where its bar
    would be. Returns PNG bytes."""
    bar_w, gap, s = 18, 22, 2
    left, right, top, bottom = 90, 20, 84, 84
    n = max(1, len(series))
    group_w = n * bar_w + gap
    label_w = max([text_width(p) for g in groups for p in g[0].split("\n")]
                  + [0]) + 8
    group_w = max(group_w, label_w)
    legend_w = sum(text_width(name) + 40 for name in series)
    width = max(left + len(groups) * group_w + right,
                text_width(title) + 40, legend_w + left)
    height = 420
    c = Canvas(width, height)

    plot_h = height - top - bottom
    base = top + plot_h
    vmax = max([v for _, vals in groups for v in vals if v is not None] + [0])
    step = _nice_step(vmax if vmax > 0 else 1)
    ymax = step * (int(vmax / step) + 1) if vmax > 0 else 5 * step

    c.text(20, 12, title, BLACK, s)
    lx = left
    for i, name in enumerate(series):
        c.rect(lx, 40, lx + 14, 54, PALETTE[i % len(PALETTE)])
        c.text(lx + 20, 41, name, BLACK, s)
        lx += text_width(name) + 40

    tick = 0.0
    while tick <= ymax + 1e-9:
        y = base - int(plot_h * tick / ymax)
        c.rect(left, y, width - right, y + 1, GRID)
        lab = _fmt(tick)
        c.text(left - 8 - text_width(lab), y - 7, lab, BLACK, s)
        tick += step
    c.rect(left, top, left + 1, base + 1, BLACK)
    c.rect(left, base, width - right, base + 1, BLACK)
    c.text(4, top - 24, "MOP/S", BLACK, s)
    c.text(left, height - 22, "X = RUN FAILED", RED, s)

    for gi, (label, vals) in enumerate(groups):
        x = left + gi * group_w + (group_w - n * bar_w) // 2
        for si, v in enumerate(vals):
            bx = x + si * bar_w
            if v is None:
                c.text(bx + 4, base - 16, "X", RED, s)
                continue
            h = int(plot_h * v / ymax)
            c.rect(bx + 1, base - h, bx + bar_w - 1, base,
                   PALETTE[si % len(PALETTE)])
        for li, part in enumerate(label.split("\n")):
            px = left + gi * group_w + (group_w - text_width(part)) // 2
            c.text(px, base + 8 + li * 18, part, BLACK, s)
    return c.png()
