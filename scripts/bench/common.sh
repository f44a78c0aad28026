# Shared helpers for the benchmark rows (sourced, not run). Each row script measures FleetKit and
# its peer in the same run and appends one JSON line per figure to $RESULTS; run.sh renders them.
#
# Environment: QUICK=1 (small sizes), RUNS (repetitions, median reported; default 3, 1 in quick
# mode), RUNS_LONG (the same for measurements of minutes; default 1), BENCH_WORK (inputs and scratch; default /tmp/fleetkit-bench), SCRATCH (release build
# folder; default .build-bench-release), FLEETKIT (a prebuilt binary instead of building).
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$ROOT"
QUICK=${QUICK:-0}
if [ "$QUICK" = 1 ]; then RUNS=${RUNS:-1}; else RUNS=${RUNS:-3}; fi
# Runs of the measurements that take minutes each (10 M points, 1 M readings, the year warehouse).
RUNS_LONG=${RUNS_LONG:-1}
WORK=${BENCH_WORK:-/tmp/fleetkit-bench}
SCRATCH=${SCRATCH:-.build-bench-release}
BIN=${FLEETKIT:-$ROOT/$SCRATCH/release/fleetkit}
VENV=${VENV:-$ROOT/.venv-bench}
PY=$VENV/bin/python
RESULTS=${RESULTS:-$WORK/results.jsonl}
# Debian's libtesseract uses OpenMP: one thread per engine (DESIGN §7).
export OMP_THREAD_LIMIT=1
mkdir -p "$WORK"

say() { printf '%s\n' "$*" >&2; }

# measure NAME RUNS SETUP CMD...: runs SETUP (a shell function, or :) then CMD under
# `/usr/bin/time -v`, RUNS times. CMD's stdout goes to $WORK/NAME.out. Sets the medians
# M_WALL and M_CPU (seconds; CPU = user + sys) and M_RSS (peak RSS, MB).
measure() {
    local name=$1 runs=$2 setup=$3 i
    shift 3
    : >"$WORK/$name.runs"
    for ((i = 0; i < runs; i++)); do
        $setup
        if ! /usr/bin/time -v -o "$WORK/$name.time" "$@" >"$WORK/$name.out" 2>"$WORK/$name.err"; then
            # fleetkit exits 1 when rows were rejected; the caller checks the counts.
            grep -q "Exit status: 1$" "$WORK/$name.time" || { say "FAILED ($name): $*"; tail -5 "$WORK/$name.err" >&2; return 1; }
        fi
        awk -F': ' '/Elapsed \(wall clock\)/ { n = split($2, t, ":"); s = 0; for (j = 1; j <= n; j++) s = s * 60 + t[j]; w = s }
                    /User time|System time/ { c += $2 }
                    /Maximum resident set size/ { r = $2 / 1024 }
                    END { printf "%.3f %.3f %.1f\n", w, c, r }' "$WORK/$name.time" >>"$WORK/$name.runs"
    done
    read -r M_WALL M_CPU M_RSS < <(python3 -c '
import statistics, sys
rows = [list(map(float, l.split())) for l in open(sys.argv[1]) if l.strip()]
print(" ".join("%.3f" % statistics.median(c) for c in zip(*rows)))' "$WORK/$name.runs")
    M_RUNS=$runs
    say "  $name: wall ${M_WALL}s, CPU ${M_CPU}s, peak RSS ${M_RSS} MB (median of $runs)"
}

# record KEY=VALUE...: one result line. Keys: row, what, unit (a rate like "points/s", or "s"),
# n (items per run, for rates), fk_wall, fk_cpu, fk_rss, peer, peer_wall, peer_cpu, peer_rss,
# target, note. Rates are n / seconds; run.sh computes them and the ratios.
record() {
    python3 - "$RESULTS" runs="${M_RUNS:-}" at="$(date -u +%Y-%m-%dT%H:%MZ)" load="$(cut -d' ' -f1 /proc/loadavg)" "$@" <<'PYEOF'
import json, sys
out, pairs = sys.argv[1], sys.argv[2:]
d = dict(p.split("=", 1) for p in pairs)
with open(out, "a") as f:
    f.write(json.dumps(d) + "\n")
PYEOF
}

# The Python peers live in a local venv; pip installs only what is missing.
ensure_venv() {
    [ -x "$PY" ] || { python3 -m venv "$VENV" && printf '*\n' >"$VENV/.gitignore"; }
    local missing=() m
    for m in "$@"; do "$PY" -c "import ${m%%=*}" 2>/dev/null || missing+=("${m#*=}"); done
    [ ${#missing[@]} = 0 ] || { say "pip install ${missing[*]} into $VENV"; "$PY" -m pip install -q "${missing[@]}" >&2; }
}

# ensure_fleet ASSETS MACHINES DAYS START: a `fleetkit sample` fleet, generated once and cached.
# Prints its folder.
ensure_fleet() {
    local dir=$WORK/fleet-$1a-$2m-$3d-$4
    if [ ! -d "$dir" ]; then
        say "generating the sample fleet: $1 vehicles, $2 machines, $3 days from $4"
        rm -rf "$dir.tmp"
        "$BIN" sample --out "$dir.tmp" --assets "$1" --machines "$2" --days "$3" --start "$4" --seed 42 >/dev/null
        mv "$dir.tmp" "$dir"
    fi
    printf '%s\n' "$dir"
}

# ensure_warehouse ASSETS DAYS START: the warehouse of that sample fleet (every file), imported
# once per fleetkit binary and cached with its import's figures. Sets W_DB, and W_WALL, W_CPU,
# W_RSS, W_ROWS of that import.
ensure_warehouse() {
    local fleet stamp loaded updated unchanged rejected imported failed
    fleet=$(ensure_fleet "$1" 8 "$2" "$3")
    W_DB=$WORK/reports-$1-$2.sqlite
    stamp=$(sha256sum "$BIN" | cut -c1-16)
    if [ "$(cat "$W_DB.stamp" 2>/dev/null)" != "$stamp" ]; then
        say "importing the $1-vehicle, $2-day fleet into $W_DB"
        setup_wh() { fresh_db "$W_DB"; sync; }
        measure "warehouse-$1-$2" 1 setup_wh "$BIN" import --db "$W_DB" --json "$fleet"
        read -r loaded updated unchanged rejected imported _ failed < <(json_totals "$WORK/warehouse-$1-$2.out")
        say "  loaded $loaded rows from $imported files, rejected $rejected, failed files $failed"
        [ "$failed" = 0 ] || { say "the sample fleet did not import cleanly"; return 1; }
        printf '%s %s %s %s\n' "$M_WALL" "$M_CPU" "$M_RSS" "$loaded" >"$W_DB.import"
        echo "$stamp" >"$W_DB.stamp"
    fi
    read -r W_WALL W_CPU W_RSS W_ROWS <"$W_DB.import"
}

# Fresh warehouse at $1.
fresh_db() { rm -f "$1" "$1-wal" "$1-shm"; "$BIN" init --db "$1" >/dev/null; }

# json_totals FILE: "loaded updated unchanged rejected imported unchanged_files failed" of an import --json.
json_totals() {
    python3 -c '
import json, sys
t = json.load(open(sys.argv[1]))["totals"]
print(t["loaded"], t["updated"], t["unchanged"], t["rejected"], t["imported"], t["unchanged_files"], t["failed"])' "$1"
}
