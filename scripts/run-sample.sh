#!/usr/bin/env bash
# The main job on the embedded sample fleet, the way a cron job runs it: the nightly job over
# an inbox holding SampleData, then the same exports again (nothing may change), then the
# deliberately broken files of SampleData/bad (they must be quarantined); then November's
# exports after October is closed, a corrected October file the job quarantines as a
# restatement, and its replacement applied and recorded. `make run` calls this
# after the release build.
#
# SampleData is FleetKit's own data, so a rejected row or a quarantined file in the first run
# is a bug: the script stops with the job's exit code.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-.build/release/fleetkit}
# The job's own folders (warehouse, inbox, archive, quarantine) live in SampleRun/, beside
# Reports/ and not inside it: the nightly job refuses a config whose reports folder holds its
# inbox (or the reverse), since files there would be imported, moved or deleted twice.
run=SampleRun
rm -rf "$run" Reports/run Reports/*.csv Reports/*.xlsx Reports/*.html Reports/*.json
mkdir -p "$run/inbox"

fill_inbox() {
  for entry in SampleData/*; do
    case "$(basename "$entry")" in bad|README.md) continue ;; esac
    cp -R "$entry" "$run/inbox/"
  done
}

cat > "$run/fleetkit.yml" <<YML
# The nightly job's configuration for the sample fleet (docs/OPERATIONS.md explains each key).
warehouse: fleet.sqlite
inbox: inbox
archive: archive
quarantine: quarantine
reports: ../Reports
settle_seconds: 0
timezone: America/Chicago
currency: USD
units: us
dvir_policy: every_day
reports_to_refresh: [summary, cost, utilization, maintenance-due, dvir-compliance, trips]
periods: [previous_month]
formats: [csv, xlsx, html, json]
YML

echo "== fleetkit nightly: SampleData arrives in the inbox"
fill_inbox
"$bin" nightly --config "$run/fleetkit.yml" --as-of 2026-11-01

echo
echo "== fleetkit nightly: the same exports arrive again (nothing may change)"
fill_inbox
"$bin" nightly --config "$run/fleetkit.yml" --as-of 2026-11-01 --json > "$run/second-run.json"
python3 - "$run/second-run.json" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
t = s["totals"]
assert t["files"] == t["unchanged_files"] and t["loaded"] == 0 and t["updated"] == 0, f"the second run was not a no-op: {t}"
print(f"{t['files']} files, all unchanged; archived again, nothing counted twice")
PY

echo
echo "== fleetkit nightly: broken files (SampleData/bad) are quarantined with a reason (a separate demo warehouse)"
demo=$run/bad-demo
mkdir -p "$demo/inbox"
cp -R SampleData/bad/. "$demo/inbox/"
sed -e 's|^reports: .*|reports: reports|' -e 's|^reports_to_refresh: .*|reports_to_refresh: []|' "$run/fleetkit.yml" > "$demo/fleetkit.yml"
set +e
"$bin" nightly --config "$demo/fleetkit.yml" --as-of 2026-11-01
rc=$?
set -e
if [ "$rc" -ne 1 ]; then echo "expected exit code 1 for the broken files, got $rc" >&2; exit 1; fi
echo "(exit code 1, as expected; reasons in $demo/quarantine/*.reason.txt)"
echo "-- fleetkit rejects"
"$bin" rejects --db "$demo/fleet.sqlite"

echo
echo "== spreadsheets through mapping profiles: finance's vehicle register and a parking statement (.xlsx)"
# Layouts FleetKit has no format for, read with the profiles in scripts/spreadsheets/profiles,
# which the job finds in the profiles folder beside the warehouse. The register gives each
# vehicle its plate; the parking statement names vehicles only by plate (typed as people type
# them), with title rows above its header and a totals row below its data.
mkdir -p "$run/profiles" "$run/inbox/spreadsheets"
cp scripts/spreadsheets/profiles/*.yml "$run/profiles/"
cp scripts/spreadsheets/*.xlsx "$run/inbox/spreadsheets/"
"$bin" profile list --db "$run/fleet.sqlite"
"$bin" profile test joliet-parking-statement scripts/spreadsheets/parking-2026-10.xlsx --db "$run/fleet.sqlite" --rows 3
"$bin" nightly --config "$run/fleetkit.yml" --as-of 2026-11-01
python3 - "$run/fleet.sqlite" scripts/spreadsheets/parking-2026-10.xlsx <<'PY'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
rows = db.execute("""SELECT a.unit_number, a.license_plate, COUNT(*), SUM(e.amount_minor) FROM expense e
                     JOIN source_file f ON f.id = e.source_file_id LEFT JOIN asset a ON a.id = e.asset_id
                     WHERE f.format = 'profile:joliet-parking-statement@1' GROUP BY a.id ORDER BY a.unit_number""").fetchall()
assert rows and all(u for u, _, _, _ in rows), f"a parking row found no vehicle by its plate: {rows}"
for unit, plate, n, minor in rows:
    print(f"parking {unit} (plate {plate}): {n} fee{'s' if n != 1 else ''}, ${minor / 100:.2f}")
total = sum(r[3] for r in rows)
print(f"parking total ${total / 100:.2f} in {sum(r[2] for r in rows)} fees; the statement's totals row is skipped, not counted")
assert total == 7575, f"the statement's totals row says $75.75; the warehouse holds {total}"
PY

echo
echo "== fleetkit verify: the warehouse audits itself (a figure that contradicts its rows exits 1 with a list)"
"$bin" verify --db "$run/fleet.sqlite"

echo
echo "== November arrives (fleetkit sample --start 2026-11-01); the job closes October first (close_after_days: 5)"
# The November exports carry their own ids, and master data, history and rates that agree with
# October's on every day both cover: importing them changes nothing of October.
"$bin" sample --out "$run/november" --start 2026-11-01 --days 30 > /dev/null
for entry in "$run"/november/*; do cp -R "$entry" "$run/inbox/"; done
echo "close_after_days: 5" >> "$run/fleetkit.yml"
"$bin" nightly --config "$run/fleetkit.yml" --as-of 2026-12-01

echo
echo "== a corrected October fuel-card export arrives: October is closed, so the job quarantines it"
fixed=fuel-card-2026-10-corrected.csv
python3 - SampleData/fuel-card/fuel-card-2026-10.csv "$run/inbox/$fixed" <<'PY'
import csv, sys
rows = list(csv.reader(open(sys.argv[1], newline="")))
rows[1][12] = f"{float(rows[1][12]) + 10:.2f}"      # the first fill's total, corrected by the vendor
csv.writer(open(sys.argv[2], "w", newline=""), lineterminator="\n").writerows(rows)
PY
set +e
"$bin" nightly --config "$run/fleetkit.yml" --as-of 2026-12-01
rc=$?
set -e
if [ "$rc" -ne 1 ]; then echo "expected exit code 1 for the restatement, got $rc" >&2; exit 1; fi
echo "(exit code 1, as expected; the figures it would change are in $run/quarantine/$fixed.reason.txt)"

echo
echo "== finance accepts it: the corrected file replaces the original, the restatement is recorded"
"$bin" import --db "$run/fleet.sqlite" --allow-restatement --replaces fuel-card-2026-10.csv "$run/quarantine/$fixed"
"$bin" report all --db "$run/fleet.sqlite" --month 2026-10 --out Reports --quiet

echo
echo "== fleetkit status"
"$bin" status --db "$run/fleet.sqlite"

echo
echo "== fleetkit verify"
"$bin" verify --db "$run/fleet.sqlite"

echo
echo "== the reports for October (restated) and November 2026"
python3 - <<'PY'
import json
for month in ["2026-10", "2026-11"]:
    for name in ["summary", "cost", "utilization", "maintenance-due", "dvir-compliance", "trips"]:
        r = json.load(open(f"Reports/{name}-{month}.json"))
        totals = ", ".join(f"{k} {v}" for k, v in r["totals"].items())
        print(f"{month} {name:16} {totals}")
PY
echo
echo "Open Reports/index.html in a browser; XLSX, CSV and JSON are beside it in Reports/."
echo "Warehouse: $run/fleet.sqlite"
