#!/usr/bin/env bash
# Row 8: `fleetkit verify` (every check, the default sample of 200 re-derived asset-days) beside
# the import of the same data, the nightly job's two steps (target: verify within its import):
#   - the warehouse of reports.sh (ASSETS vehicles over DAYS days from START, every sample file;
#     imported once per fleetkit binary and cached, its import figures recorded then);
#   - MACHINES machines from one ISO 15143-3 snapshot (the 07:00 JDLink and KOMTRAX files of
#     one day of the sample fleet, generated as telematics.sh generates its ISO input), imported
#     here into a fresh warehouse.
# The Peer columns hold the import, so Ratio = import time ÷ verify time (target ≥ 1). The
# sample fleets verify clean; failures are said in the row's note and on stderr (the findings
# are in $WORK/verify-NAME.out), and the time is recorded all the same.
# Usage: scripts/bench/verify.sh ASSETS DAYS START MACHINES
source "$(dirname "$0")/common.sh"
ASSETS=${1:?usage: verify.sh ASSETS DAYS START MACHINES} DAYS=${2:?} START=${3:?} MACHINES=${4:?}

# verify_row NAME DB WHAT IMPORT_WALL IMPORT_CPU IMPORT_RSS: measures verify on DB and records it.
verify_row() {
    local name=$1 db=$2 what=$3
    measure "verify-$name" "$RUNS_LONG" : "$BIN" verify --db "$db" --json
    local summary
    summary=$(python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))
slow = sorted(r["checks"], key=lambda c: -c["seconds"])
print("%d failures; slowest checks: %s" % (r["failures"], ", ".join("%s %.2f s" % (c["name"], c["seconds"]) for c in slow[:3])))
' "$WORK/verify-$name.out")
    say "  $summary"
    case $summary in 0\ failures*) summary="clean; ${summary#0 failures; }" ;; *) say "verify found failures on the $what warehouse: $WORK/verify-$name.out" ;; esac
    record row=8 what="verify, $what" unit=s fk_wall="$M_WALL" fk_cpu="$M_CPU" fk_rss="$M_RSS" fk_runs="$M_RUNS" \
        peer="its import (fleetkit import)" peer_wall="$4" peer_cpu="$5" peer_rss="$6" target="<= its import" check="ratio>=1" \
        note="$summary"
}

ensure_warehouse "$ASSETS" "$DAYS" "$START"
verify_row "$ASSETS-$DAYS" "$W_DB" "$ASSETS vehicles × $DAYS days (all sample files)" "$W_WALL" "$W_CPU" "$W_RSS"

ISO_FLEET=$(ensure_fleet 1 "$MACHINES" 1 2026-10-01)
ISO_FILES=("$ISO_FLEET"/iso15143/*/*T07.xml)
DB=$WORK/verify-iso-$MACHINES.sqlite
setup_iso() { fresh_db "$DB"; sync; }
measure "verify-iso-$MACHINES-import" 1 setup_iso "$BIN" import --db "$DB" --format iso15143 --json "${ISO_FILES[@]}"
read -r loaded updated unchanged rejected imported _ failed < <(json_totals "$WORK/verify-iso-$MACHINES-import.out")
[ "$failed" = 0 ] && [ "$rejected" = 0 ] || { say "ISO import rejected rows or failed"; exit 1; }
assets=$(sqlite3 "$DB" 'SELECT COUNT(*) FROM asset')
[ "$assets" = "$MACHINES" ] || { say "the snapshot made $assets assets, not $MACHINES"; exit 1; }
verify_row "iso-$MACHINES" "$DB" "$MACHINES machines from one ISO 15143-3 snapshot ($loaded rows)" "$M_WALL" "$M_CPU" "$M_RSS"
