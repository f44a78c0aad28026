#!/usr/bin/env bash
# Row 2: telematics feeds from `fleetkit sample`, imported by FleetKit next to a Python peer that
# loads the same fields into sqlite:
#   - ISO 15143-3 XML fleet snapshots of MACHINES machines (the sample's JDLink and KOMTRAX feeds,
#     morning and evening snapshot of one day); peer: lxml iterparse + executemany.
#   - Samsara stats history pages of the sample fleet (PAGES weekly pages of SAMSARA_ASSETS
#     vehicles, about 100 k readings per page at 1,000 vehicles); peer: json.load + executemany.
# Usage: scripts/bench/telematics.sh MACHINES SAMSARA_ASSETS SAMSARA_DAYS SAMSARA_START PAGES
source "$(dirname "$0")/common.sh"
MACHINES=${1:?usage: telematics.sh MACHINES SAMSARA_ASSETS SAMSARA_DAYS SAMSARA_START PAGES}
S_ASSETS=${2:?} S_DAYS=${3:?} S_START=${4:?} PAGES=${5:?}
ensure_venv lxml
DB=$WORK/telematics.sqlite
PEER=$WORK/telematics-peer.sqlite
setup_fk() { fresh_db "$DB"; sync; }
setup_peer() { rm -f "$PEER"; sync; }

ISO_FLEET=$(ensure_fleet 1 "$MACHINES" 1 2026-10-01)
ISO_FILES=("$ISO_FLEET"/iso15143/*/*.xml)
records=$(cat "${ISO_FILES[@]}" | grep -cE '<(j:)?Equipment>')
say "ISO 15143-3: ${#ISO_FILES[@]} snapshots, $records equipment entries"
measure "iso-$MACHINES-fleetkit" "$RUNS_LONG" setup_fk "$BIN" import --db "$DB" --format iso15143 --json "${ISO_FILES[@]}"
read -r loaded updated unchanged rejected imported _ failed < <(json_totals "$WORK/iso-$MACHINES-fleetkit.out")
say "  fleetkit: loaded $loaded rows, rejected $rejected, failed files $failed"
[ "$failed" = 0 ] && [ "$rejected" = 0 ] || { say "ISO import rejected rows or failed"; exit 1; }
FK=(fk_wall="$M_WALL" fk_cpu="$M_CPU" fk_rss="$M_RSS" fk_runs="$M_RUNS")
measure "iso-$MACHINES-lxml" "$RUNS" setup_peer "$PY" scripts/bench/peer_telematics.py iso "$PEER" "${ISO_FILES[@]}"
[ "$(cat "$WORK/iso-$MACHINES-lxml.out")" = "$records" ] || { say "lxml peer read $(cat "$WORK/iso-$MACHINES-lxml.out") of $records"; exit 1; }
record row=2 what="ISO 15143-3 XML, $MACHINES machines × 2 snapshots" unit=records/s n="$records" "${FK[@]}" \
    peer="lxml iterparse + executemany" peer_wall="$M_WALL" peer_cpu="$M_CPU" peer_rss="$M_RSS" note="fleetkit wrote $loaded rows"

S_FLEET=$(ensure_fleet "$S_ASSETS" 8 "$S_DAYS" "$S_START")
PAGE_FILES=()
while IFS= read -r f; do PAGE_FILES+=("$f"); done < <(ls "$S_FLEET"/samsara/stats/*.json | sort | head -n "$PAGES")
measure "samsara-fleetkit" "$RUNS_LONG" setup_fk "$BIN" import --db "$DB" --format samsara --json "${PAGE_FILES[@]}"
read -r loaded updated unchanged rejected imported _ failed < <(json_totals "$WORK/samsara-fleetkit.out")
say "  fleetkit: loaded $loaded rows, rejected $rejected, failed files $failed"
[ "$failed" = 0 ] || { say "Samsara import failed"; exit 1; }
FK=(fk_wall="$M_WALL" fk_cpu="$M_CPU" fk_rss="$M_RSS" fk_runs="$M_RUNS")
measure "samsara-json" "$RUNS" setup_peer "$PY" scripts/bench/peer_telematics.py samsara "$PEER" "${PAGE_FILES[@]}"
readings=$(cat "$WORK/samsara-json.out")
record row=2 what="Samsara stats, ${#PAGE_FILES[@]} pages, $readings readings" unit=readings/s n="$readings" "${FK[@]}" \
    peer="json.load + executemany" peer_wall="$M_WALL" peer_cpu="$M_CPU" peer_rss="$M_RSS" note="fleetkit loaded $loaded rows, rejected $rejected"
