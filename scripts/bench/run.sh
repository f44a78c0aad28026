#!/usr/bin/env bash
# The benchmark driver (`make bench`, `make bench-quick`): builds fleetkit (release), runs every
# row script, each measuring FleetKit and its peer side by side in the same run, prints the table
# and writes it with the machine, load average, date and command to BENCHMARKS.md (quick mode:
# $BENCH_WORK/BENCHMARKS-quick.md, so a quick run never replaces the full figures).
#
#   scripts/bench/run.sh [--quick] [--merge] [ROW...]
#                             rows: gpx telematics obd receipts reports reimport receipt-accuracy verify spreadsheet
#
# --merge re-measures only the named rows and keeps the other rows of the previous results
# (each row records when it was measured and the load average then, and the table says so),
# so one changed stage can be measured again without the hour a full run takes. When the previous
# results are gone (they live in $BENCH_WORK), scripts/bench/rebuild-results.py rebuilds them from
# BENCHMARKS.md.
#
# Inputs are generated once into $BENCH_WORK (default /tmp/fleetkit-bench) and reused.
set -euo pipefail
cd "$(dirname "$0")/../.."
QUICK=0
MERGE=0
ROWS=()
for a in "$@"; do
    case $a in
        --quick) QUICK=1 ;;
        --merge) MERGE=1 ;;
        gpx | telematics | obd | receipts | reports | reimport | receipt-accuracy | verify | spreadsheet) ROWS+=("$a") ;;
        *) echo "usage: run.sh [--quick] [--merge] [gpx telematics obd receipts reports reimport receipt-accuracy verify spreadsheet]" >&2; exit 64 ;;
    esac
done
[ ${#ROWS[@]} -gt 0 ] || ROWS=(gpx telematics obd receipts reports reimport receipt-accuracy verify spreadsheet)
export QUICK
source scripts/bench/common.sh
export RESULTS=$WORK/results-$([ "$QUICK" = 1 ] && echo quick || echo full).jsonl
# Row numbers of the row scripts, for --merge.
declare -A ROW_NUMBER=([gpx]=1 [telematics]=2 [obd]=3 [receipts]=4 [reports]=5 [reimport]=6 [receipt-accuracy]=7 [verify]=8 [spreadsheet]=9)
if [ "$MERGE" = 1 ] && [ -s "$RESULTS" ]; then
    keep=$(for r in "${ROWS[@]}"; do echo "${ROW_NUMBER[$r]}"; done | paste -sd, -)
    python3 - "$RESULTS" "$keep" <<'PYEOF'
import json, sys
path, rerun = sys.argv[1], set(sys.argv[2].split(","))
kept = [l for l in open(path) if l.strip() and json.loads(l).get("row") not in rerun | {"0"}]
open(path, "w").writelines(kept)
PYEOF
else
    : >"$RESULTS"
fi
for tool in sqlite3 python3 /usr/bin/time sha256sum; do
    command -v "$tool" >/dev/null || { say "$tool is missing: run \`make bench\` (it installs sqlite3, time and python3-venv)"; exit 2; }
done
LOAD_BEFORE=$(cut -d' ' -f1-3 /proc/loadavg)
STARTED=$(date -u +%Y-%m-%dT%H:%M:%SZ)

if [ -z "${FLEETKIT:-}" ]; then
    say "building fleetkit (release, $SCRATCH)…"
    swift build -c release --scratch-path "$SCRATCH" --product fleetkit >&2
fi

if [ "$QUICK" = 1 ]; then
    SIZES_gpx="50000" SIZES_telematics="300 25 61 2026-09-01 9" SIZES_obd="50000"
    SIZES_reports="25 61 2026-09-01 2026-10" SIZES_reimport="50000" SIZES_verify="25 61 2026-09-01 2000" SIZES_spreadsheet="50000"
else
    SIZES_gpx="1000000 10000000" SIZES_telematics="10000 1000 365 2026-01-01 10" SIZES_obd="1000000"
    SIZES_reports="1000 365 2026-01-01 2026-10" SIZES_reimport="1000000" SIZES_verify="1000 365 2026-01-01 40000" SIZES_spreadsheet="1000000"
fi
failed=()
run_row() {
    say ""; say "== $* =="
    bash "scripts/bench/$1.sh" "${@:2}" || { failed+=("$*"); record row=0 what="$*" note="FAILED (see the log above)"; }
}
for row in "${ROWS[@]}"; do
    case $row in
        gpx) for n in $SIZES_gpx; do run_row gpx "$n"; done ;;
        telematics) run_row telematics $SIZES_telematics ;;
        obd) run_row obd $SIZES_obd ;;
        receipts)
            if [ "$QUICK" = 1 ] && [ "${RECEIPTS:-0}" != 1 ]; then
                record row=4 what="Receipts" note="skipped in quick mode (its release test build takes minutes; RECEIPTS=1 runs it)"
            else run_row receipts; fi ;;
        reports) run_row reports $SIZES_reports ;;
        reimport) run_row reimport $SIZES_reimport ;;
        receipt-accuracy) run_row receipt-accuracy ;;
        verify) run_row verify $SIZES_verify ;;
        spreadsheet) run_row spreadsheet $SIZES_spreadsheet ;;
    esac
done

OUT=BENCHMARKS.md
[ "$QUICK" = 1 ] && OUT=$WORK/BENCHMARKS-quick.md
CMD="make bench$([ "$QUICK" = 1 ] && echo -quick || true)"
[ ${#ROWS[@]} -lt 9 ] && [ "$MERGE" = 0 ] && CMD="scripts/bench/run.sh $*"
python3 scripts/bench/render.py "$RESULTS" "$OUT" --command "$CMD" --started "$STARTED" \
    --load-before "$LOAD_BEFORE" --load-after "$(cut -d' ' -f1-3 /proc/loadavg)" --runs "$RUNS" \
    --quick "$QUICK" --notes scripts/bench/perf-notes.md \
    --extra "$WORK/receipt-accuracy-$([ "$QUICK" = 1 ] && echo quick || echo full).md"
say ""; say "wrote $OUT"
[ ${#failed[@]} = 0 ] || { say "rows that failed: ${failed[*]}"; exit 1; }
