#!/usr/bin/env python3
"""Receipt images with known truth, for FleetOCR's tests and accuracy benchmark.

    python3 scripts/receipts/generate.py [--out Tests/FleetOCRTests/Fixtures/receipts] [--seed 7]

Writes one PNG per receipt and `truth.json` beside them (the values printed on each slip, in
the units and currency printed). The set mixes US, European and Asian layouts, several fonts
(Debian fonts-dejavu and fonts-liberation) and photo-like degradations: 90/180/270 degree
turns, a few degrees of skew, blur, noise, low contrast, uneven lighting. It is seeded, so the
committed images are its output; change the script, run it again, commit both.

Pillow comes from a venv (.venv-receipts): when it is missing this script creates the venv and
re-runs itself there, so nothing is installed system-wide.
"""
import json
import os
import random
import subprocess
import sys

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
VENV = os.path.join(ROOT, ".venv-receipts")

try:
    from PIL import Image, ImageChops, ImageDraw, ImageFilter, ImageFont
except ImportError:
    if os.environ.get("RECEIPTS_VENV_TRIED"):
        sys.exit("Pillow is not importable even in .venv-receipts; delete the venv and retry")
    if not os.path.exists(os.path.join(VENV, "bin", "python")):
        subprocess.check_call([sys.executable, "-m", "venv", VENV])
    subprocess.check_call([os.path.join(VENV, "bin", "pip"), "install", "-q", "Pillow"])
    os.environ["RECEIPTS_VENV_TRIED"] = "1"
    os.execv(os.path.join(VENV, "bin", "python"), [os.path.join(VENV, "bin", "python")] + sys.argv)

FONT_DIRS = ["/usr/share/fonts/truetype/dejavu", "/usr/share/fonts/truetype/liberation"]
FONTS = {
    "dejavu-mono": "DejaVuSansMono.ttf",
    "dejavu-mono-bold": "DejaVuSansMono-Bold.ttf",
    "liberation-mono": "LiberationMono-Regular.ttf",
    "liberation-sans": "LiberationSans-Regular.ttf",
    "liberation-narrow": "LiberationSansNarrow-Regular.ttf",
    "dejavu-sans": "DejaVuSans.ttf",
    "dejavu-condensed": "DejaVuSansCondensed.ttf",
    "liberation-serif": "LiberationSerif-Regular.ttf",
}


def font_path(name):
    for d in FONT_DIRS:
        p = os.path.join(d, FONTS[name])
        if os.path.exists(p):
            return p
    sys.exit(f"font {FONTS[name]} missing: apt-get install fonts-dejavu-core fonts-liberation")


# --- Amount formatting -------------------------------------------------------------------

def money(value, decimals=2, comma=False, group=False):
    s = f"{value:,.{decimals}f}" if group else f"{value:.{decimals}f}"
    if comma:
        s = s.replace(",", "_").replace(".", ",").replace("_", ".")
    return s


def r2(x, d=2):
    return round(x + 1e-9, d)


# --- Layouts: each returns (lines, truth) -----------------------------------------------
# A line is "text" (left), ("c", "text") centred, or ("lr", left, right).

US_STATIONS = [("SHELL", "1234 W JEFFERSON ST", "JOLIET IL 60435"),
               ("PILOT TRAVEL CENTER #318", "1201 E STATE RD", "MORRIS IL 60450"),
               ("CHEVRON", "455 MARKET ST", "SAN FRANCISCO CA 94105"),
               ("LOVE'S TRAVEL STOP #512", "3390 BROADWAY", "GARY IN 46408"),
               ("SPEEDWAY 7719", "88 N MAIN ST", "DAYTON OH 45402"),
               ("MARATHON", "2200 LAKE AVE", "DULUTH MN 55802")]
US_GRADES = ["UNLEADED REGULAR", "UNLEADED PLUS", "PREMIUM", "DIESEL #2", "ULSD DIESEL"]
EU = [  # merchant, street, city, currency, total keyword, grades, volume word, lang
    ("ARAL TANKSTELLE", "Hauptstrasse 12", "10115 Berlin", "EUR", "SUMME", ["Diesel", "Super E10", "Super 95"], "de"),
    ("TOTALENERGIES RELAIS", "12 Avenue de Paris", "69007 Lyon", "EUR", "TOTAL TTC", ["Gazole", "SP95-E10", "SP98"], "fr"),
    ("SHELL STATION", "Kaunas Savanoriu pr. 16", "LT-44253 Kaunas", "EUR", "MOKETI", ["Dyzelinas", "Benzinas 95"], "lt"),
    ("BP TRUCKSTOP", "Industrieweg 4", "3542 Utrecht", "EUR", "TOTAAL", ["Diesel", "Euro 95"], "nl"),
    ("ESSO EXPRESS", "22 London Road", "Reading RG1 5BJ", "GBP", "AMOUNT DUE", ["Diesel", "Unleaded"], "uk"),
]
ASIA = [  # merchant, street, city, currency symbol, code, grades, decimals
    ("PETRONAS JALAN KLANG LAMA", "Batu 3 1/2", "58000 Kuala Lumpur", "RM", "MYR", ["RON95", "RON97", "DIESEL B10"], 2),
    ("SHELL MALAYSIA TRADING", "Lot 2, Jalan Tun Razak", "50400 Kuala Lumpur", "RM", "MYR", ["FuelSave 95", "V-Power 97", "Diesel"], 2),
    ("ESSO SINGAPORE", "1 Jurong West Ave 2", "Singapore 649473", "S$", "SGD", ["Synergy 95", "Synergy Diesel"], 2),
    ("ENEOS DR. DRIVE SHINAGAWA", "2-3-1 Konan, Minato-ku", "Tokyo 108-0075", "YEN", "JPY", ["REGULAR", "HIGH OCTANE", "DIESEL"], 0),
]
MONTHS = ["JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"]


def card_number(rng):
    return "4" + "".join(str(rng.randrange(10)) for _ in range(15))


def footer_card(rng, style):
    num = card_number(rng)
    last4 = num[-4:]
    if style == "masked":
        return f"VISA ************{last4}", last4
    if style == "x":
        return f"CARD XXXXXXXXXXXX{last4}", last4
    # a full card number printed (old terminals): must be masked wherever OCR text is kept
    return f"MASTERCARD {num[:4]} {num[4:8]} {num[8:12]} {num[12:]}", last4


def us_fuel(rng, i):
    name, street, city = US_STATIONS[i % len(US_STATIONS)]
    grade = rng.choice(US_GRADES)
    gallons = r2(rng.uniform(8, 95), 3)
    ppg = r2(rng.uniform(2.899, 4.599), 3)
    total = r2(gallons * ppg)
    y, m, d = 2025, rng.randint(1, 12), rng.randint(13, 28) if i % 2 else rng.randint(1, 12)
    hh, mm = rng.randint(5, 22), rng.randint(0, 59)
    ampm = i % 3 == 0
    t = f"{(hh - 1) % 12 + 1:02d}:{mm:02d} {'PM' if hh >= 12 else 'AM'}" if ampm else f"{hh:02d}:{mm:02d}"
    pump = rng.randint(1, 16)
    lines = [("c", name), ("c", street), ("c", city), "",
             ("lr", f"{m:02d}/{d:02d}/{y}", t), f"PUMP # {pump:02d}", grade,
             ("lr", "GALLONS", f"{gallons:.3f}"), ("lr", "PRICE/GAL", f"$ {ppg:.3f}"),
             ("lr", "FUEL SALE", f"$ {total:.2f}"), "-" * 24]
    truth = dict(layout="us-fuel", kind="fuel", merchant=name, date=f"{y}-{m:02d}-{d:02d}", time=f"{hh:02d}:{mm:02d}",
                 total=f"{total:.2f}", currency="USD", volume=f"{gallons:.3f}", volume_unit="gal",
                 unit_price=f"{ppg:.3f}", grade=grade)
    key = rng.choice(["TOTAL", "AMOUNT DUE", "TOTAL SALE"])
    lines.append(("lr", key, f"$ {total:.2f}"))
    if i % 4 == 1:   # paid cash: tendered and change are larger/smaller numbers than the total
        tendered = float((int(total) // 20 + 1) * 20)
        lines += [("lr", "CASH", f"$ {tendered:.2f}"), ("lr", "CHANGE", f"$ {tendered - total:.2f}")]
        truth["card_last4"] = None
    else:
        text, last4 = footer_card(rng, ["masked", "x", "full"][i % 3])
        lines += [text, f"AUTH # {rng.randint(100000, 999999)}"]
        truth["card_last4"] = last4
    if i % 3 == 2:
        unit = f"T-{rng.randint(10, 40)}"
        lines.append(f"VEHICLE: {unit}")
        truth["unit_number"] = unit
    if i % 5 == 0:
        odo = rng.randint(20000, 250000)
        lines.append(f"ODOMETER: {odo}")
        truth["odometer"] = str(odo)
    lines += ["", ("c", "THANK YOU"), ("c", "PLEASE COME AGAIN")]
    return lines, truth


def us_expense(rng, i):
    kinds = [("AUTOZONE #4411", "parts", ["WIPER BLADE 22IN", "MOTOR OIL 5W30 5QT", "OIL FILTER"]),
             ("DISCOUNT TIRE", "tires", ["TIRE 265/70R17", "TIRE 265/70R17", "DISPOSAL FEE"]),
             ("SUPER SUDS CAR WASH", "other", ["TRUCK WASH DELUXE", "UNDERCARRIAGE"])]
    name, category, items = kinds[i % len(kinds)]
    prices = [r2(rng.uniform(4, 180)) for _ in items]
    sub = r2(sum(prices))
    tax = r2(sub * 0.0825)
    total = r2(sub + tax)
    y, m, d = 2025, rng.randint(1, 12), rng.randint(13, 28)
    hh, mm = rng.randint(7, 19), rng.randint(0, 59)
    lines = [("c", name), ("c", "900 COMMERCE DR"), ("c", "NAPERVILLE IL 60563"), "",
             ("lr", f"{m:02d}/{d:02d}/{y}", f"{hh:02d}:{mm:02d}")]
    lines += [("lr", it, f"{p:.2f}") for it, p in zip(items, prices)]
    lines += [("lr", "SUBTOTAL", f"{sub:.2f}"), ("lr", "TAX 8.25%", f"{tax:.2f}"), ("lr", "TOTAL", f"$ {total:.2f}")]
    text, last4 = footer_card(rng, "masked")
    lines += [text, "", ("c", "THANK YOU FOR SHOPPING")]
    return lines, dict(layout="us-expense", kind="expense", category=category, merchant=name, date=f"{y}-{m:02d}-{d:02d}",
                       time=f"{hh:02d}:{mm:02d}", total=f"{total:.2f}", currency="USD", card_last4=last4)


def eu_fuel(rng, i):
    name, street, city, cur, key, grades, lang = EU[i % len(EU)]
    grade = rng.choice(grades)
    litres = r2(rng.uniform(20, 400) if "TRUCK" in name else rng.uniform(15, 70), 2)
    ppl = r2(rng.uniform(1.459, 1.899), 3)
    total = r2(litres * ppl)
    y, m, d = 2025, rng.randint(1, 12), rng.randint(13, 28)
    hh, mm = rng.randint(5, 22), rng.randint(0, 59)
    comma = lang != "uk"
    sym = "EUR" if cur == "EUR" else "GBP"
    dates = {"de": f"{d:02d}.{m:02d}.{y}", "fr": f"{d:02d}/{m:02d}/{y}", "lt": f"{y}-{m:02d}-{d:02d}",
             "nl": f"{d:02d}-{m:02d}-{y}", "uk": f"{d:02d}/{m:02d}/{y}"}
    labels = {"de": ("Datum", "Uhrzeit"), "fr": ("Date", "Heure"), "lt": ("Data", "Laikas"), "nl": ("Datum", "Tijd"), "uk": ("DATE", "TIME")}
    dl, tl = labels[lang]
    lines = [("c", name), ("c", street), ("c", city), "", ("lr", f"{dl} {dates[lang]}", f"{tl} {hh:02d}:{mm:02d}"), ""]
    if lang == "uk":
        lines += [f"PUMP 3 {grade.upper()}", ("lr", "LITRES", f"{litres:.2f}"), ("lr", "PRICE/LTR", f"GBP {ppl:.3f}")]
    else:
        # `price X volume l`, comma decimals; the price sometimes with a dot (mixed conventions)
        price_txt = money(ppl, 3, comma=(i % 2 == 0))
        lines += [f"Zapfsaeule 4 {grade}" if lang == "de" else f"Pompe 4 {grade}" if lang == "fr" else f"{grade}",
                  f"{price_txt} X {money(litres, 2, comma=True)} l", ("lr", f"{sym}/l {money(ppl, 3, comma=True)}", money(total, 2, comma=True))]
    lines += ["-" * 24, ("lr", f"{key} {sym}", money(total, 2, comma=comma))]
    truth = dict(layout=f"eu-fuel-{lang}", kind="fuel", merchant=name, date=f"{y}-{m:02d}-{d:02d}", time=f"{hh:02d}:{mm:02d}",
                 total=f"{total:.2f}", currency=cur, volume=f"{litres:.2f}", volume_unit="L", unit_price=f"{ppl:.3f}", grade=grade)
    if lang == "de" and i % 2 == 0:
        given = float((int(total) // 50 + 1) * 50)
        lines += [("lr", "Gegeben BAR", money(given, 2, comma=True)), ("lr", "Rueckgeld", money(given - total, 2, comma=True))]
        truth["card_last4"] = None
    else:
        text, last4 = footer_card(rng, ["masked", "full"][i % 2])
        lines += [text]
        truth["card_last4"] = last4
    vat = r2(total - total / 1.19 if cur == "EUR" else total - total / 1.2)
    lines += [("lr", "MwSt 19%" if lang == "de" else "TVA 20%" if lang == "fr" else "PVM 21%" if lang == "lt" else "BTW 21%" if lang == "nl" else "VAT 20%",
               money(vat, 2, comma=comma))]
    if i % 3 == 0:
        unit = f"T-{rng.randint(10, 40)}"
        lines.append(f"Fahrzeug {unit}" if lang == "de" else f"Vehicle {unit}")
        truth["unit_number"] = unit
    if lang == "de":   # two date formats on one slip
        lines.append(f"Beleg 4711 {y}-{m:02d}-{d:02d} {hh:02d}:{mm:02d}")
    lines += ["", ("c", "Vielen Dank" if lang == "de" else "Merci" if lang == "fr" else "Thank you")]
    return lines, truth


def asia_fuel(rng, i):
    name, street, city, sym, cur, grades, dec = ASIA[i % len(ASIA)]
    grade = rng.choice(grades)
    litres = r2(rng.uniform(10, 60), 2)
    if dec == 0:
        ppl = float(rng.randint(160, 185))
        total = float(round(litres * ppl))
    else:
        ppl = r2(rng.uniform(2.05, 3.35) if cur == "MYR" else rng.uniform(2.6, 3.3), 2)
        total = r2(litres * ppl)
    y, m, d = 2025, rng.randint(1, 12), rng.randint(1, 28)
    hh, mm = rng.randint(5, 22), rng.randint(0, 59)
    mon = MONTHS[m - 1]
    if cur == "MYR":
        date = f"{d:02d}-{mon}-{y}"
    elif cur == "SGD":
        date = f"{d:02d}/{m:02d}/{y}"
    else:
        date = f"{y}/{m:02d}/{d:02d}"
    amt = lambda v: f"{v:,.0f}" if dec == 0 else f"{v:.2f}"
    lines = [("c", name), ("c", street), ("c", city), ("c", "GST REG NO: 001234567890") if cur != "JPY" else ("c", "TEL 03-5555-0123"), "",
             ("lr", date, f"{hh:02d}:{mm:02d}"), f"PUMP: {rng.randint(1, 12):02d}  {grade}"]
    if cur == "JPY":
        lines += [("lr", f"{litres:.2f} L @ {ppl:.0f}", amt(total))]
    else:
        lines += [("lr", f"{litres:.2f} litre", f"{sym} {amt(total)}"), ("lr", "PRICE/L", f"{sym} {ppl:.2f}")]
    lines += ["-" * 24, ("lr", "TOTAL", f"{sym} {amt(total)}")]
    truth = dict(layout=f"asia-fuel-{cur.lower()}", kind="fuel", merchant=name, date=f"{y}-{m:02d}-{d:02d}", time=f"{hh:02d}:{mm:02d}",
                 total=f"{total:.{dec}f}", currency=cur, volume=f"{litres:.2f}", volume_unit="L", unit_price=f"{ppl:.{dec}f}", grade=grade)
    if i % 2 == 1:
        tendered = float((int(total) // 50 + 1) * 50) if dec else float((int(total) // 1000 + 1) * 1000)
        lines += [("lr", "CASH", f"{sym} {amt(tendered)}"), ("lr", "CHANGE", f"{sym} {amt(tendered - total)}")]
        truth["card_last4"] = None
    else:
        text, last4 = footer_card(rng, "x")
        lines.append(text)
        truth["card_last4"] = last4
    if i % 4 == 0:
        unit = f"T-{rng.randint(10, 40)}"
        lines.append(f"VEHICLE NO: {unit}")
        truth["unit_number"] = unit
    lines += ["", ("c", "THANK YOU PLEASE COME AGAIN")]
    return lines, truth


def sample_receipts():
    """Receipts of the sample fleet (SampleData, October 2026), in unit folders: the first
    records the same purchase as card transaction T2026100100037 of SampleData/fuel-card
    (T-07, card 7514, 06:41, 17.650 gal at 3.361, $59.32; so it links to it), the second is a
    cash purchase no card records, the third a second photo of it (turned, noisy; the two print
    the same time, so whichever has the smaller key is counted and the other links to it), the
    fourth a parts expense."""
    pilot = [("c", "PILOT TRAVEL CENTER #412"), ("c", "1201 E STATE RD"), ("c", "JOLIET IL 60431"), "",
             ("lr", "10/01/2026", "06:41"), "PUMP # 07", "UNLEADED REGULAR", ("lr", "GALLONS", "17.650"),
             ("lr", "PRICE/GAL", "$ 3.361"), "-" * 24, ("lr", "TOTAL", "$ 59.32"), "FLEET ************7514",
             "AUTH # 448120", "", ("c", "THANK YOU")]
    shell = [("c", "SHELL"), ("c", "455 OGDEN AVE"), ("c", "NAPERVILLE IL 60540"), "",
             ("lr", "10/14/2026", "12:10 PM"), "PUMP # 02", "DIESEL #2", ("lr", "GALLONS", "22.104"),
             ("lr", "PRICE/GAL", "$ 3.459"), "-" * 24, ("lr", "TOTAL", "$ 76.46"), ("lr", "CASH", "$ 80.00"),
             ("lr", "CHANGE", "$ 3.54"), "", ("c", "THANK YOU")]
    parts = [("c", "AUTOZONE #4411"), ("c", "900 COMMERCE DR"), ("c", "NAPERVILLE IL 60563"), "",
             ("lr", "10/20/2026", "15:32"), ("lr", "OIL FILTER", "12.99"), ("lr", "WIPER BLADE 22IN", "18.99"),
             ("lr", "SUBTOTAL", "31.98"), ("lr", "TAX 8.25%", "2.64"), ("lr", "TOTAL", "$ 34.62"), "VISA ************5511",
             "", ("c", "THANK YOU FOR SHOPPING")]
    fuel = dict(kind="fuel", currency="USD", volume_unit="gal")
    return [
        ("T-07/receipt-2026-10-01-pilot.png", pilot, "dejavu-mono", 22, [],
         dict(fuel, merchant="PILOT TRAVEL CENTER #412", date="2026-10-01", time="06:41", total="59.32", volume="17.650",
              unit_price="3.361", grade="UNLEADED REGULAR", card_last4="7514", links_to="card:T2026100100037")),
        ("T-12/receipt-2026-10-14-shell.png", shell, "liberation-mono", 22, [],
         dict(fuel, merchant="SHELL", date="2026-10-14", time="12:10", total="76.46", volume="22.104", unit_price="3.459",
              grade="DIESEL #2", card_last4=None, same_purchase_as="receipt-2026-10-14-shell-again.jpg")),
        ("T-12/receipt-2026-10-14-shell-again.jpg", shell, "liberation-mono", 22, ["rot180", "noise"],
         dict(fuel, merchant="SHELL", date="2026-10-14", time="12:10", total="76.46", volume="22.104", unit_price="3.459",
              grade="DIESEL #2", card_last4=None, same_purchase_as="receipt-2026-10-14-shell.png")),
        ("T-03/receipt-2026-10-20-autozone.png", parts, "dejavu-sans", 22, [],
         dict(kind="expense", category="parts", currency="USD", merchant="AUTOZONE #4411", date="2026-10-20", time="15:32",
              total="34.62", card_last4="5511")),
    ]


# --- Rendering -----------------------------------------------------------------------------

def render(lines, font_name, size, width_chars=34):
    font = ImageFont.truetype(font_path(font_name), size)
    char_w = font.getlength("0")
    pad = int(size * 1.2)
    w = int(char_w * width_chars) + 2 * pad
    line_h = int(size * 1.35)
    h = line_h * len(lines) + 2 * pad
    img = Image.new("L", (w, h), 255)
    dr = ImageDraw.Draw(img)
    y = pad
    for ln in lines:
        if isinstance(ln, str):
            dr.text((pad, y), ln, font=font, fill=0)
        elif ln[0] == "c":
            dr.text(((w - font.getlength(ln[1])) / 2, y), ln[1], font=font, fill=0)
        else:
            dr.text((pad, y), ln[1], font=font, fill=0)
            dr.text((w - pad - font.getlength(ln[2]), y), ln[2], font=font, fill=0)
        y += line_h
    return img


def degrade(img, kinds, rng):
    """Applies photo-like damage in a fixed order: lighting and contrast (paper), skew, blur,
    noise (camera), then the 90-degree turns of a phone held sideways."""
    if "uneven" in kinds:   # a shadow across the slip: brightness falls to 45% towards one side
        grad = Image.linear_gradient("L").transpose(rng.choice([Image.Transpose.ROTATE_90, Image.Transpose.FLIP_TOP_BOTTOM,
                                                                Image.Transpose.ROTATE_270])).resize(img.size)
        img = ImageChops.multiply(img, grad.point(lambda v: 255 - int(v * 0.55)))
    if "lowcontrast" in kinds:   # faded thermal paper: ink grey, paper grey
        img = img.point(lambda v: 95 + int(v * (205 - 95) / 255))
    if "skew" in kinds:
        angle = rng.choice([-1, 1]) * rng.uniform(2.0, 4.5)
        img = img.rotate(angle, resample=Image.BICUBIC, expand=True, fillcolor=255 if "lowcontrast" not in kinds else 205)
    if "blur" in kinds:
        img = img.filter(ImageFilter.GaussianBlur(rng.uniform(0.9, 1.3)))
    if "noise" in kinds:
        noise = Image.effect_noise(img.size, rng.uniform(28, 40))
        img = Image.blend(img, noise, 0.22)
    for k, quads in (("rot90", 90), ("rot180", 180), ("rot270", 270)):
        if k in kinds:
            img = img.rotate(quads, expand=True)
    return img


# The set: (layout function, index, font, size, degradations). Undistorted first.
def plan():
    fonts = list(FONTS)
    layouts = [us_fuel] * 8 + [eu_fuel] * 7 + [asia_fuel] * 6 + [us_expense] * 3
    items = []
    # 20 clean receipts across layouts and fonts (font sizes from small photo to flatbed scan)
    for n in range(20):
        fn = layouts[(n * 7) % len(layouts)] if n >= 4 else [us_fuel, eu_fuel, asia_fuel, us_expense][n]
        size = [22, 20, 24, 26, 18, 40][n % 6]
        items.append((fn, n, fonts[n % len(fonts)], size, []))
    degradations = [["rot90"], ["rot180"], ["rot270"], ["skew"], ["skew"], ["blur"], ["noise"], ["lowcontrast"],
                    ["uneven"], ["rot90", "skew"], ["rot180", "noise"], ["blur", "lowcontrast"], ["uneven", "noise"],
                    ["skew", "blur"], ["rot90", "lowcontrast"], ["skew", "uneven"], ["rot180", "blur"], ["noise", "skew"],
                    ["rot270", "uneven"], ["lowcontrast", "skew"], ["rot90"], ["blur"], ["noise"], ["skew", "lowcontrast", "noise"]]
    for k, deg in enumerate(degradations):
        n = 20 + k
        fn = [us_fuel, eu_fuel, asia_fuel, us_fuel, eu_fuel, asia_fuel, us_expense][k % 7]
        size = [24, 22, 26, 28][k % 4]
        items.append((fn, n, fonts[(k * 3) % len(fonts)], size, deg))
    # Text size extremes: a phone photo from arm's length (capitals about 8 px) and a 600 dpi
    # flatbed scan (about 58 px), for the scaling step.
    items.append((asia_fuel, 44, "liberation-mono", 11, ["small"]))
    items.append((eu_fuel, 45, "dejavu-mono", 80, []))
    return items


def extended_plan(count):
    """The test set, then more receipts up to `count` for the throughput benchmark: the same
    layouts, fonts and degradations in other combinations, every other one degraded."""
    items = plan()
    base = list(items)
    layouts = [us_fuel, eu_fuel, asia_fuel, us_expense]
    fonts = list(FONTS)
    degraded = [deg for *_, deg in base if deg]
    for n in range(len(base), count):
        k = n - len(base)
        deg = degraded[k % len(degraded)] if k % 2 else []
        items.append((layouts[k % len(layouts)], n, fonts[(k * 5) % len(fonts)], [22, 24, 20, 26, 28][k % 5], deg))
    return items


def main():
    import argparse
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default=os.path.join(ROOT, "Tests/FleetOCRTests/Fixtures/receipts"))
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--count", type=int, default=0,
                    help="receipts in the set (default: the test set); more are for the throughput benchmark")
    ap.add_argument("--set-only", action="store_true",
                    help="write only the set in --out, not the sample fleet's receipts nor the not-a-receipt photo")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    for f in os.listdir(args.out):
        if f.endswith(".png") or f == "truth.json":
            os.remove(os.path.join(args.out, f))
    truth = []
    for fn, n, font, size, deg in (extended_plan(args.count) if args.count else plan()):
        rng = random.Random(args.seed * 1000 + n)
        lines, t = fn(rng, n)
        img = degrade(render(lines, font, size), deg, rng)
        name = f"r{n:02d}-{t['layout']}{'-' + '-'.join(deg) if deg else ''}.png"
        img.save(os.path.join(args.out, name), optimize=True)
        t.update(file=name, font=font, font_px=size, degradations=deg, degraded=bool(deg))
        truth.append({k: t[k] for k in sorted(t)})
    with open(os.path.join(args.out, "truth.json"), "w") as f:
        json.dump({"generator": "scripts/receipts/generate.py", "seed": args.seed, "receipts": truth}, f, indent=1, ensure_ascii=False)
        f.write("\n")
    if args.set_only:
        print(f"{len(truth)} receipts in {args.out}")
        return
    # The sample fleet's receipts, one folder per unit (the folder attributes the receipt); their
    # truth beside this script, since a JSON file in SampleData would be imported as data.
    sample = os.path.join(ROOT, "SampleData/receipts")
    sample_truth = []
    for k, (name, lines, font, size, deg, t) in enumerate(sample_receipts()):
        img = degrade(render(lines, font, size), deg, random.Random(args.seed * 1000 + 900 + k))
        os.makedirs(os.path.dirname(os.path.join(sample, name)), exist_ok=True)
        img.save(os.path.join(sample, name), **({"quality": 85} if name.endswith(".jpg") else {"optimize": True}))
        sample_truth.append(dict(t, file=name, degradations=deg))
    with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "sample-truth.json"), "w") as f:
        json.dump({"generator": "scripts/receipts/generate.py", "receipts": sample_truth}, f, indent=1)
        f.write("\n")
    # A photo that is not a receipt: shapes and noise, no text (must give no fields, never invented ones).
    rng = random.Random(args.seed)
    bad = os.path.join(os.path.dirname(args.out), "not-a-receipt")
    os.makedirs(bad, exist_ok=True)
    img = Image.linear_gradient("L").resize((640, 480)).convert("RGB")
    dr = ImageDraw.Draw(img)
    for _ in range(25):
        x, y, r = rng.randint(0, 640), rng.randint(0, 480), rng.randint(10, 90)
        dr.ellipse((x - r, y - r, x + r, y + r), fill=(rng.randint(0, 255), rng.randint(0, 255), rng.randint(0, 255)))
    img = img.filter(ImageFilter.GaussianBlur(2))
    img.save(os.path.join(bad, "landscape.jpg"), quality=80)
    total = sum(os.path.getsize(os.path.join(args.out, f)) for f in os.listdir(args.out))
    print(f"{len(truth)} receipts in {args.out} ({total / 1e6:.1f} MB)")


if __name__ == "__main__":
    main()
