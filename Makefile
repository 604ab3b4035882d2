# baccarat-audit — `make run` and `make test` work on a fresh machine with Python 3.11+ and make.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
SAMPLE := fixtures/samples/night-shift.json
# Stamps: the tool alone (make run), the tool with what make test needs, and with the slow tests' and benches'
# tools too (a browser driver, Dask, orjson).
TOOL   := $(VENV)/.installed-tool
TESTS  := $(VENV)/.installed-test
FULL   := $(VENV)/.installed-full
PIP    := $(BIN)/python -m pip install --quiet --disable-pip-version-check
SUDO   := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
# $(call generate,ARGS,FILE): FILE is the output of `baccarat-audit ARGS`, written whole or left as it was.
generate = $(BIN)/baccarat-audit $(1) > $(2).tmp && mv $(2).tmp $(2) || { rm -f $(2).tmp; exit 1; }

.PHONY: run test test-all test-slow lint fuzz browser conformance bench bench-integrity integrity-false-alarms bench-patrons bench-innocents docs clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

$(TOOL): pyproject.toml | $(BIN)/python
	$(PIP) -e .
	@touch $@

# One install for the tool and make test's tools (a fresh clone's make test builds the package once).
$(TESTS): pyproject.toml | $(BIN)/python
	$(PIP) -e '.[test]'
	@touch $(TOOL) $@

$(FULL): $(TESTS)
	$(PIP) -e '.[test,slow]'
	@touch $@

# The sample has findings, so the check exits 1: that is its report, not a failure (exit 2 still fails).
run: $(TOOL)
	@$(BIN)/baccarat-audit check $(SAMPLE) || [ $$? -eq 1 ]

# The suite in a few minutes on two cores: everything but the tests marked slow (scale, long fuzzing, real
# processes, the browser, Dask) or install (a wheel built and installed into a fresh venv), spread over
# JOBS worker processes (pytest-xdist; `make test JOBS=0` runs it in this one process).
JOBS ?= auto
test: $(TESTS)
	$(BIN)/python -m pytest -n $(JOBS) --dist worksteal -m "not slow and not install"

# Every test, the slow and install ones too.
test-all: $(FULL)
	$(BIN)/python -m pytest -n $(JOBS) --dist worksteal

# Only the tests make test leaves out (slow, install): .ci/run runs make test, then this.
test-slow: $(FULL)
	$(BIN)/python -m pytest -n $(JOBS) --dist worksteal -m "slow or install"

# Ruff, with the rule set of pyproject.toml [tool.ruff] (installed with the test dependencies).
lint: $(TESTS)
	$(BIN)/ruff check .

# The fuzzers of every kind of file the tool reads (make test runs them briefly), FUZZ_SCALE times as long.
FUZZ_SCALE ?= 40
fuzz: $(TESTS)
	FUZZ_SCALE=$(FUZZ_SCALE) $(BIN)/python -m pytest -q tests/test_fuzz_*.py

# Headless Chromium for the HTML report test (tests/test_report_html.py skips without it): Debian's package.
browser:
	@command -v chromium >/dev/null || command -v chromium-browser >/dev/null || \
	  { $(SUDO) apt-get update -qq && $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium; }
	@command -v chromium || command -v chromium-browser

conformance: $(TOOL)
	$(BIN)/python ../shared/conformance/score.py --cmd $(BIN)/baccarat-audit -v

bench: $(FULL)
	$(BIN)/python bench/startup.py
	$(BIN)/python bench/check_speed.py

# what shoe and table integrity adds to check, on 1,000,000 coups (one core; docs/integrity.md, docs/performance.md)
bench-integrity: $(FULL)
	$(BIN)/python bench/integrity_speed.py --coups 1000000 --memory

# false findings of the integrity tests on days of 1,000 fair shoes (docs/integrity.md; about 12 minutes)
integrity-false-alarms: $(TOOL)
	$(BIN)/python bench/integrity_false_alarms.py --days 200 --seed 1000

# patron-level integrity: the count's error, detection power, false alarms, cost (docs/integrity.md; a few minutes)
bench-patrons: $(FULL)
	$(BIN)/python bench/advantage_play.py

# who the patron-level rules name: the simulator's innocents and the guilty (docs/integrity.md; NIGHTS=20 for the
# full figures, long on a shared machine)
NIGHTS ?= 3
bench-innocents: $(TOOL)
	$(BIN)/python bench/innocents.py --nights $(NIGHTS)

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .hypothesis

docs: $(TOOL)
	$(BIN)/baccarat-audit check $(SAMPLE) --timestamp 2026-11-29T00:00:00Z -o html=docs/night-shift-report.html \
	  || [ $$? -eq 1 ]
	$(call generate,schema report,docs/report-schema.json)
	$(call generate,schema ruleset,docs/schema/ruleset.schema.json)
	for name in $$($(BIN)/python -c "from compliance import registry; print(*(g.schema_name for g in registry.every()))"); \
	  do $(call generate,schema $$name,docs/schema/$$name.schema.json); done
	$(call generate,rules list --format markdown,docs/rules.md)
	$(call generate,coverage --format markdown,docs/coverage.md)
