#!/usr/bin/env python3
"""Phone-photo versions of flat generated receipts, to measure OCR preprocessing on.

    python3 scripts/receipts/photo-transforms.py FLAT_DIR OUT_DIR [--seed 11] [--size 3000x4000]

FLAT_DIR is a set written by `generate.py --out FLAT_DIR` (PNG slips and truth.json). For each
undegraded slip this writes OUT_DIR/<name>-photo.jpg and a truth.json with the same values:
the slip enlarged to fill about 45-65 % of a 3000 x 4000 frame on a darker, uneven table, seen
in perspective (corners moved by up to 6 % of the frame), a few degrees of rotation, a shadow
gradient across it, a slight blur, then turned 0, 90, 180 or 270 degrees in turn (a phone held
any way, with no EXIF orientation) and saved as JPEG quality 85.

Pillow comes from the generator's venv (.venv-receipts): run generate.py once first.
"""
import argparse
import json
import os
import random
import sys

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
try:
    from PIL import Image, ImageChops, ImageFilter
except ImportError:
    py = os.path.join(ROOT, ".venv-receipts", "bin", "python")
    if os.path.exists(py) and sys.executable != py:
        os.execv(py, [py] + sys.argv)
    sys.exit("Pillow missing: run scripts/receipts/generate.py once (it creates .venv-receipts)")


def perspective_coeffs(src, dst):
    """Coefficients for Image.transform(PERSPECTIVE) mapping output points dst to input points src."""
    # Solve the 8x8 system by Gaussian elimination (no numpy in the venv).
    rows, rhs = [], []
    for (x, y), (u, v) in zip(dst, src):
        rows.append([x, y, 1, 0, 0, 0, -u * x, -u * y]); rhs.append(u)
        rows.append([0, 0, 0, x, y, 1, -v * x, -v * y]); rhs.append(v)
    n = 8
    m = [r + [b] for r, b in zip(rows, rhs)]
    for c in range(n):
        p = max(range(c, n), key=lambda r: abs(m[r][c]))
        m[c], m[p] = m[p], m[c]
        for r in range(n):
            if r != c:
                f = m[r][c] / m[c][c]
                m[r] = [a - f * b for a, b in zip(m[r], m[c])]
    return [m[i][n] / m[i][i] for i in range(n)]


def photo(slip, rng, size, turn):
    W, H = size
    slip = slip.convert("L")
    # Table: a flat mid grey (the shadow below darkens it with the slip).
    table = Image.new("L", (W, H), rng.randint(70, 120))
    fill = rng.uniform(0.45, 0.65)
    scale = min(W * fill / slip.width, H * 0.85 / slip.height)
    sw, sh = int(slip.width * scale), int(slip.height * scale)
    slip = slip.resize((sw, sh), Image.BICUBIC)
    x0, y0 = (W - sw) // 2 + rng.randint(-W // 20, W // 20), (H - sh) // 2 + rng.randint(-H // 30, H // 30)
    j = lambda: rng.uniform(-0.06, 0.06) * W
    dst = [(x0 + j(), y0 + j()), (x0 + sw + j(), y0 + j()), (x0 + sw + j(), y0 + sh + j()), (x0 + j(), y0 + sh + j())]
    src = [(0, 0), (sw, 0), (sw, sh), (0, sh)]
    coeffs = perspective_coeffs(src, dst)
    warped = slip.transform((W, H), Image.PERSPECTIVE, coeffs, Image.BICUBIC, fillcolor=0)
    mask = Image.new("L", (sw, sh), 255).transform((W, H), Image.PERSPECTIVE, coeffs, Image.BILINEAR, fillcolor=0)
    table.paste(warped, (0, 0), mask)
    # Shadow: a linear gradient darkening one side by up to 35 %.
    grad = Image.linear_gradient("L").resize((W, H)).rotate(rng.choice([0, 90, 180, 270]) + rng.uniform(-30, 30), fillcolor=128)
    dark = rng.uniform(0.2, 0.35)
    shade = grad.point(lambda v: int(255 * (1 - dark * v / 255)))
    table = ImageChops.multiply(table, shade)
    table = table.rotate(rng.uniform(-4, 4), Image.BICUBIC, fillcolor=90)
    table = table.filter(ImageFilter.GaussianBlur(rng.uniform(1.0, 2.2)))
    return table.rotate(-90 * turn, expand=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("flat")
    ap.add_argument("out")
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--size", default="3000x4000")
    args = ap.parse_args()
    W, H = map(int, args.size.split("x"))
    os.makedirs(args.out, exist_ok=True)
    truths = json.load(open(os.path.join(args.flat, "truth.json")))["receipts"]
    out = []
    for k, t in enumerate(x for x in truths if not x["degradations"]):
        rng = random.Random(args.seed * 1000 + k)
        turn = k % 4
        img = photo(Image.open(os.path.join(args.flat, t["file"])), rng, (W, H), turn)
        name = t["file"].rsplit(".", 1)[0] + f"-photo-q{turn}.jpg"
        img.save(os.path.join(args.out, name), quality=85)
        out.append(dict(t, file=name, degradations=["photo", f"turn{turn * 90}"], degraded=True, turn=turn))
    json.dump({"receipts": out}, open(os.path.join(args.out, "truth.json"), "w"), indent=1)
    print(f"{len(out)} photos in {args.out}")


if __name__ == "__main__":
    main()
