#!/usr/bin/env bash
# Row 4: receipt OCR throughput, two workers with reused Tesseract engines vs the `tesseract`
# command once per image. Runs scripts/bench-receipts.sh (its own release test build, in
# $RECEIPT_SCRATCH) over the generated receipt set of scripts/receipts/generate.py, which it
# (re)generates only when the images are missing.
source "$(dirname "$0")/common.sh"
RECEIPT_SCRATCH=${RECEIPT_SCRATCH:-.build-bench-ocr}
SET=Tests/FleetOCRTests/Fixtures/receipts
command -v tesseract >/dev/null || { record row=4 what="Receipts" unit=receipts/s note="not available: the tesseract command is missing (apt-get install tesseract-ocr)"; exit 0; }
[ -s "$SET/truth.json" ] || python3 scripts/receipts/generate.py --out "$SET" >&2
images=$(ls "$SET" | grep -ciE '\.(png|jpe?g|tiff?)$')
LOG=$WORK/receipts.log
if ! SCRATCH=$RECEIPT_SCRATCH STEPS=0 bash scripts/bench-receipts.sh "$WORK/receipts.md" >"$LOG" 2>&1; then
    say "scripts/bench-receipts.sh failed:"; tail -20 "$LOG" >&2
    record row=4 what="Receipts, $images images" unit=receipts/s note="not available: scripts/bench-receipts.sh failed (see $LOG)"
    exit 0
fi
line=$(grep -m1 '^Throughput' "$WORK/receipts.md" || true)
say "  $line"
# "Throughput (best of 3): R2 receipts/s with 2 workers (… ms each), R1 with 1 worker, `tesseract` CLI once per file RC receipts/s (…): Xx"
read -r r2 rc < <(python3 -c '
import re, sys
m = re.search(r"([\d.]+) receipts/s with 2 workers.*CLI once per file ([\d.]+) receipts/s", sys.argv[1])
print(m.group(1), m.group(2)) if m else print("", "")' "$line")
[ -n "$r2" ] || { record row=4 what="Receipts, $images images" unit=receipts/s note="not available: no throughput line in the receipt benchmark"; exit 0; }
# The receipt benchmark reports rates (best of 3, wall clock); express them as seconds for the set.
wall_fk=$(python3 -c "import sys; print('%.3f' % (int(sys.argv[1]) / float(sys.argv[2])))" "$images" "$r2")
wall_cli=$(python3 -c "import sys; print('%.3f' % (int(sys.argv[1]) / float(sys.argv[2])))" "$images" "$rc")
record row=4 what="Receipts OCR, $images images, 2 workers" unit=receipts/s n="$images" fk_wall="$wall_fk" fk_runs="best of 3" runs="best of 3" \
    peer="tesseract CLI once per image" peer_wall="$wall_cli" target=">= 3x tesseract CLI" check="ratio>=3" \
    note="best of 3 wall clock, from scripts/bench-receipts.sh (no CPU or RSS figure)"
