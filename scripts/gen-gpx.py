#!/usr/bin/env python3
"""Writes a seeded, realistic GPX 1.1 drive log for benchmarks, and the same points as CSV.

A vehicle logs at 1 Hz: drives of 10-40 minutes at 8-25 m/s with gentle turns, then parks for
5-30 minutes while the device keeps logging a few metres of jitter. Speed and course are in
Garmin's TrackPointExtension v2, as phones and navigation units write them. The CSV has the
warehouse's position columns (asset_id, at, lat, lon, speed_mps, heading_deg, alt_m,
source_file_id) so `sqlite3 .import` can load the same points as a floor.

Usage: gen-gpx.py --points 1000000 --seed 42 --gpx out.gpx [--csv out.csv]
"""
import argparse
import math
import random
import time

START = 1790812800  # 2026-10-01T00:00:00Z


def iso(t):
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(t))


def points(n, rng):
    lat, lon, heading = 41.8781, -87.6298, rng.uniform(0, 360)
    t = START
    produced = 0
    while produced < n:
        # Drive.
        speed = rng.uniform(8, 25)
        for _ in range(rng.randint(600, 2400)):
            if produced >= n:
                return
            heading = (heading + rng.gauss(0, 2)) % 360
            d = speed
            lat += d * math.cos(math.radians(heading)) / 111_195.0
            lon += d * math.sin(math.radians(heading)) / (111_195.0 * math.cos(math.radians(lat)))
            yield t, lat, lon, speed, heading, 180 + 20 * math.sin(t / 900.0)
            t += 1
            produced += 1
        # Park: the device keeps logging with a few metres of jitter.
        for _ in range(rng.randint(300, 1800)):
            if produced >= n:
                return
            jlat = lat + rng.gauss(0, 3) / 111_195.0
            jlon = lon + rng.gauss(0, 3) / (111_195.0 * math.cos(math.radians(lat)))
            yield t, jlat, jlon, 0.0, heading, 180.0
            t += 1
            produced += 1


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--points", type=int, default=1_000_000)
    ap.add_argument("--seed", type=int, default=42)
    ap.add_argument("--gpx", required=True)
    ap.add_argument("--csv")
    args = ap.parse_args()
    rng = random.Random(args.seed)
    csv = open(args.csv, "w") if args.csv else None
    with open(args.gpx, "w") as g:
        g.write('<?xml version="1.0" encoding="UTF-8"?>\n'
                '<gpx version="1.1" creator="fleetkit gen-gpx.py" xmlns="http://www.topografix.com/GPX/1/1"\n'
                '     xmlns:gpxtpx="http://www.garmin.com/xmlschemas/TrackPointExtension/v2">\n'
                '  <metadata><name>bench</name></metadata>\n  <trk>\n    <name>bench drive</name>\n    <trkseg>\n')
        for t, lat, lon, speed, course, ele in points(args.points, rng):
            g.write('      <trkpt lat="%.7f" lon="%.7f"><ele>%.1f</ele><time>%s</time><extensions>'
                    '<gpxtpx:TrackPointExtension><gpxtpx:speed>%.2f</gpxtpx:speed><gpxtpx:course>%.1f</gpxtpx:course>'
                    '</gpxtpx:TrackPointExtension></extensions></trkpt>\n' % (lat, lon, ele, iso(t), speed, course))
            if csv:
                csv.write("1,%d,%.7f,%.7f,%.2f,%.1f,%.1f,1\n" % (t * 1000, lat, lon, speed, course, ele))
        g.write("    </trkseg>\n  </trk>\n</gpx>\n")
    if csv:
        csv.close()


if __name__ == "__main__":
    main()
