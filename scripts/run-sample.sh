#!/usr/bin/env bash
# The main job on the embedded sample fleet: a fresh warehouse, every SampleData file imported,
# then what the warehouse holds. `make run` calls this after the release build.
#
# SampleData is FleetKit's own data, so any rejected row or failed file here is a bug: the
# script stops with the importer's exit code. SampleData/bad/ holds deliberately broken files
# and is imported separately, to show what a user sees for them.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-.build/release/fleetkit}
out=Reports/run
rm -rf "$out"
mkdir -p "$out"
db="$out/fleet.sqlite"

echo "== fleetkit init"
"$bin" init --db "$db" --tz America/Chicago --currency USD --units us

echo
echo "== fleetkit import SampleData (everything but SampleData/bad)"
inputs=()
for entry in SampleData/*; do
  case "$(basename "$entry")" in bad|README.md) continue ;; esac
  [ -e "$entry" ] && inputs+=("$entry")
done
"$bin" import --db "$db" "${inputs[@]}"
echo "-- again: the same files must all be unchanged"
"$bin" import --db "$db" --json "${inputs[@]}" > "$out/reimport.json"
python3 - "$out/reimport.json" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
t = s["totals"]
assert t["files"] == t["unchanged_files"] and t["loaded"] == 0, f"re-import was not a no-op: {t}"
print(f"{t['files']} files, all unchanged")
PY

echo
echo "== fleetkit import SampleData/bad (deliberately broken files: expect rejects and failures)"
if [ -d SampleData/bad ]; then
  set +e
  "$bin" import --db "$db" SampleData/bad
  rc=$?
  set -e
  if [ "$rc" -ne 1 ]; then echo "expected exit code 1 for SampleData/bad, got $rc" >&2; exit 1; fi
  echo "(exit code 1, as expected: rows were rejected or files failed)"
  echo "-- fleetkit rejects"
  "$bin" rejects --db "$db"
fi

echo
echo "== fleetkit status"
"$bin" status --db "$db"
echo
echo "Warehouse: $db"
