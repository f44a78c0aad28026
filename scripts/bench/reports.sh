#!/usr/bin/env bash
# Row 5: `fleetkit report all` for one month, every format, on a warehouse of the sample fleet
# (ASSETS vehicles over DAYS days from START, imported once per fleetkit binary and cached; the
# import itself is recorded too). The cost report's XLSX is set next to Python XlsxWriter
# writing the same detail table.
# Usage: scripts/bench/reports.sh ASSETS DAYS START MONTH
source "$(dirname "$0")/common.sh"
ASSETS=${1:?usage: reports.sh ASSETS DAYS START MONTH} DAYS=${2:?} START=${3:?} MONTH=${4:?}
ensure_venv xlsxwriter=XlsxWriter
ensure_warehouse "$ASSETS" "$DAYS" "$START"
DB=$W_DB
record row=5 what="Warehouse import, $ASSETS vehicles × $DAYS days (all sample files)" unit=rows/s n="$W_ROWS" \
    fk_wall="$W_WALL" fk_cpu="$W_CPU" fk_rss="$W_RSS" fk_runs=1 note="run once per fleetkit binary (cached)"

OUT=$WORK/reports-out
setup_out() { rm -rf "$OUT"; sync; }
measure "report-all-$ASSETS" "$RUNS_LONG" setup_out "$BIN" report all --db "$DB" --month "$MONTH" --out "$OUT"
files=$(ls "$OUT" | wc -l)
record row=5 what="report all, $MONTH, csv+xlsx+html+json ($files files)" unit=s "fk_wall=$M_WALL" "fk_cpu=$M_CPU" "fk_rss=$M_RSS" "fk_runs=$M_RUNS" \
    note="$ASSETS vehicles, $DAYS days of data from $START"
measure "report-cost-xlsx-$ASSETS" "$RUNS" setup_out "$BIN" report cost --db "$DB" --month "$MONTH" --format xlsx,csv --out "$OUT"
FK=(fk_wall="$M_WALL" fk_cpu="$M_CPU" fk_rss="$M_RSS" fk_runs="$M_RUNS")
DETAIL=$(ls "$OUT"/cost-*-detail.csv | head -1)
rows=$(( $(python3 -c 'import csv, sys; print(sum(1 for _ in csv.reader(open(sys.argv[1], newline=""))))' "$DETAIL") - 1 ))
cp "$DETAIL" "$WORK/cost-detail.csv"
measure "report-cost-xlsxwriter-$ASSETS" "$RUNS" : "$PY" scripts/bench/peer_xlsx.py "$WORK/cost-detail.csv" "$WORK/peer-detail.xlsx"
record row=5 what="cost report XLSX+CSV ($rows detail rows)" unit=s "${FK[@]}" \
    peer="XlsxWriter, detail table only" peer_wall="$M_WALL" peer_cpu="$M_CPU" peer_rss="$M_RSS" \
    note="fleetkit: query + every sheet + CSV; peer: the detail sheet from its CSV"
