#!/usr/bin/env bash
# make fuzz: builds each libFuzzer harness with the sources it exercises and runs it for a
# bounded time (FUZZ_SECONDS, default 60). A crash fails the target and leaves the input in
# Fuzz/crashes/<harness>/ — turn it into a regression test and a fix.
#
# Swift's libFuzzer support: `swiftc -sanitize=fuzzer,address -parse-as-library` on one module
# holding the harness (a @_cdecl("LLVMFuzzerTestOneInput") function) and the code under test.
# ld.gold prints harmless warnings about the sanitizer runtime.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${FUZZ_SECONDS:-60}
out=.build-fuzz
mkdir -p "$out"
status=0
run() {
  local name=$1; shift
  local corpus=Fuzz/corpus/$name
  mkdir -p "$corpus" "Fuzz/crashes/$name"
  echo "== $name: building"
  swiftc -O -sanitize=fuzzer,address -parse-as-library -module-name Fuzz_$name "$@" -o "$out/$name" 2> "$out/$name.build.log" \
    || { cat "$out/$name.build.log"; exit 2; }
  echo "== $name: fuzzing for ${seconds}s"
  if "$out/$name" "$corpus" -max_total_time="$seconds" -max_len=65536 -timeout=10 -rss_limit_mb=1024 \
       -artifact_prefix="Fuzz/crashes/$name/" -print_final_stats=1 > "$out/$name.log" 2>&1; then
    grep -E "stat::number_of_executed_units|stat::peak_rss_mb" "$out/$name.log" | sed "s/^/   $name /"
  else
    echo "!! $name found a crash:"; tail -40 "$out/$name.log"; status=1
  fi
}
# Seed corpora from the fixtures (copied once, then grown by libFuzzer).
seed() { local name=$1; shift; mkdir -p "Fuzz/corpus/$name"; [ -n "$(ls -A "Fuzz/corpus/$name")" ] || cp "$@" "Fuzz/corpus/$name/" 2>/dev/null || true; }
seed csv Tests/FleetImportTests/Fixtures/*/*.csv SampleData/master/*.csv
run csv Sources/FleetCore/*.swift Fuzz/CSVReaderFuzz.swift
seed values Fuzz/seeds/values/*
run values Sources/FleetCore/*.swift Fuzz/ValuesFuzz.swift
exit $status
