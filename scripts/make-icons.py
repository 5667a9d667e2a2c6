#!/usr/bin/env python3
"""Draws the app icons as PNG (public/icons/icon-192.png, icon-512.png, apple-touch-icon.png)
with the Python standard library only: the shape of public/icons/icon.svg (the favicon's
diamond, full-bleed so it is also a "maskable" icon: the diamond stays inside the safe zone)
rasterised with 4x4 supersampling and written with zlib.

    python3 scripts/make-icons.py
"""
import os
import struct
import zlib

BLUE = (0x1F, 0x5F, 0xBF)
WHITE = (0xFF, 0xFF, 0xFF)
HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "..", "public", "icons")


def colour_at(x, y):
    """Colour of the 512-unit icon at (x, y): |dx| + |dy| distance from the centre."""
    d = abs(x - 256) + abs(y - 256)
    if d <= 76:
        return BLUE
    if d <= 168:
        return WHITE
    return BLUE


def render(size, samples=4):
    rows = []
    scale = 512 / size
    for py in range(size):
        row = bytearray([0])  # filter type 0
        for px in range(size):
            acc = [0, 0, 0]
            for sy in range(samples):
                for sx in range(samples):
                    c = colour_at((px + (sx + 0.5) / samples) * scale, (py + (sy + 0.5) / samples) * scale)
                    acc[0] += c[0]
                    acc[1] += c[1]
                    acc[2] += c[2]
            n = samples * samples
            row.extend(round(v / n) for v in acc)
        rows.append(bytes(row))
    return b"".join(rows)


def png(size, pixels):
    def chunk(kind, data):
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)

    header = struct.pack(">IIBBBBB", size, size, 8, 2, 0, 0, 0)  # 8-bit RGB
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header)
            + chunk(b"IDAT", zlib.compress(pixels, 9)) + chunk(b"IEND", b""))


def main():
    os.makedirs(OUT, exist_ok=True)
    for name, size in [("icon-192.png", 192), ("icon-512.png", 512), ("apple-touch-icon.png", 180)]:
        with open(os.path.join(OUT, name), "wb") as f:
            f.write(png(size, render(size)))
        print(name, size)


if __name__ == "__main__":
    main()
