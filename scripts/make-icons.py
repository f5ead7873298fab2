#!/usr/bin/env python3
"""Draws the web app's icons (crates/oware-server/web/icons/) from one
description: the square icon.svg and the PNGs the manifest names (192 and
512 pixels, usable as "maskable": everything stands inside the central
circle of 80 % that a launcher may keep). Pure Python (zlib), no image
library: each pixel's colour is the shapes' coverage from their signed
distance, so the same script writes the same bytes everywhere.

    python3 scripts/make-icons.py        # rewrites the four files
"""
import math
import os
import struct
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "..", "crates", "oware-server", "web", "icons")

SAND = (0xE9, 0xD8, 0xB4)
WOOD = (0x8A, 0x5A, 0x2B)
PIT = (0x3B, 0x24, 0x12)

# On a 512 canvas: the board, three houses, two seeds.
BOARD = (80, 168, 432, 344, 88)  # x0, y0, x1, y1, corner radius
PITS = [(168, 256, 46), (256, 256, 46), (344, 256, 46)]
SEEDS = [(168, 242, 17), (344, 270, 17)]


def rounded_rect_sd(x, y, box):
    x0, y0, x1, y1, r = box
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    hx, hy = (x1 - x0) / 2 - r, (y1 - y0) / 2 - r
    qx, qy = abs(x - cx) - hx, abs(y - cy) - hy
    outside = math.hypot(max(qx, 0.0), max(qy, 0.0))
    return outside + min(max(qx, qy), 0.0) - r


def circle_sd(x, y, c):
    return math.hypot(x - c[0], y - c[1]) - c[2]


def cover(sd):
    return min(1.0, max(0.0, 0.5 - sd))


def blend(under, over, a):
    return tuple(u + (o - u) * a for u, o in zip(under, over))


def pixels(size):
    k = 512 / size
    rows = []
    for j in range(size):
        row = bytearray([0])  # filter: none
        for i in range(size):
            # The pixel's centre on the 512 canvas; distances in pixels.
            x, y = (i + 0.5) * k, (j + 0.5) * k
            c = SAND
            c = blend(c, WOOD, cover(rounded_rect_sd(x, y, BOARD) / k))
            for p in PITS:
                c = blend(c, PIT, cover(circle_sd(x, y, p) / k))
            for s in SEEDS:
                c = blend(c, SAND, cover(circle_sd(x, y, s) / k))
            row += bytes(int(round(v)) for v in c)
        rows.append(bytes(row))
    return b"".join(rows)


def png(size):
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", size, size, 8, 2, 0, 0, 0)  # 8-bit RGB
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header)
            + chunk(b"IDAT", zlib.compress(pixels(size), 9)) + chunk(b"IEND", b""))


def svg():
    x0, y0, x1, y1, r = BOARD
    shapes = [f'<rect width="512" height="512" fill="#e9d8b4"/>',
              f'<rect x="{x0}" y="{y0}" width="{x1 - x0}" height="{y1 - y0}" rx="{r}" fill="#8a5a2b"/>']
    shapes += [f'<circle cx="{x}" cy="{y}" r="{r}" fill="#3b2412"/>' for x, y, r in PITS]
    shapes += [f'<circle cx="{x}" cy="{y}" r="{r}" fill="#e9d8b4"/>' for x, y, r in SEEDS]
    return '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 512 512">' + "".join(shapes) + "</svg>\n"


def main():
    os.makedirs(OUT, exist_ok=True)
    with open(os.path.join(OUT, "icon.svg"), "w", encoding="utf-8") as f:
        f.write(svg())
    for size in (192, 512):
        with open(os.path.join(OUT, f"icon-{size}.png"), "wb") as f:
            f.write(png(size))


if __name__ == "__main__":
    main()
