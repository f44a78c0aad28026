#!/usr/bin/env bash
# Row 9: a fuel-card statement of ROWS transactions as an .xlsx workbook (gen-xlsx.py: XlsxWriter
# in constant_memory mode, generated once and cached) imported by FleetKit through a mapping
# profile (scripts/bench/fuel-statement.yml, `fleetkit import --profile`) next to the peer,
# openpyxl's read-only mode iterating the rows, converting them the same way and inserting them
# with executemany (peer_openpyxl.py). Target (issue 32): peak RSS <= 150 MB.
# Checked in the same run: fleetkit stores ROWS fuel_purchase rows (the totals row skipped, the
# TotalEnergies and Totalfina rows kept), and their summed cents and litres equal the peer's and
# the generator's.
# Usage: scripts/bench/spreadsheet.sh ROWS
source "$(dirname "$0")/common.sh"
ROWS=${1:?usage: spreadsheet.sh ROWS}
XLSX=$WORK/fuel-statement-$ROWS.xlsx
label=$(python3 -c "import sys; n = int(sys.argv[1]); print('%g M' % (n / 1e6) if n >= 1000000 else '%g k' % (n / 1e3))" "$ROWS")
ensure_venv xlsxwriter openpyxl
if [ ! -s "$XLSX" ] || [ ! -s "$XLSX.sum" ]; then
    say "generating a $ROWS-row fuel-card statement (.xlsx)"
    "$PY" scripts/bench/gen-xlsx.py --rows "$ROWS" --seed 42 --out "$XLSX.tmp.xlsx" >"$XLSX.sum.tmp"
    mv "$XLSX.tmp.xlsx" "$XLSX" && mv "$XLSX.sum.tmp" "$XLSX.sum"
fi
read -r _ GEN_CENTS <"$XLSX.sum"
mb=$(( $(stat -c %s "$XLSX") / 1048576 ))
DB=$WORK/spreadsheet.sqlite
PEER=$WORK/spreadsheet-peer.sqlite
setup_fk() { fresh_db "$DB"; sync; }
setup_peer() { rm -f "$PEER"; sync; }
measure "spreadsheet-$ROWS-fleetkit" "$RUNS_LONG" setup_fk "$BIN" import --db "$DB" --profile scripts/bench/fuel-statement.yml --json "$XLSX"
read -r loaded updated unchanged rejected imported _ failed < <(json_totals "$WORK/spreadsheet-$ROWS-fleetkit.out")
read -r stored cents litres totalish < <(sqlite3 -separator ' ' "$DB" "SELECT COUNT(*), SUM(total_minor), CAST(ROUND(SUM(volume_ml) / 1000) AS INTEGER),
    (SELECT COUNT(*) FROM fuel_purchase WHERE merchant LIKE 'Total%' OR unit_hint LIKE 'Total%' OR asset_id IN (SELECT id FROM asset WHERE unit_number LIKE 'Total%')) FROM fuel_purchase")
say "  fleetkit: loaded $loaded, rejected $rejected, failed files $failed; fuel_purchase rows $stored (of them naming Total…: $totalish), $cents cents, $litres L"
FK=(fk_wall="$M_WALL" fk_cpu="$M_CPU" fk_rss="$M_RSS" fk_runs="$M_RUNS")
measure "spreadsheet-$ROWS-openpyxl" "$RUNS_LONG" setup_peer "$PY" scripts/bench/peer_openpyxl.py "$XLSX" "$PEER"
read -r peer_rows peer_cents peer_litres <"$WORK/spreadsheet-$ROWS-openpyxl.out"
problems=()
[ "$stored" = "$ROWS" ] || problems+=("fleetkit stored $stored fuel_purchase rows of $ROWS (loaded $loaded, rejected $rejected, failed files $failed)")
[ "$peer_rows" = "$ROWS" ] || problems+=("openpyxl wrote $peer_rows rows of $ROWS")
[ "$cents" = "$peer_cents" ] && [ "$cents" = "$GEN_CENTS" ] || problems+=("summed cents: fleetkit $cents, openpyxl $peer_cents, generated $GEN_CENTS")
[ "$litres" = "$peer_litres" ] || problems+=("summed litres: fleetkit $litres, openpyxl $peer_litres")
if [ ${#problems[@]} = 0 ]; then
    note="$stored rows stored by each, the same $cents cents and $litres L; the totals row skipped, the $totalish rows naming TotalEnergies or Totalfina kept"
else
    note="MISMATCH: $(IFS=';'; echo "${problems[*]}")"
    say "  $note"
fi
record row=9 what="Spreadsheet import, $label-row .xlsx ($mb MB) through a profile" unit=rows/s n="$ROWS" "${FK[@]}" \
    peer="openpyxl read_only + executemany" peer_wall="$M_WALL" peer_cpu="$M_CPU" peer_rss="$M_RSS" \
    target="RSS <= 150 MB" check="rss<=150" note="$note"
[ ${#problems[@]} = 0 ]
