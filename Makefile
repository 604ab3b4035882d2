# baccarat-audit — `make run` and `make test` work on a fresh machine with Python 3.11+ and make.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
SAMPLE := fixtures/samples/night-shift.json

.PHONY: run test fuzz conformance bench docs clean

$(BIN)/baccarat-audit: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	@touch $@

run: $(BIN)/baccarat-audit
	-$(BIN)/baccarat-audit check $(SAMPLE)

test: $(BIN)/baccarat-audit
	$(BIN)/python -m pytest

# the fuzzers of every kind of file the tool reads (make test runs them briefly), FUZZ_SCALE times as long
FUZZ_SCALE ?= 40
fuzz: $(BIN)/baccarat-audit
	FUZZ_SCALE=$(FUZZ_SCALE) $(BIN)/python -m pytest -q tests/test_fuzz_*.py

conformance: $(BIN)/baccarat-audit
	$(BIN)/python ../shared/conformance/score.py --cmd $(BIN)/baccarat-audit -v

bench: $(BIN)/baccarat-audit
	$(BIN)/python bench/check_speed.py

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .hypothesis

docs: $(BIN)/baccarat-audit
	-$(BIN)/baccarat-audit check $(SAMPLE) --timestamp 2026-11-29T00:00:00Z -o html=docs/night-shift-report.html
	$(BIN)/baccarat-audit schema report > docs/report-schema.json
	$(BIN)/baccarat-audit schema ruleset > docs/schema/ruleset.schema.json
	$(BIN)/baccarat-audit schema transcript > docs/schema/transcript.schema.json
	$(BIN)/baccarat-audit schema pai-gow-transcript > docs/schema/pai-gow-transcript.schema.json
	$(BIN)/baccarat-audit rules list --format markdown > docs/rules.md
	$(BIN)/baccarat-audit coverage --format markdown > docs/coverage.md
