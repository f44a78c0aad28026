#!/usr/bin/env bash
# GPX import throughput (issue 4): FleetKit's end-to-end import (parse + load + trips + daily
# rollup, one transaction) of a generated 1 M-point GPX, next to
#   - the scanner alone (parse only, no warehouse),
#   - the floor: sqlite3 .import of the same points as CSV into the same STRICT table,
#   - the peer: Python gpxpy + sqlite3 executemany (in .venv-bench, when pip can install gpxpy).
# Prints points/s and peak RSS for each. Usage: scripts/bench-gpx.sh [POINTS] (default 1000000).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
POINTS=${1:-${POINTS:-1000000}}
SEED=${SEED:-42}
WORK=${WORK:-${TMPDIR:-/tmp}/fleetkit-bench-gpx}
SCRATCH=${SCRATCH:-.build-gpx-release}
mkdir -p "$WORK"
GPX=$WORK/bench-$POINTS.gpx
CSV=$WORK/bench-$POINTS.csv

rate() { python3 -c "import sys; print('%.0f' % ($POINTS / float(sys.argv[1])))" "$1"; }
# Elapsed seconds and peak RSS (MB) from a `/usr/bin/time -v` report.
elapsed() { awk -F': ' '/Elapsed \(wall clock\)/ { n = split($2, t, ":"); s = 0; for (i = 1; i <= n; i++) s = s * 60 + t[i]; print s }' "$1"; }
rss() { awk -F': ' '/Maximum resident set size/ { printf "%.0f", $2 / 1024 }' "$1"; }
cpu() { awk -F': ' '/User time|System time/ { s += $2 } END { printf "%.2f", s }' "$1"; }
# The machine may be shared: CPU time (user + sys) is the steadier figure, so both are printed.
report() {
    printf '%-40s %9s points/s wall (%7s s)  %9s points/s CPU (%7s s)  peak RSS %5s MB\n' \
        "$1" "$(rate "$(elapsed "$2")")" "$(elapsed "$2")" "$(rate "$(cpu "$2")")" "$(cpu "$2")" "$(rss "$2")"
}

if [ ! -s "$GPX" ] || [ ! -s "$CSV" ]; then
    echo "generating $POINTS points (seed $SEED) in $WORK" >&2
    python3 scripts/gen-gpx.py --points "$POINTS" --seed "$SEED" --gpx "$GPX" --csv "$CSV"
fi
echo "input: $GPX ($(du -m "$GPX" | cut -f1) MB)"

echo "building fleetkit (release)…" >&2
swift build -c release --scratch-path "$SCRATCH" --product fleetkit >&2
BIN=$SCRATCH/release/fleetkit

# FleetKit end to end.
DB=$WORK/bench.sqlite
rm -f "$DB" "$DB"-wal "$DB"-shm
"$BIN" init --db "$DB" >/dev/null
/usr/bin/time -v "$BIN" import --db "$DB" --asset BENCH-1 --json "$GPX" >"$WORK/import.json" 2>"$WORK/import.time" || true
python3 - "$WORK/import.json" <<'EOF'
import json, sys
f = json.load(open(sys.argv[1]))["files"][0]
print("fleetkit import: status %s, loaded %s, rejected %s%s" % (f["status"], f["loaded"], f["rejected"], (", error " + f["error"]) if f.get("error") else ""))
EOF
echo "trips derived: $(sqlite3 "$DB" "SELECT COUNT(*) FROM trip") ; positions: $(sqlite3 "$DB" "SELECT COUNT(*) FROM position")"
report "fleetkit import (parse+load+derive)" "$WORK/import.time"

# The scanner alone: the GPX sources compiled with FleetCore and a small driver.
SRC=$WORK/parse-src
rm -rf "$SRC" && mkdir -p "$SRC"
cp Sources/FleetCore/*.swift "$SRC/"
for f in Sources/FleetImport/GPX/*.swift; do sed '/^import FleetCore$/d' "$f" >"$SRC/$(basename "$f")"; done
cp scripts/gpx-parse-bench.swift "$SRC/main.swift"
swiftc -O -wmo -module-name GPXBench "$SRC"/*.swift -o "$WORK/gpxparse" 2>/dev/null
/usr/bin/time -v "$WORK/gpxparse" "$GPX" >"$WORK/parse.out" 2>"$WORK/parse.time"
report "scanner only (parse, no warehouse)" "$WORK/parse.time"

# Floor: sqlite3 .import of the same points into the same table.
FLOOR=$WORK/floor.sqlite
rm -f "$FLOOR"
sqlite3 "$FLOOR" "CREATE TABLE position (asset_id INTEGER NOT NULL, at INTEGER NOT NULL, lat REAL NOT NULL, lon REAL NOT NULL,
    speed_mps REAL, heading_deg REAL, alt_m REAL, source_file_id INTEGER NOT NULL, PRIMARY KEY (asset_id, at)) STRICT, WITHOUT ROWID;"
/usr/bin/time -v sqlite3 "$FLOOR" ".mode csv" ".import $CSV position" 2>"$WORK/floor.time"
report "floor: sqlite3 .import CSV" "$WORK/floor.time"

# Peer: gpxpy + sqlite3 executemany, when gpxpy can be installed (PyPI).
VENV=$ROOT/.venv-bench
if [ ! -x "$VENV/bin/python" ]; then python3 -m venv "$VENV" && printf '*\n' >"$VENV/.gitignore"; fi
if "$VENV/bin/python" -c "import gpxpy" 2>/dev/null || "$VENV/bin/pip" install -q gpxpy >&2; then
    rm -f "$WORK/peer.sqlite"
    /usr/bin/time -v "$VENV/bin/python" - "$GPX" "$WORK/peer.sqlite" 2>"$WORK/peer.time" <<'EOF'
import sqlite3, sys, gpxpy
gpx = gpxpy.parse(open(sys.argv[1]))
db = sqlite3.connect(sys.argv[2])
db.execute("CREATE TABLE position (asset_id INTEGER NOT NULL, at INTEGER NOT NULL, lat REAL NOT NULL, lon REAL NOT NULL, "
           "speed_mps REAL, heading_deg REAL, alt_m REAL, source_file_id INTEGER NOT NULL, PRIMARY KEY (asset_id, at)) STRICT, WITHOUT ROWID")
rows = ((1, int(p.time.timestamp() * 1000), p.latitude, p.longitude, None, None, p.elevation, 1)
        for t in gpx.tracks for s in t.segments for p in s.points)
db.executemany("INSERT INTO position VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING", rows)
db.commit()
EOF
    report "peer: gpxpy + sqlite3 executemany" "$WORK/peer.time"
else
    echo "peer: gpxpy could not be installed (no PyPI?); skipped"
fi
