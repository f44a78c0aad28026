#!/usr/bin/env python3
"""A realistic receipt set for the accuracy benchmark: what phones and scanners produce, not
clean renderings (the unit-test set of generate.py stays as it is).

    realistic.py --out DIR [--per-split N] [--seed 11] [--scan-dpi 200|300]

Three splits, N receipts each, cycling through the country layouts of layouts.py (LT, DE, FR,
UK, US, MY fuel; parts, tolls, food):
  phone-flat   3000x4000 JPEG: the slip on a table, upright, even light, a slight tilt of the
               phone (perspective of at most 2 %), sharp
  phone-hard   the same photo with what goes wrong: perspective up to 9 %, paper curl, a shadow
               and uneven light, blur, faded thermal paper, sensor noise, stronger JPEG
               compression, and any of the four orientations (a phone held sideways or upside
               down stores the pixels turned)
  scan         a flatbed scan at 200 or 300 dpi (drawn per slip: office scanners default to
               either; 80 mm paper is about 630 or 940 px wide), flat, greyish paper, a skew of
               up to 2 degrees, one in four stored sideways (as the real scans of
               ../shared/realdata are, about 285 dpi)
truth.json beside the images: per receipt the values printed on the slip (see layouts.py) and
the split and distortions. Deterministic for a seed. Pillow and numpy come from the bench venv.
"""
import argparse
import json
import math
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import layouts  # noqa: E402

import numpy as np  # noqa: E402
from PIL import Image, ImageDraw, ImageFilter, ImageFont  # noqa: E402

FONT_DIRS = ["/usr/share/fonts/truetype/dejavu", "/usr/share/fonts/truetype/liberation"]
# Monospaced and narrow faces thermal printers resemble; all have the Lithuanian and German letters.
FONTS = ["DejaVuSansMono.ttf", "LiberationMono-Regular.ttf", "DejaVuSansMono-Bold.ttf", "DejaVuSansCondensed.ttf"]


def font(name, size):
    for d in FONT_DIRS:
        p = os.path.join(d, name)
        if os.path.exists(p):
            return ImageFont.truetype(p, size)
    sys.exit(f"font {name} missing: apt-get install fonts-dejavu-core fonts-dejavu-extra fonts-liberation")


def render(lines, face, size, ink=0, paper=255, width_chars=34):
    """The slip as the printer made it: greyscale, `ink` on `paper`."""
    f = font(face, size)
    char_w = f.getlength("0")
    pad = int(size * 1.5)
    w = int(char_w * width_chars) + 2 * pad
    line_h = int(size * 1.4)
    h = line_h * len(lines) + 2 * pad
    img = Image.new("L", (w, h), paper)
    dr = ImageDraw.Draw(img)
    y = pad
    for ln in lines:
        if isinstance(ln, str):
            dr.text((pad, y), ln, font=f, fill=ink)
        elif ln[0] == "c":
            dr.text(((w - f.getlength(ln[1])) / 2, y), ln[1], font=f, fill=ink)
        else:
            dr.text((pad, y), ln[1], font=f, fill=ink)
            dr.text((w - pad - f.getlength(ln[2]), y), ln[2], font=f, fill=ink)
        y += line_h
    return img


def curl(img, rng, amount):
    """Paper that does not lie flat: rows bend (a sine across the width) and the edges roll away,
    so lines are curved and columns squeezed near the sides. Nearest-neighbour remap with numpy."""
    a = np.asarray(img)
    h, w = a.shape
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    u = xs / (w - 1) * 2 - 1                                   # -1 .. 1 across the slip
    bend = amount * h * 0.012 * np.sin(math.pi * (ys / h) * rng.uniform(0.8, 1.6) + rng.uniform(0, math.pi))
    src_y = ys + bend * (1 - u * u) + amount * 6 * u * u * np.sign(rng.uniform(-1, 1))
    src_x = xs + amount * w * 0.02 * u * np.abs(u)             # the rolled edges look narrower
    sy = np.clip(src_y.round().astype(np.int32), 0, h - 1)
    sx = np.clip(src_x.round().astype(np.int32), 0, w - 1)
    return Image.fromarray(a[sy, sx])


def background(rng, size=(3000, 4000)):
    """A table or car seat: a coloured surface with a slow gradient and grain."""
    w, h = size
    base = np.array([rng.randint(60, 160), rng.randint(50, 140), rng.randint(40, 120)], np.float32)
    gy = np.linspace(rng.uniform(0.75, 1.0), rng.uniform(0.9, 1.15), h, dtype=np.float32)[:, None, None]
    grain = np.random.default_rng(rng.randint(0, 2**31)).normal(0, 9, (h // 4, w // 4, 1)).astype(np.float32)
    grain = np.repeat(np.repeat(grain, 4, 0), 4, 1)
    return np.clip(base[None, None, :] * gy + grain, 0, 255)


def perspective_coeffs(src, dst):
    """PIL's PERSPECTIVE coefficients mapping output points `dst` to input points `src`."""
    m = []
    for (x, y), (u, v) in zip(dst, src):
        m.append([x, y, 1, 0, 0, 0, -u * x, -u * y])
        m.append([0, 0, 0, x, y, 1, -v * x, -v * y])
    b = np.array([c for p in src for c in p], np.float64)
    return np.linalg.solve(np.array(m, np.float64), b).tolist()


def photo(slip, rng, hard):
    """The slip photographed with a 12 MP phone (3000x4000): on a background, in perspective,
    lit, blurred, noisy; `hard` adds curl, shadow, fading, blur and a turn."""
    distortions = []
    if hard and rng.random() < 0.6:
        slip = curl(slip, rng, rng.uniform(0.6, 1.4))
        distortions.append("curl")
    W, H = 3000, 4000
    scale = min(W * rng.uniform(0.55, 0.72) / slip.width, H * rng.uniform(0.72, 0.88) / slip.height)
    slip = slip.resize((int(slip.width * scale), int(slip.height * scale)), Image.BICUBIC)
    canvas = background(rng)
    x0, y0 = (W - slip.width) // 2 + rng.randint(-80, 80), (H - slip.height) // 2 + rng.randint(-80, 80)
    paper = np.asarray(slip, np.float32)[:, :, None] * np.array([1.0, 0.99, 0.955], np.float32)[None, None, :]
    canvas[y0:y0 + slip.height, x0:x0 + slip.width] = paper
    img = Image.fromarray(canvas.astype(np.uint8), "RGB")
    # Perspective: the phone not parallel to the table; corners move by up to 2 % (flat) or 9 %.
    k = rng.uniform(0.04, 0.09) if hard else rng.uniform(0.0, 0.02)
    corners = [(0, 0), (W, 0), (W, H), (0, H)]
    moved = [(x + rng.uniform(-k, k) * W, y + rng.uniform(-k, k) * H) for x, y in corners]
    img = img.transform((W, H), Image.PERSPECTIVE, perspective_coeffs(moved, corners), Image.BICUBIC)
    if hard:
        distortions.append(f"perspective {k:.0%}")
    a = np.asarray(img, np.float32)
    yy, xx = np.mgrid[0:H:8, 0:W:8].astype(np.float32)
    if hard:
        # Uneven light and a shadow (a hand or the phone) falling across part of the slip.
        ang = rng.uniform(0, 2 * math.pi)
        light = 0.6 + 0.4 * ((np.cos(ang) * xx / W + np.sin(ang) * yy / H) % 1.0)
        cx, cy, r = rng.uniform(0, W), rng.uniform(0, H), rng.uniform(700, 1600)
        light *= 1 - 0.45 * np.exp(-((xx - cx) ** 2 + (yy - cy) ** 2) / (2 * r * r))
        distortions.append("shadow")
    else:
        light = 0.93 + 0.07 * yy / H
    light = np.asarray(Image.fromarray((light * 255).astype(np.uint8)).resize((W, H), Image.BILINEAR), np.float32) / 255
    a = a * light[:, :, None]
    a += np.random.default_rng(rng.randint(0, 2**31)).normal(0, 7 if hard else 3, (H, W, 1)).astype(np.float32)
    img = Image.fromarray(np.clip(a, 0, 255).astype(np.uint8), "RGB")
    blur = rng.uniform(1.8, 3.5) if hard else rng.uniform(0.4, 0.9)
    img = img.filter(ImageFilter.GaussianBlur(blur))
    if hard:
        distortions.append(f"blur {blur:.1f}px")
        turn = rng.choice([0, 90, 180, 270])
        if turn:
            img = img.rotate(turn, expand=True)
            distortions.append(f"turned {turn}")
    quality = rng.randint(55, 75) if hard else rng.randint(85, 92)
    distortions.append(f"jpeg q{quality}")
    return img, quality, distortions


def scan(slip, rng, dpi):
    """A flatbed scan at `dpi`: greyish paper, a small skew, sometimes stored sideways. The
    scanner's blur is optical, so its radius in pixels grows with the resolution."""
    angle = rng.uniform(-2, 2)
    img = slip.rotate(angle, resample=Image.BICUBIC, expand=True, fillcolor=236)
    a = np.asarray(img, np.float32) * 0.93 + np.random.default_rng(rng.randint(0, 2**31)).normal(0, 4, (img.height, img.width))
    img = Image.fromarray(np.clip(a, 0, 255).astype(np.uint8)).filter(ImageFilter.GaussianBlur(0.5 * dpi / 200))
    distortions = [f"{dpi} dpi", f"skew {angle:+.1f}"]
    if rng.random() < 0.25:
        img = img.rotate(90, expand=True)
        distortions.append("stored sideways")
    return img, distortions


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", required=True)
    ap.add_argument("--per-split", type=int, default=10)
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--scan-dpi", type=int, choices=(200, 300), help="every scan at this resolution (default: drawn per scan)")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    layouts_all = layouts.FUEL + layouts.OTHER
    truth = []
    for split in ("phone-flat", "phone-hard", "scan"):
        for n in range(args.per_split):
            rng = random.Random(f"{args.seed}-{split}-{n}")
            fn = layouts_all[n % len(layouts_all)]
            lines, t = fn(rng)
            face = FONTS[n % len(FONTS)]
            if split == "scan":
                # 34 characters of about 2.1 mm and the margins on 80 mm paper: a 27 px font makes
                # it 605-632 px wide (200 dpi), a 40 px one 898-938 px (300 dpi). The resolution
                # is drawn from its own stream, so every other draw, and each 200 dpi scan, is
                # the same as in sets made before it was (all at 200 dpi, then called 300).
                dpi = args.scan_dpi or random.Random(f"{args.seed}-{split}-{n}-dpi").choice((200, 300))
                slip = render(lines, face, round(27 * dpi / 200), ink=rng.randint(0, 40), paper=rng.randint(238, 250))
                img, dist = scan(slip, rng, dpi)
                name = f"{split}-{n:03d}-{t['layout']}.png"
                img.save(os.path.join(args.out, name), optimize=True)
            else:
                faded = split == "phone-hard" and rng.random() < 0.5
                slip = render(lines, face, 48, ink=rng.randint(110, 150) if faded else rng.randint(0, 50), paper=rng.randint(235, 252))
                img, quality, dist = photo(slip, rng, split == "phone-hard")
                if faded:
                    dist.insert(0, "faded thermal")
                name = f"{split}-{n:03d}-{t['layout']}.jpg"
                img.save(os.path.join(args.out, name), quality=quality)
            t.update(file=name, split=split, distortions=dist)
            truth.append({k: t[k] for k in sorted(t)})
            print(f"  {name}: {', '.join(dist)}", file=sys.stderr)
    with open(os.path.join(args.out, "truth.json"), "w") as f:
        json.dump({"generator": "scripts/receipts/realistic.py", "seed": args.seed, "receipts": truth}, f, indent=1, ensure_ascii=False)
        f.write("\n")
    print(f"{len(truth)} receipts in {args.out}")


if __name__ == "__main__":
    main()
