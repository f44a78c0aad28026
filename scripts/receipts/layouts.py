"""Receipt layouts of several countries, each with the conventions its slips print (decimal
comma or point, date order, currency mark, total and tax words), for the realistic set of
`realistic.py`. A layout returns (lines, truth); a line is "text", ("c", "text") centred or
("lr", left, right). Truth holds the values as a person reads them off the slip (ISO date,
decimal point, the printed unit), plus the printed spellings of date and total that the plain
`tesseract` peer is scored on. Pure Python (no Pillow), seeded by the caller's Random.
"""


def r2(x, d=2):
    return round(x + 1e-9, d)


def comma(value, decimals=2):
    """1234.5 -> '1234,50': the decimal comma of LT, DE, FR slips (no grouping on a pump slip)."""
    return f"{value:.{decimals}f}".replace(".", ",")


def card(rng, style):
    last4 = "".join(str(rng.randrange(10)) for _ in range(4))
    return {"visa": f"VISA ************{last4}", "cb": f"CB **** **** **** {last4}",
            "karte": f"Karte ############{last4}", "mok": f"Mokėjimo kortelė ****{last4}"}[style]


def _date(rng):
    """A purchase date from 2023 to October 2026: never after the import time, where FleetKit
    rightly refuses a date."""
    return rng.randint(2023, 2026), rng.randint(1, 10), rng.randint(1, 28)


def _fuel_truth(layout, merchant, y, m, d, total, cur, vol, unit, price, date_printed, total_printed):
    return dict(layout=layout, kind="fuel", category="fuel", merchant=merchant, date=f"{y}-{m:02d}-{d:02d}",
                total=f"{total:.2f}", currency=cur, volume=vol, volume_unit=unit, unit_price=price,
                date_printed=date_printed, total_printed=total_printed)


def lt_fuel(rng):
    """Lithuania: `1,509 X 53,710 | 81,05 A` (price X litres | total, VAT letter), MOKĖTI, PVM."""
    merchant = rng.choice(["CIRCLE K LIETUVA", "ORLEN LIETUVA", "VIADA"])
    grade = rng.choice(["Dyzelinas", "Benzinas 95", "Dyzelinas D"])
    price, litres = r2(rng.uniform(1.389, 1.699), 3), r2(rng.uniform(20, 75), 3)
    total = r2(price * litres)
    y, m, d = _date(rng)
    hh, mm = rng.randint(6, 22), rng.randint(0, 59)
    lines = [("c", merchant), ("c", "UAB, Savanorių pr. 16"), ("c", "LT-44253 Kaunas"), ("c", "PVM kodas LT100001234567"), "",
             f"Kvitas Nr. {rng.randint(1000, 9999)}", grade,
             ("lr", f"{comma(price, 3)} X {comma(litres, 3)}", f"{comma(total)} A"), "-" * 30,
             ("lr", "MOKĖTI", comma(total)), ("lr", card(rng, "mok"), comma(total)),
             ("lr", "A PVM 21%", comma(r2(total - total / 1.21))), "",
             f"{y}-{m:02d}-{d:02d} {hh:02d}:{mm:02d}", ("c", "AČIŪ, KAD APSIPIRKOTE")]
    return lines, _fuel_truth("lt-fuel", merchant, y, m, d, total, "EUR", f"{litres:.3f}", "L", f"{price:.3f}",
                              f"{y}-{m:02d}-{d:02d}", comma(total))


def de_fuel(rng):
    """Germany: `Dat.31.08.2015`, `45,32 l X 1,789 EUR/l`, SUMME, cash with Rückgeld, MwSt."""
    merchant = rng.choice(["ARAL Tankstelle", "SHELL Station", "JET Tankstelle"])
    grade = rng.choice(["Diesel", "Super E10", "Super 95"])
    price, litres = r2(rng.uniform(1.599, 1.899), 3), r2(rng.uniform(20, 70), 2)
    total = r2(price * litres)
    y, m, d = _date(rng)
    given = float((int(total) // 50 + 1) * 50)
    lines = [("c", merchant), ("c", "Hauptstraße 12"), ("c", "40219 Düsseldorf"), ("c", "St.-Nr. 103/5820/0012"), "",
             f"Säule 4  {grade}", f"{comma(litres)} l X {comma(price, 3)} EUR/l", ("lr", "", f"{comma(total)} A"), "-" * 30,
             ("lr", "SUMME EUR", comma(total)), ("lr", "Geg. BAR EUR", comma(given)), ("lr", "Rückgeld EUR", comma(given - total)),
             ("lr", "A MwSt 19%", comma(r2(total - total / 1.19))), "",
             f"Dat.{d:02d}.{m:02d}.{y} Zeit {rng.randint(6, 22):02d}:{rng.randint(0, 59):02d}", ("c", "Vielen Dank und gute Fahrt")]
    return lines, _fuel_truth("de-fuel", merchant, y, m, d, total, "EUR", f"{litres:.2f}", "L", f"{price:.3f}",
                              f"{d:02d}.{m:02d}.{y}", comma(total))


def fr_fuel(rng):
    """France: TOTAL TTC, `Prix/L`, Volume, a card's `Date d'expiration` as a distractor date."""
    merchant = rng.choice(["TOTALENERGIES RELAIS", "INTERMARCHE CARBURANT", "ESSO EXPRESS"])
    grade = rng.choice(["Gazole", "SP95-E10", "SP98"])
    price, litres = r2(rng.uniform(1.659, 1.999), 3), r2(rng.uniform(20, 65), 2)
    total = r2(price * litres)
    y, m, d = _date(rng)
    lines = [("c", merchant), ("c", "12 Avenue de Paris"), ("c", "69007 LYON"), "",
             ("lr", f"Date {d:02d}/{m:02d}/{y}", f"Heure {rng.randint(6, 22):02d}:{rng.randint(0, 59):02d}"),
             f"Pompe 4  {grade}", ("lr", "Volume", f"{comma(litres)} L"), ("lr", "Prix/L", f"{comma(price, 3)} EUR"),
             "-" * 30, ("lr", "TOTAL TTC", f"{comma(total)} EUR"), ("lr", "dont TVA 20%", comma(r2(total - total / 1.2))), "",
             card(rng, "cb"), f"Date d'expiration {rng.randint(1, 12):02d}/{rng.randint(27, 30)}",
             ("lr", "MONTANT", f"{comma(total)} EUR"), ("c", "Merci de votre visite")]
    return lines, _fuel_truth("fr-fuel", merchant, y, m, d, total, "EUR", f"{litres:.2f}", "L", f"{price:.3f}",
                              f"{d:02d}/{m:02d}/{y}", comma(total))


def uk_fuel(rng):
    """United Kingdom: £, LITRES, PRICE/LTR, VAT @ 20%, dd/mm/yyyy."""
    merchant = rng.choice(["TESCO PETROL", "BP CONNECT", "SAINSBURY'S PETROL"])
    grade = rng.choice(["DIESEL", "UNLEADED"])
    price, litres = r2(rng.uniform(1.359, 1.599), 3), r2(rng.uniform(20, 70), 2)
    total = r2(price * litres)
    y, m, d = _date(rng)
    lines = [("c", merchant), ("c", "22 London Road"), ("c", "Reading RG1 5BJ"), ("c", "VAT No. GB 123 4567 89"), "",
             ("lr", f"{d:02d}/{m:02d}/{y}", f"{rng.randint(6, 22):02d}:{rng.randint(0, 59):02d}"), f"PUMP 3  {grade}",
             ("lr", "LITRES", f"{litres:.2f}"), ("lr", "PRICE/LTR", f"£{price:.3f}"), "-" * 30,
             ("lr", "TOTAL", f"£{total:.2f}"), ("lr", card(rng, "visa"), f"£{total:.2f}"),
             ("lr", "VAT @ 20%", f"£{r2(total - total / 1.2):.2f}"), "", ("c", "THANK YOU")]
    return lines, _fuel_truth("uk-fuel", merchant, y, m, d, total, "GBP", f"{litres:.2f}", "L", f"{price:.3f}",
                              f"{d:02d}/{m:02d}/{y}", f"{total:.2f}")


def us_fuel(rng):
    """United States: GALLONS, PRICE/GAL, MM/DD/YYYY, $."""
    merchant = rng.choice(["SHELL", "CHEVRON", "PILOT TRAVEL CENTER #318", "MARATHON"])
    grade = rng.choice(["UNLEADED REGULAR", "DIESEL #2", "PREMIUM UNLEADED"])
    price, gallons = r2(rng.uniform(2.899, 4.599), 3), r2(rng.uniform(8, 40), 3)
    total = r2(price * gallons)
    y, m, d = _date(rng)
    lines = [("c", merchant), ("c", "1234 W JEFFERSON ST"), ("c", "JOLIET IL 60435"), "",
             ("lr", f"{m:02d}/{d:02d}/{y}", f"{rng.randint(6, 22):02d}:{rng.randint(0, 59):02d}"), f"PUMP # {rng.randint(1, 16):02d}", grade,
             ("lr", "GALLONS", f"{gallons:.3f}"), ("lr", "PRICE/GAL", f"$ {price:.3f}"), "-" * 30,
             ("lr", "TOTAL", f"$ {total:.2f}"), ("lr", card(rng, "visa"), f"$ {total:.2f}"), "", ("c", "THANK YOU")]
    return lines, _fuel_truth("us-fuel", merchant, y, m, d, total, "USD", f"{gallons:.3f}", "gal", f"{price:.3f}",
                              f"{m:02d}/{d:02d}/{y}", f"{total:.2f}")


def my_fuel(rng):
    """Malaysia: RM, `2.200 RM / litre`, JUMLAH, cash with BAKI (change)."""
    merchant = rng.choice(["PETRONAS JALAN KLANG LAMA", "SHELL MALAYSIA TRADING"])
    grade = rng.choice(["RON95", "RON97", "DIESEL B10"])
    price = rng.choice([2.05, 2.15, 2.20, 3.35, 3.47])
    litres = r2(rng.uniform(10, 45), 2)
    total = r2(price * litres)
    y, m, d = _date(rng)
    given = float((int(total) // 50 + 1) * 50)
    lines = [("c", merchant), ("c", "Batu 3 1/2, Jalan Klang Lama"), ("c", "58000 Kuala Lumpur"), ("c", "SST ID: W10-1808-31000123"), "",
             ("lr", f"{d:02d}/{m:02d}/{y}", f"{rng.randint(6, 22):02d}:{rng.randint(0, 59):02d}"), f"Pam: {rng.randint(1, 12):02d}  {grade}",
             ("lr", f"{litres:.2f} litre", f"RM {total:.2f}"), f"{price:.3f} RM / litre", "-" * 30,
             ("lr", "JUMLAH", f"RM {total:.2f}"), ("lr", "TUNAI", f"RM {given:.2f}"), ("lr", "BAKI", f"RM {given - total:.2f}"), "",
             ("c", "TERIMA KASIH")]
    return lines, _fuel_truth("my-fuel", merchant, y, m, d, total, "MYR", f"{litres:.2f}", "L", f"{price:.3f}",
                              f"{d:02d}/{m:02d}/{y}", f"{total:.2f}")


def _expense(layout, category, merchant, y, m, d, total, cur, date_printed, total_printed, spend=None):
    t = dict(layout=layout, kind="expense", category=category, merchant=merchant, date=f"{y}-{m:02d}-{d:02d}",
             total=f"{total:.2f}", currency=cur, date_printed=date_printed, total_printed=total_printed)
    if spend:
        t["spend"] = spend
    return t


def us_parts(rng):
    merchant = rng.choice(["AUTOZONE #4411", "NAPA AUTO PARTS", "O'REILLY AUTO PARTS"])
    items = rng.sample([("OIL FILTER", 12.99), ("WIPER BLADE 22IN", 18.99), ("MOTOR OIL 5W30 5QT", 27.49),
                        ("BRAKE PAD SET", 54.99), ("AIR FILTER", 21.49)], 3)
    sub = r2(sum(p for _, p in items))
    tax = r2(sub * 0.0825)
    total = r2(sub + tax)
    y, m, d = _date(rng)
    lines = [("c", merchant), ("c", "900 COMMERCE DR"), ("c", "NAPERVILLE IL 60563"), "",
             ("lr", f"{m:02d}/{d:02d}/{y}", f"{rng.randint(7, 19):02d}:{rng.randint(0, 59):02d}")]
    lines += [("lr", it, f"{p:.2f}") for it, p in items]
    lines += [("lr", "SUBTOTAL", f"{sub:.2f}"), ("lr", "TAX 8.25%", f"{tax:.2f}"), ("lr", "TOTAL", f"$ {total:.2f}"),
              ("lr", card(rng, "visa"), f"$ {total:.2f}"), "", ("c", "THANK YOU FOR SHOPPING")]
    return lines, _expense("us-parts", "parts", merchant, y, m, d, total, "USD", f"{m:02d}/{d:02d}/{y}", f"{total:.2f}")


def fr_toll(rng):
    merchant = rng.choice(["APRR AUTOROUTES", "VINCI AUTOROUTES"])
    total = rng.choice([7.40, 12.90, 18.60, 24.30, 31.70])
    y, m, d = _date(rng)
    lines = [("c", merchant), ("c", "PEAGE DE VILLEFRANCHE"), ("c", "GARE 2541"), "",
             ("lr", f"Date {d:02d}/{m:02d}/{y}", f"{rng.randint(6, 22):02d}:{rng.randint(0, 59):02d}"),
             ("lr", "Classe 2  PEAGE", f"{comma(total)} EUR"), "-" * 30, ("lr", "TOTAL TTC", f"{comma(total)} EUR"),
             ("lr", "dont TVA 20%", comma(r2(total - total / 1.2))), card(rng, "cb"), "", ("c", "Bonne route")]
    return lines, _expense("fr-toll", "tolls", merchant, y, m, d, total, "EUR", f"{d:02d}/{m:02d}/{y}", comma(total))


def uk_food(rng):
    merchant = rng.choice(["THE RED LION", "COSTA COFFEE"])
    items = rng.sample([("FISH & CHIPS", 12.50), ("AMERICANO", 2.95), ("SANDWICH", 4.75), ("BURGER", 11.95), ("TEA", 2.40)], 3)
    total = r2(sum(p for _, p in items))
    y, m, d = _date(rng)
    lines = [("c", merchant), ("c", "4 High Street"), ("c", "Oxford OX1 4AA"), "",
             ("lr", f"{d:02d}/{m:02d}/{y}", f"{rng.randint(11, 21):02d}:{rng.randint(0, 59):02d}")]
    lines += [("lr", it, f"£{p:.2f}") for it, p in items]
    lines += ["-" * 30, ("lr", "TOTAL", f"£{total:.2f}"), ("lr", card(rng, "visa"), f"£{total:.2f}"),
              ("lr", "VAT @ 20% incl.", f"£{r2(total - total / 1.2):.2f}"), "", ("c", "THANK YOU")]
    return lines, _expense("uk-food", "other", merchant, y, m, d, total, "GBP", f"{d:02d}/{m:02d}/{y}", f"{total:.2f}", spend="food")


def de_parts(rng):
    merchant = rng.choice(["ATU Auto-Teile-Unger", "Autoteile Meyer GmbH"])
    items = rng.sample([("Ölfilter", 14.90), ("Scheibenwischer", 22.95), ("Motoröl 5W30 5L", 39.99), ("Bremsbeläge", 59.90)], 2)
    total = r2(sum(p for _, p in items))
    y, m, d = _date(rng)
    lines = [("c", merchant), ("c", "Industriestraße 4"), ("c", "80331 München"), "",
             ("lr", f"Datum {d:02d}.{m:02d}.{y}", f"{rng.randint(7, 19):02d}:{rng.randint(0, 59):02d}")]
    lines += [("lr", it, f"{comma(p)} A") for it, p in items]
    lines += ["-" * 30, ("lr", "SUMME EUR", comma(total)), ("lr", card(rng, "karte"), comma(total)),
              ("lr", "A MwSt 19%", comma(r2(total - total / 1.19))), "", ("c", "Vielen Dank")]
    return lines, _expense("de-parts", "parts", merchant, y, m, d, total, "EUR", f"{d:02d}.{m:02d}.{y}", comma(total))


FUEL = [lt_fuel, de_fuel, fr_fuel, uk_fuel, us_fuel, my_fuel]
OTHER = [us_parts, fr_toll, uk_food, de_parts]
