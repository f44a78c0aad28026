"""Peer for row 1: gpxpy parses the GPX, sqlite3 executemany loads the points (same table as FleetKit's)."""
import sqlite3
import sys

import gpxpy

gpx = gpxpy.parse(open(sys.argv[1]))
db = sqlite3.connect(sys.argv[2])
db.execute("CREATE TABLE position (asset_id INTEGER NOT NULL, at INTEGER NOT NULL, lat REAL NOT NULL, lon REAL NOT NULL, "
           "speed_mps REAL, heading_deg REAL, alt_m REAL, source_file_id INTEGER NOT NULL, PRIMARY KEY (asset_id, at)) STRICT, WITHOUT ROWID")
rows = ((1, int(p.time.timestamp() * 1000), p.latitude, p.longitude, None, None, p.elevation, 1)
        for t in gpx.tracks for s in t.segments for p in s.points)
db.executemany("INSERT INTO position VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING", rows)
db.commit()
