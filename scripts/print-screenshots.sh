#!/usr/bin/env bash
# Prints every report page of a report folder in headless Chromium at A4 landscape and keeps,
# per report, the printed page where its widest table starts as docs/screenshots/print-<report>.png,
# plus the cost report in a 1280 px window (cost-1280.png). `make screenshots` runs it on the
# folder `make run` wrote; HTMLPrintTests checks the same prints column by column.
#
# usage: scripts/print-screenshots.sh REPORTS_DIR LABEL [OUT_DIR]   e.g. Reports 2026-10
set -euo pipefail
reports=$(cd "$1" && pwd); label=$2; out=${3:-docs/screenshots}
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
chrome=(chromium --headless --no-sandbox --disable-gpu --disable-dev-shm-usage --user-data-dir="$work/profile")
mkdir -p "$out"
for report in summary cost utilization maintenance-due dvir-compliance trips; do
  page="$reports/$report-$label.html"
  [ -f "$page" ] || { echo "no $page" >&2; exit 1; }
  # The print dialog's choice of paper, as a user makes it: A4 landscape.
  sed 's#</head>#<style>@page { size: A4 landscape; }</style></head>#' "$page" > "$work/$report.html"
  "${chrome[@]}" --no-pdf-header-footer --print-to-pdf="$work/$report.pdf" "file://$work/$report.html" 2>/dev/null
  pages=$(pdfinfo "$work/$report.pdf" | awk '/^Pages:/ {print $2}')
  # The widest table (most columns): its title and its first and last column headers.
  mapfile -t want < <(python3 - "$page" <<'PY'
import html, re, sys
s = open(sys.argv[1], encoding="utf-8").read()
best = max(re.findall(r'<h2>([^<]*)</h2>(?:(?!<h2>).)*?<thead><tr>(.*?)</tr></thead>', s, re.S), key=lambda t: t[1].count("<th"))
heads = [re.sub(r"<[^>]+>", "", h).split()[0] for h in re.findall(r"<th[^>]*>(.*?)</th>", best[1])]
print(html.unescape(best[0])); print(html.unescape(heads[0])); print(html.unescape(heads[-1]))
PY
)
  at=1
  for ((p = 1; p <= pages; p++)); do
    text=$(pdftotext -f $p -l $p "$work/$report.pdf" - | tr -s ' \n' ' ')
    if grep -qF "${want[0]}" <<<"$text" && grep -qF "${want[1]}" <<<"$text" && grep -qF "${want[2]}" <<<"$text"; then at=$p; break; fi
  done
  pdftoppm -f $at -l $at -r 72 -png -singlefile "$work/$report.pdf" "$out/print-$report"
  echo "$report: $pages pages at A4 landscape; page $at ('${want[0]}') -> $out/print-$report.png"
done
"${chrome[@]}" --hide-scrollbars --window-size=1280,1100 --screenshot="$out/cost-1280.png" "file://$reports/cost-$label.html" 2>/dev/null
echo "cost at 1280 px -> $out/cost-1280.png"
