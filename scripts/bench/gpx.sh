#!/usr/bin/env bash
# Row 1: GPX import end to end (parse + normalise + load + derive trips and daily rollups, one
# transaction) of a generated POINTS-point drive log, next to
#   - the floor: `sqlite3 .import` of the same points as CSV into the same STRICT table,
#   - the peer: Python gpxpy + sqlite3 executemany, when POINTS <= GPXPY_MAX (default 1 M:
#     gpxpy holds the whole document, about 2.4 GB per million points).
# Usage: scripts/bench/gpx.sh POINTS
source "$(dirname "$0")/common.sh"
POINTS=${1:?usage: gpx.sh POINTS}
GPXPY_MAX=${GPXPY_MAX:-1000000}
GPX=$WORK/gpx-$POINTS.gpx
CSV=$WORK/gpx-$POINTS.csv
if [ ! -s "$GPX" ] || [ ! -s "$CSV" ]; then
    say "generating $POINTS GPX points (seed 42)"
    python3 scripts/gen-gpx.py --points "$POINTS" --seed 42 --gpx "$GPX.tmp" --csv "$CSV.tmp"
    mv "$GPX.tmp" "$GPX" && mv "$CSV.tmp" "$CSV"
fi
say "GPX $POINTS points: $GPX ($(du -m "$GPX" | cut -f1) MB)"
label=$(python3 -c "import sys; n = int(sys.argv[1]); print('%g M' % (n / 1e6) if n >= 1000000 else '%g k' % (n / 1e3))" "$POINTS")

DB=$WORK/gpx.sqlite
setup_fk() { fresh_db "$DB"; sync; }
N=$RUNS; [ "$POINTS" -ge 10000000 ] && N=$RUNS_LONG
measure "gpx-$POINTS-fleetkit" "$N" setup_fk "$BIN" import --db "$DB" --asset BENCH-1 --json "$GPX"
read -r loaded updated unchanged rejected imported _ failed < <(json_totals "$WORK/gpx-$POINTS-fleetkit.out")
[ "$loaded" = "$POINTS" ] && [ "$rejected" = 0 ] || { say "fleetkit loaded $loaded of $POINTS points ($rejected rejected)"; exit 1; }
say "  trips derived: $(sqlite3 "$DB" 'SELECT COUNT(*) FROM trip'), daily rows: $(sqlite3 "$DB" 'SELECT COUNT(*) FROM asset_day' 2>/dev/null || echo '?')"
FK=(fk_wall="$M_WALL" fk_cpu="$M_CPU" fk_rss="$M_RSS" fk_runs="$M_RUNS")

FLOOR=$WORK/gpx-floor.sqlite
setup_floor() {
    rm -f "$FLOOR"
    sqlite3 "$FLOOR" "CREATE TABLE position (asset_id INTEGER NOT NULL, at INTEGER NOT NULL, lat REAL NOT NULL, lon REAL NOT NULL,
        speed_mps REAL, heading_deg REAL, alt_m REAL, source_file_id INTEGER NOT NULL, PRIMARY KEY (asset_id, at)) STRICT, WITHOUT ROWID;"
    sync
}
measure "gpx-$POINTS-floor" "$N" setup_floor sqlite3 "$FLOOR" ".mode csv" ".import $CSV position"
record row=1 what="GPX import, $label points" unit=points/s n="$POINTS" "${FK[@]}" \
    peer="sqlite3 .import (CSV)" peer_wall="$M_WALL" peer_cpu="$M_CPU" peer_rss="$M_RSS" \
    target=">= 700k points/s; >= 1x sqlite3 .import$([ "$POINTS" -ge 10000000 ] && echo "; RSS <= 150 MB")" check="rate>=700000;ratio>=1$([ "$POINTS" -ge 10000000 ] && echo ";rss<=150")"

if [ "$POINTS" -le "$GPXPY_MAX" ]; then
    ensure_venv gpxpy
    PEER=$WORK/gpx-peer.sqlite
    setup_peer() { rm -f "$PEER"; sync; }
    # The peer runs once: it takes about a minute per million points.
    measure "gpx-$POINTS-gpxpy" 1 setup_peer "$PY" "$ROOT/scripts/bench/peer_gpxpy.py" "$GPX" "$PEER"
    [ "$(sqlite3 "$PEER" 'SELECT COUNT(*) FROM position')" = "$POINTS" ] || { say "gpxpy peer loaded a different count"; exit 1; }
    record row=1 what="GPX import, $label points" unit=points/s n="$POINTS" "${FK[@]}" \
        peer="gpxpy + sqlite3 executemany" peer_wall="$M_WALL" peer_cpu="$M_CPU" peer_rss="$M_RSS" target=">= 30x gpxpy" check="ratio>=30"
fi
