#!/usr/bin/env python3
"""Writes the OCR decompression-bomb fixtures (one per failure mode), small files whose
headers promise far more pixels than their bytes: run from this folder, `python3 make-bombs.py`.

- png-1bit-upscale-bomb.png: a 6000 x 6600 1-bit PNG (39.6 MP, under the 40 MP limit) of
  7 x 7 px specks in one corner. Decoded it is 5 MB, but preprocessing turns it into 8-bit
  grey and, seeing 7 px "text", scaled it up 4x (634 MP) before Tesseract read it.
- jpeg-progressive-444-bomb.jpg: a 6000 x 6600 progressive colour JPEG (4:4:4), cut off after
  its first scan. libjpeg keeps every DCT coefficient of a progressive image (2 bytes per sample,
  238 MB here) before it outputs a row, whatever the output size.
- jpeg-progressive-420-big.jpg: the same at 4:2:0 (119 MB of coefficients): readable within
  the budget when decoded at a reduced size.
- png-1bit-dot-noise.png: 4800 x 4800 (23 MP, the work cap) with a black pixel every 2 px on
  every 2nd row: 5.8 million components. Boxing each to estimate the text height took 215 MiB.
- png-1bit-dot-moire.png: the same pattern at 6000 x 6600; scaled down to the cap it becomes a
  moire of 2.5 million specks on which Tesseract took 400 MiB (17 bytes a pixel) and 290 s.
- png-1bit-comb.png: 4800 x 4800, 1-pixel vertical lines every 2 px joined by the top row: one
  component, 23 million vertical edge steps that Tesseract holds until it has traced the shape
  to the bottom (833 MiB).
"""
import struct, zlib

def chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xffffffff)

def png_1bit(path, width, height):
    stride = (width + 7) // 8
    blank = b"\x00" + b"\xff" * stride           # filter 0, all white (1 = white in grey 1-bit)
    speck_row = bytearray(b"\xff" * stride)      # 7 black pixels every 14, in the first 700 columns
    for x0 in range(0, 700, 14):
        for x in range(x0, x0 + 7):
            speck_row[x // 8] &= ~(0x80 >> (x % 8)) & 0xff
    speck = b"\x00" + bytes(speck_row)
    z = zlib.compressobj(9)
    out = []
    for y in range(height):
        out.append(z.compress(speck if y < 700 and y % 14 < 7 else blank))
    out.append(z.flush())
    ihdr = struct.pack(">IIBBBBB", width, height, 1, 0, 0, 0, 0)
    data = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", b"".join(out)) + chunk(b"IEND", b"")
    open(path, "wb").write(data)

def segment(marker, payload):
    return b"\xff" + bytes([marker]) + struct.pack(">H", len(payload) + 2) + payload

def jpeg_progressive(path, width, height, luma_sampling):
    dqt = segment(0xDB, b"\x00" + b"\x01" * 64)
    comps = [(1, luma_sampling), (2, 0x11), (3, 0x11)]
    sof = segment(0xC2, struct.pack(">BHHB", 8, height, width, 3) + b"".join(struct.pack(">BBB", c, s, 0) for c, s in comps))
    # DC table 0: one code of length 1 for category 0 (difference 0).
    dht = segment(0xC4, b"\x00" + bytes([1] + [0] * 15) + b"\x00")
    sos = segment(0xDA, b"\x03" + b"".join(struct.pack(">BB", c, 0x00) for c, _ in comps) + b"\x00\x00\x00")
    data = b"\xff\xd8" + dqt + sof + dht + sos + b"\x00" * 64 + b"\xff\xd9"
    open(path, "wb").write(data)

def png_1bit_dots(path, width, height):
    stride = width // 8
    dots, blank = b"\x00" + b"\x55" * stride, b"\x00" + b"\xff" * stride
    z = zlib.compressobj(9)
    out = [z.compress(dots if y % 2 == 0 else blank) for y in range(height)] + [z.flush()]
    ihdr = struct.pack(">IIBBBBB", width, height, 1, 0, 0, 0, 0)
    open(path, "wb").write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", b"".join(out)) + chunk(b"IEND", b""))

png_1bit("png-1bit-upscale-bomb.png", 6000, 6600)
png_1bit_dots("png-1bit-dot-noise.png", 4800, 4800)
png_1bit_dots("png-1bit-dot-moire.png", 6000, 6600)

def png_1bit_comb(path, width, height):
    stride = width // 8
    teeth, top = b"\x00" + b"\x55" * stride, b"\x00" + b"\x00" * stride
    z = zlib.compressobj(9)
    out = [z.compress(top if y == 0 else teeth) for y in range(height)] + [z.flush()]
    ihdr = struct.pack(">IIBBBBB", width, height, 1, 0, 0, 0, 0)
    open(path, "wb").write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", b"".join(out)) + chunk(b"IEND", b""))

png_1bit_comb("png-1bit-comb.png", 4800, 4800)
jpeg_progressive("jpeg-progressive-444-bomb.jpg", 6000, 6600, 0x11)
jpeg_progressive("jpeg-progressive-420-big.jpg", 6000, 6600, 0x22)
