# FleetKit — see README.md. Every target that builds first makes sure the system libraries exist.
SHELL := /bin/bash
# chromium prints the DVIR evidence pack (`fleetkit report evidence`); poppler-utils (pdftoppm,
# pdftotext) is how its tests read the PDF back. The Tesseract language packs are the languages
# of the receipt countries FleetKit knows (`ReceiptCountry.ocrLanguage`; docs/FORMATS.md, "OCR
# languages"): deu Germany/Austria, fra France/Morocco, spa Spain/Colombia/Mexico, msa Malaysia, ind Indonesia, ita
# Italy, por Portugal/Brazil, nld Netherlands, lit Lithuania, pol Poland, jpn Japan (1–6 MB each).
# libpq-dev is the PostgreSQL client FleetKit links; postgresql brings the server its tests start
# on loopback (scripts/pg-test-cluster.sh), and python3 the independent reader those tests compare against.
OCR_LANGUAGES := deu fra spa msa ind ita por nld lit pol jpn
DEBIAN_PACKAGES := libsqlite3-dev zlib1g-dev libxlsxwriter-dev libtesseract-dev libleptonica-dev tesseract-ocr-eng tesseract-ocr-osd $(addprefix tesseract-ocr-,$(OCR_LANGUAGES)) pkg-config time chromium poppler-utils libpq-dev postgresql python3
SUDO := $(shell [ "$$(id -u)" = "0" ] || echo sudo)
SWIFT ?= swift
FLEETKIT_RELEASE := .build/release/fleetkit
# Debian's libtesseract is built with OpenMP; one thread per engine is 3x faster here.
export OMP_THREAD_LIMIT := 1

.PHONY: deps build release test run sample fuzz bench bench-quick bench-deps clean man

## deps: install the Debian packages FleetKit links against, only those missing.
deps:
	@missing=""; for p in $(DEBIAN_PACKAGES); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "Installing Debian packages:$$missing"; \
	  $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $$missing; \
	fi

## build: debug build of every target.
build: deps
	$(SWIFT) build

release: deps
	$(SWIFT) build -c release --product fleetkit

## test: the whole test suite against real SQLite, libxlsxwriter and Tesseract (XCTest; the
## closing line counts what ran).
test: deps test-tools
	@mkdir -p .build
	@set -o pipefail; $(SWIFT) test --disable-swift-testing 2>&1 | tee .build/test.log
	@awk -f scripts/test-summary.awk .build/test.log

## man: regenerate docs/fleetkit.1 from the command definitions (swift-argument-parser's
## generate-manual plugin; ManualPageTests fails while the page and the commands disagree).
man: deps
	$(SWIFT) package --disable-sandbox --allow-writing-to-directory docs generate-manual --configuration debug \
	  --date $$(date -u +%Y-%m-%d) --output-directory docs

## run: the main job on SampleData: fresh warehouse, import everything, show the status.
run: release
	@bash scripts/run-sample.sh $(FLEETKIT_RELEASE)

## sample: regenerate SampleData with the seeded generator (the committed files are its output;
## bad/ is hand-written and receipts/ comes from scripts/receipts/generate.py).
sample: build
	find SampleData -mindepth 1 -maxdepth 1 ! -name bad ! -name receipts ! -name README.md -exec rm -rf {} +
	.build/debug/fleetkit sample --out SampleData

## fuzz: each libFuzzer harness for FUZZ_SECONDS (default 60); fails on any crash (Fuzz/run.sh).
fuzz: deps
	bash Fuzz/run.sh

## bench: every benchmark row next to its peer, measured in the same run; writes BENCHMARKS.md
## (scripts/bench/run.sh; Python peers in .venv-bench, inputs in /tmp/fleetkit-bench).
BENCH_PACKAGES := sqlite3 time python3-venv tesseract-ocr fonts-dejavu-core fonts-dejavu-extra fonts-liberation
bench: deps bench-deps
	bash scripts/bench/run.sh

## bench-quick: the same rows at small sizes, in under 2 minutes once built (BENCH_WORK/BENCHMARKS-quick.md).
bench-quick: deps bench-deps
	bash scripts/bench/run.sh --quick

bench-deps:
	@missing=""; for p in $(BENCH_PACKAGES); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "Installing Debian packages:$$missing"; \
	  $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $$missing; \
	fi

clean:
	rm -rf .build Reports/*.csv Reports/*.xlsx Reports/*.html Reports/*.json SampleRun

# --- Report renderers: the real readers their tests and screenshots use ---
.PHONY: test-tools screenshots print-screenshots
TOOLS_VENV := .venv-tools
SCREENSHOT_DIR := .build-screenshots
# Extra `swift test` flags for `screenshots`, e.g. SCREENSHOT_SWIFTFLAGS="--scratch-path .build-reports".
SCREENSHOT_SWIFTFLAGS ?=

## test-tools: a Python venv (.venv-tools) with openpyxl, the real XLSX reader the report tests open workbooks with,
## and headless Chromium with poppler's pdftotext/pdfinfo, which print and measure every report page (HTMLPrintTests).
TEST_TOOL_PACKAGES := chromium poppler-utils
test-tools:
	@missing=""; for p in $(TEST_TOOL_PACKAGES); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "Installing Debian packages:$$missing"; \
	  $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $$missing; \
	fi
	@if $(TOOLS_VENV)/bin/python -c "import openpyxl" 2>/dev/null; then :; else \
	  echo "Creating $(TOOLS_VENV) with openpyxl"; \
	  rm -rf $(TOOLS_VENV) && python3 -m venv $(TOOLS_VENV) && $(TOOLS_VENV)/bin/pip install -q openpyxl; \
	fi

## screenshots: render the report fixture's HTML in headless Chromium to docs/screenshots/report-fixture.png.
screenshots:
	@command -v chromium >/dev/null || { echo "Installing chromium"; \
	  $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq chromium; }
	rm -rf $(SCREENSHOT_DIR) && mkdir -p $(SCREENSHOT_DIR) docs/screenshots
	FLEETKIT_SCREENSHOT_DIR=$(CURDIR)/$(SCREENSHOT_DIR) $(SWIFT) test $(SCREENSHOT_SWIFTFLAGS) --filter FleetReportsTests.ScreenshotFixtureTests
	chromium --headless --no-sandbox --disable-gpu --disable-dev-shm-usage --hide-scrollbars --window-size=1280,2000 \
	  --screenshot=$(CURDIR)/docs/screenshots/report-fixture.png file://$(CURDIR)/$(SCREENSHOT_DIR)/cost-2026-10.html

## print-screenshots: after `make run`, print every report in Reports/ at A4 landscape in headless
## Chromium; keeps the page with each report's widest table and the cost report at 1280 px in docs/screenshots.
print-screenshots: test-tools
	bash scripts/print-screenshots.sh Reports 2026-10
