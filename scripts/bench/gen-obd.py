#!/usr/bin/env python3
"""Seeded OBD-II logs for the benchmark (row 3): an ELM327 terminal transcript and a Torque Pro CSV.

Both hold SAMPLES readings of four mode-01 PIDs (0C RPM, 0D speed, 05 coolant, 2F fuel level),
one round per second: the transcript as `<ISO time> >01xx` requests and `41 xx ..` responses
(spaces on, echo off, as terminal apps log them), the CSV as one wide row per second with
Torque's header, `-` for the missing GPS fields and Device Time in local time with a zone
abbreviation.

Usage: gen-obd.py --samples 1000000 --seed 42 --elm out.log --torque out.csv
"""
import argparse
import random
import time

START = 1790845200  # 2026-10-01T09:00:00Z (04:00 CDT)


def rounds(n, rng):
    rpm, speed, coolant, fuel = 800.0, 0.0, 60.0, 80.0
    for i in range(n // 4):
        speed = min(120.0, max(0.0, speed + rng.gauss(0, 2)))
        rpm = 750 + speed * 22 + rng.uniform(-40, 40)
        coolant = min(95.0, coolant + 0.01)
        fuel = max(5.0, fuel - 0.0005)
        yield START + i, int(rpm * 4), int(speed), int(coolant + 40), int(fuel * 255 / 100)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--samples", type=int, default=1_000_000)
    ap.add_argument("--seed", type=int, default=42)
    ap.add_argument("--elm", required=True)
    ap.add_argument("--torque", required=True)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    with open(args.elm, "w") as elm, open(args.torque, "w", encoding="utf-8") as tq:
        elm.write("%s >ATZ\n%s ELM327 v1.5\n%s >ATE0\n%s OK\n%s >ATSP0\n%s OK\n"
                  % tuple([time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(START - 1))] * 6))
        tq.write("GPS Time, Device Time, Longitude, Latitude,GPS Speed (Meters/second), Horizontal Dilution of Precision, "
                 "Altitude, Bearing, G(x), G(y), G(z), G(calibrated),Engine RPM(rpm),Speed (OBD)(km/h), "
                 "Engine Coolant Temperature(\u00b0C),Fuel Level (From Engine ECU)(%)\n")
        for t, rpm4, speed, coolant, fuel in rounds(args.samples, rng):
            iso = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(t))
            elm.write("%s >010C\n%s 41 0C %02X %02X\n%s >010D\n%s 41 0D %02X\n%s >0105\n%s 41 05 %02X\n%s >012F\n%s 41 2F %02X\n"
                      % (iso, iso, rpm4 >> 8, rpm4 & 0xFF, iso, iso, speed, iso, iso, coolant, iso, iso, fuel))
            local = time.strftime("%d-%b-%Y %H:%M:%S", time.gmtime(t - 5 * 3600))  # CDT = UTC-5
            tq.write("-,%s.000 CDT,-,-,-,-,-,-,0.01,0.02,0.98,0.01,%.2f,%d,%d,%.1f\n"
                     % (local, rpm4 / 4.0, speed, coolant - 40, fuel * 100 / 255))


if __name__ == "__main__":
    main()
