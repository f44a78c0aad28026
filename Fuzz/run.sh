#!/usr/bin/env bash
# make fuzz: builds each libFuzzer harness with the sources it exercises and runs it for a
# bounded time (FUZZ_SECONDS, default 60). A crash fails the target and leaves the input in
# Fuzz/crashes/<harness>/ — turn it into a regression test and a fix.
# FUZZ_ONLY="gpx iso" runs only the named harnesses.
#
# Swift's libFuzzer support: `swiftc -sanitize=fuzzer,address -parse-as-library` on one module
# holding the harness (a @_cdecl("LLVMFuzzerTestOneInput") function) and the code under test.
# ld.gold prints harmless warnings about the sanitizer runtime.
#
# Sources outside FleetCore say `import FleetCore`; in a one-module build that import names a
# module that does not exist, so they are staged into .build-fuzz/src/<harness>/ with that line
# removed (nothing else changes). Code that needs FleetWarehouse (GRDB) is not built here: each
# harness's header comment states its boundary.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${FUZZ_SECONDS:-60}
only=${FUZZ_ONLY:-}
out=.build-fuzz
mkdir -p "$out"
summary=$out/summary.txt
: > "$summary"
status=0
wanted() { [ -z "$only" ] || [[ " $only " == *" $1 "* ]]; }
# stage NAME FILES...: copies FILES into $out/src/NAME without `import FleetCore`; prints the copies.
stage() {
  local name=$1; shift
  local dir=$out/src/$name
  rm -rf "$dir" && mkdir -p "$dir"
  local f
  for f in "$@"; do
    sed -e '/^import FleetCore$/d' -e '/^@testable import FleetCore$/d' "$f" > "$dir/$(echo "$f" | tr / _)"
    echo "$dir/$(echo "$f" | tr / _)"
  done
}
# FLAGS_<harness> adds libFuzzer options and ASAN_<harness> sets ASAN_OPTIONS for one harness
# (none needs any now: leak checks were off for iso while it read through FoundationXML).
# Each harness's dictionary (libFuzzer -dict=): the tokens of its format, so mutations reach
# what a byte flip rarely does (an encoding name, "\n" after "<?xml", "<!ENTITY", an AT command).
declare -A DICT=([csv]=csv [values]=values [gpx]=gpx [iso]=xml [samsara]=json [receipt]=receipt [elm]=elm [xlsx]=xml [loggers]=loggers [profiles]=profiles)
run() {
  local name=$1; shift
  local extra_var=FLAGS_$name
  local extra=${!extra_var:-}
  local asan_var=ASAN_$name
  local asan=${!asan_var:-}
  wanted "$name" || return 0
  local corpus=Fuzz/corpus/$name
  mkdir -p "$corpus" "Fuzz/crashes/$name"
  # The committed, minimised seeds (Fuzz/seeds/<name>) are read on every run besides the grown
  # corpus, and the format's dictionary is used.
  local seeds=() dict=()
  [ -d "Fuzz/seeds/$name" ] && seeds=("Fuzz/seeds/$name")
  [ -n "${DICT[$name]:-}" ] && dict=("-dict=Fuzz/dict/${DICT[$name]}.dict")
  echo "== $name: building"
  swiftc -O -sanitize=fuzzer,address -parse-as-library -module-name Fuzz_$name "$@" -o "$out/$name" 2> "$out/$name.build.log" \
    || { cat "$out/$name.build.log"; exit 2; }
  echo "== $name: fuzzing for ${seconds}s"
  if ASAN_OPTIONS=$asan "$out/$name" "$corpus" "${seeds[@]}" "${dict[@]}" -max_total_time="$seconds" -max_len=65536 -timeout=10 -rss_limit_mb=1024 \
       -artifact_prefix="Fuzz/crashes/$name/" -print_final_stats=1 $extra > "$out/$name.log" 2>&1; then
    grep -E "stat::number_of_executed_units|stat::peak_rss_mb" "$out/$name.log" | sed "s/^/   $name /"
    echo "$name $(grep -oE 'number_of_executed_units: [0-9]+' "$out/$name.log" | grep -oE '[0-9]+') executions in ${seconds}s, corpus $(ls "$corpus" | wc -l) inputs" >> "$summary"
  else
    echo "!! $name found a crash:"; tail -40 "$out/$name.log"; status=1
    echo "$name CRASH (see Fuzz/crashes/$name/)" >> "$summary"
  fi
}
# Seed corpora from the fixtures (copied once, then grown by libFuzzer).
seed() { local name=$1; shift; wanted "$name" || return 0; mkdir -p "Fuzz/corpus/$name"; [ -n "$(ls -A "Fuzz/corpus/$name")" ] || cp "$@" "Fuzz/corpus/$name/" 2>/dev/null || true; }
core=(Sources/FleetCore/*.swift)

seed csv Tests/FleetImportTests/Fixtures/*/*.csv SampleData/master/*.csv
run csv "${core[@]}" Fuzz/CSVReaderFuzz.swift

seed values Fuzz/seeds/values/*
run values "${core[@]}" Fuzz/ValuesFuzz.swift

# GPX: the byte scanner (Formats/gpx) and the shared XML tokenizer, values and buffers (Parsers/XML).
seed gpx Tests/FleetImportTests/Fixtures/gpx/*.gpx
# The files that need the warehouse (GPXPipeline: `import FleetWarehouse`) are left out.
gpx_sources=()
for f in Sources/FleetImport/Formats/gpx/*.swift Sources/FleetImport/Parsers/XML/{XMLBytes,XMLTranscoder,XMLTokenizer,XMLTypes,XMLByteEncoding,XMLPrologGuard,XMLDoctypeRule}.swift; do grep -q '^import FleetWarehouse' "$f" || gpx_sources+=("$f"); done
wanted gpx && run gpx "${core[@]}" $(stage gpx "${gpx_sources[@]}") Fuzz/GPXScannerFuzz.swift

# ISO 15143-3 / AEMP 1.2, XML and JSON: prolog guard, transcoder, tokenizer and element driver, the JSON pull parser,
# element mapping and identity (not ISOFeed/ISOFeedLoader, which need the warehouse).
seed iso Tests/FleetImportTests/Fixtures/iso15143/*.xml Tests/FleetImportTests/Fixtures/iso15143/*.json \
  Tests/FleetImportTests/Fixtures/aemp12/*.xml Fuzz/seeds/iso/*
telematics=()
for t in FeedJSON FeedNode FeedTally FeedValues ISOElements ISOIdentity XSDuration; do
  telematics+=("Sources/FleetImport/Formats/iso15143/$t.swift")
done
for t in JSONNode JSONPullParser JSONPullParser+Scalars; do telematics+=("Sources/FleetImport/Parsers/JSON/$t.swift"); done
for t in XMLByteEncoding XMLDoctypeRule XMLElementDriver XMLTranscoder XMLBytes XMLTokenizer XMLPrologGuard; do telematics+=("Sources/FleetImport/Parsers/XML/$t.swift"); done
# Byte (Byte.digits, the shared time-field reader) lives in Parsers/XML/XMLTypes.swift.
wanted iso && run iso "${core[@]}" $(stage iso "${telematics[@]}" Sources/FleetImport/Parsers/XML/XMLTypes.swift) Fuzz/ISOFeedFuzz.swift

# Samsara: the JSON pull parser, JSON nodes and the record value decoders.
seed samsara Tests/FleetImportTests/Fixtures/samsara/*.json
wanted samsara && run samsara "${core[@]}" $(stage samsara Sources/FleetImport/Parsers/JSON/JSONNode.swift Sources/FleetImport/Parsers/JSON/JSONPullParser*.swift Sources/FleetImport/Parsers/JSON/JSONRowError.swift Sources/FleetImport/Parsers/JSON/JSONFields.swift Sources/FleetImport/Parsers/JSON/JSONTime.swift Sources/FleetImport/Parsers/XML/XMLTypes.swift) Fuzz/SamsaraJSONFuzz.swift

# Receipts: field extraction on OCR text (no Tesseract or Leptonica files).
seed receipt Fuzz/seeds/receipt/*
wanted receipt && run receipt "${core[@]}" $(stage receipt Sources/FleetOCR/Receipt*.swift Sources/FleetOCR/OCRResult.swift Sources/FleetOCR/OCRReadingJudge.swift) Fuzz/ReceiptExtractorFuzz.swift

seed elm Fuzz/seeds/elm/*; wanted elm && run elm "${core[@]}" $(stage elm Sources/FleetImport/Parsers/XML/XMLTypes.swift Sources/FleetImport/Formats/obd-shared/{OBDDecoder,OBDLocalTime,OBDChannels,OBDLayouts,OBDText}.swift Sources/FleetImport/Formats/elm327/{ELMLine,ELMByteParser,ELMWrapper,ELMAssembler,TextLineReader}.swift Sources/FleetImport/Formats/obd-csv/OBDCSVLayout.swift Sources/FleetImport/Formats/car-scanner/{CarScannerFileDate,CarScannerClock}.swift Sources/FleetImport/Formats/torque/TorqueZoneTally.swift) Fuzz/ELM327Fuzz.swift  # ELM327 transcripts: line reader, parser, multi-frame assembler, J1979 decoders

# Freematics and python-OBD logs: the line reader, both line parsers, the Freematics device clock
# and GPS decoders, the pint unit table and the local clock (not the importers: they need the warehouse).
seed loggers Fuzz/seeds/loggers/*
wanted loggers && run loggers "${core[@]}" $(stage loggers Sources/FleetImport/Parsers/XML/XMLTypes.swift Sources/FleetImport/Formats/obd-shared/OBDLocalTime.swift Sources/FleetImport/Formats/elm327/TextLineReader.swift Sources/FleetImport/Formats/freematics/{FreematicsLine,FreematicsClock}.swift Sources/FleetImport/Formats/python-obd/PythonOBDLine.swift) Fuzz/LoggerLinesFuzz.swift

# XLSX: the zip directory, the zlib inflate stream, the workbook, sheet and record readers, on the
# shared XML tokenizer; the CSV record protocol they serve (zlib through Sources/CZlib's module map).
seed xlsx Fuzz/seeds/xlsx/*
xlsx_sources=(Sources/FleetImport/Parsers/XLSX/*.swift Sources/FleetImport/Parsers/CSV/RecordSource.swift)
for t in XMLBytes XMLTranscoder XMLTokenizer XMLTypes XMLByteEncoding XMLPrologGuard XMLDoctypeRule; do xlsx_sources+=("Sources/FleetImport/Parsers/XML/$t.swift"); done
wanted xlsx && run xlsx -I Sources/CZlib "${core[@]}" $(stage xlsx "${xlsx_sources[@]}") Fuzz/XLSXReaderFuzz.swift

# Mapping profiles: the YAML reader and its checks, the date/time pattern parser, the unit parser
# (FleetImport/Profiles without ProfileImporter, ProfilePreview, ProfileRecord: they need the warehouse).
# Yams is its own module here (its types are named `Yams.…`): libyaml's C files are compiled with
# coverage and ASan, Yams's Swift files into an instrumented static library the harness imports.
seed profiles Fuzz/seeds/profiles/*
if wanted profiles; then
  [ -d .build/checkouts/Yams ] || swift package resolve
  yams=.build/checkouts/Yams/Sources ylib=$out/yams
  mkdir -p "$ylib"
  echo "== profiles: building Yams"
  for c in "$yams"/CYaml/src/*.c; do
    clang -c -O1 -fsanitize=fuzzer-no-link,address -DYAML_DECLARE_STATIC -I "$yams/CYaml/include" "$c" -o "$ylib/$(basename "$c" .c).o"
  done
  swiftc -O -sanitize=fuzzer,address -parse-as-library -module-name Yams -emit-module -emit-module-path "$ylib/Yams.swiftmodule" \
    -emit-library -static -o "$ylib/libYams.a" -DSWIFT_PACKAGE -Xcc -DYAML_DECLARE_STATIC -I "$yams/CYaml/include" "$yams"/Yams/*.swift 2> "$out/yams.build.log" \
    || { cat "$out/yams.build.log"; exit 2; }
  run profiles -I "$ylib" -I "$yams/CYaml/include" -Xcc -DYAML_DECLARE_STATIC -L "$ylib" -lYams "$ylib"/*.o "${core[@]}" \
    $(stage profiles Sources/FleetImport/Profiles/{Profile,ProfileDateFormat,ProfileFile,ProfileNativeRows,ProfileTarget,ProfileUnit}.swift) Fuzz/ProfileFileFuzz.swift
fi

echo "== fuzz summary"; cat "$summary"
exit $status
