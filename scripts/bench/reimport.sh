#!/usr/bin/env bash
# Row 6: re-importing an already imported POINTS-point GPX file must be a no-op (status
# "unchanged", nothing loaded): its cost is hashing the file and one lookup. Peer: sha256sum of
# the same file. Uses the input of gpx.sh (generated if missing).
# Usage: scripts/bench/reimport.sh POINTS
source "$(dirname "$0")/common.sh"
POINTS=${1:?usage: reimport.sh POINTS}
GPX=$WORK/gpx-$POINTS.gpx
[ -s "$GPX" ] || { python3 scripts/gen-gpx.py --points "$POINTS" --seed 42 --gpx "$GPX.tmp" --csv "$WORK/gpx-$POINTS.csv" && mv "$GPX.tmp" "$GPX"; }
label=$(python3 -c "import sys; n = int(sys.argv[1]); print('%g M' % (n / 1e6) if n >= 1000000 else '%g k' % (n / 1e3))" "$POINTS")
mb=$(( $(stat -c %s "$GPX") / 1048576 ))
DB=$WORK/reimport.sqlite
fresh_db "$DB"
"$BIN" import --db "$DB" --asset BENCH-1 --json "$GPX" >"$WORK/reimport-first.out" || true
read -r loaded _ <<<"$(json_totals "$WORK/reimport-first.out")"
[ "$loaded" = "$POINTS" ] || { say "first import loaded $loaded of $POINTS"; exit 1; }
measure "reimport-$POINTS-fleetkit" "$RUNS" : "$BIN" import --db "$DB" --asset BENCH-1 --json "$GPX"
read -r loaded updated unchanged rejected imported unchanged_files failed < <(json_totals "$WORK/reimport-$POINTS-fleetkit.out")
[ "$unchanged_files" = 1 ] && [ "$loaded" = 0 ] && [ "$updated" = 0 ] || { say "re-import was not a no-op: loaded $loaded, updated $updated"; exit 1; }
FK=(fk_wall="$M_WALL" fk_cpu="$M_CPU" fk_rss="$M_RSS" fk_runs="$M_RUNS")
measure "reimport-$POINTS-sha256sum" "$RUNS" : sha256sum "$GPX"
record row=6 what="Re-import of a $label-point GPX ($mb MB), no-op" unit=s "${FK[@]}" \
    peer="sha256sum of the file" peer_wall="$M_WALL" peer_cpu="$M_CPU" peer_rss="$M_RSS" note="status unchanged, 0 rows written"
