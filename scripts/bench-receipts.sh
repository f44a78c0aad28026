#!/usr/bin/env bash
# Receipt OCR benchmark: per-field accuracy (total, date, volume, merchant…) on the generated set
# (Tests/FleetOCRTests/Fixtures/receipts, truth.json beside the images), undistorted vs degraded,
# and receipts/s with two workers against the `tesseract` command once per file on the same images,
# measured in the same run. Release build in its own scratch path.
#
#   scripts/bench-receipts.sh [REPORT.md]      STEPS=0 skips the per-step measurements
#
# A benchmark, not a test: figures depend on the machine and on what else runs on it.
set -euo pipefail
cd "$(dirname "$0")/.."
SCRATCH=${SCRATCH:-.build-ocr}
REPORT=${1:-$SCRATCH/bench-receipts.md}
command -v tesseract >/dev/null || { echo "the tesseract command is needed for the comparison: apt-get install tesseract-ocr" >&2; exit 2; }
mkdir -p "$(dirname "$REPORT")"
REPORT=$(cd "$(dirname "$REPORT")" && pwd)/$(basename "$REPORT")
# Debian's libtesseract uses OpenMP: one thread per engine, for fleetkit's workers and the CLI alike.
export OMP_THREAD_LIMIT=1
LOG=$(mktemp)
trap 'rm -f "$LOG"' EXIT
status=0
FLEETKIT_RECEIPT_BENCH=1 FLEETKIT_RECEIPT_BENCH_STEPS=${STEPS:-1} FLEETKIT_RECEIPT_BENCH_OUT="$REPORT" \
  swift test -c release -Xswiftc -enable-testing --scratch-path "$SCRATCH" --filter 'FleetOCRTests.ReceiptBenchmarkTests' >"$LOG" 2>&1 || status=$?
grep -vE '^\[[0-9]+/[0-9]+\]|^warning: |^    /|^Building|^Build complete|^Compiling|^Write|^Test (Suite|Case)|^◇|^↳|^✔|Executed' "$LOG" || true
[ "$status" = 0 ] && [ -s "$REPORT" ] && echo "report: $REPORT"
exit "$status"
