"""Nothing lost on the way in: what an import of recorders' logs may not drop, double or misread silently.

Two overlapping exports of one log give each row once; the same log given
twice is refused; a stray quote loses its own line and nothing more; a row
of the table under check that the import could not use is an error of the
check, at its coup and line; a table id a character away from the
transcript's is that table mislabelled; an amount in another currency than
the table's is refused; the import names its jurisdiction at once.
"""

from __future__ import annotations

import json
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from compliance.engine import Checker
from compliance.importing.logs import lookalike
from tests.reporting import run

ROOT = Path(__file__).resolve().parent.parent
LOGS = ROOT / "fixtures" / "import"
SHOE = LOGS / "shoe-log" / "clean.csv"
HEADER = ("--header", str(LOGS / "header.json"))
WAGERS = "Table,Shoe,Coup,Seat,Patron,Spot,Amount,Outcome,Payout,Commission,Time\n"


def _write(tmp_path: Path, name: str, text: str) -> str:
    (tmp_path / name).write_text(text, encoding="utf-8")
    return str(tmp_path / name)


def _import(tmp_path: Path, *logs: str, extra: tuple = HEADER):
    out = tmp_path / "night.jsonl"
    return run("import", *logs, *extra, "-o", out), out


def _check(path: Path):
    return Checker().check_file(path, path.name)


def _lines(path: Path = SHOE) -> list[str]:
    return path.read_text(encoding="utf-8").splitlines(keepends=True)


def _coups(path: Path) -> dict[int, dict]:
    return {c["coup"]: c for c in map(json.loads, path.read_text().splitlines()[1:])}


def _events(coups: dict[int, dict]) -> dict[int, list]:
    return {n: [(e.get("card"), e.get("to")) for e in c.get("events", [])] for n, c in coups.items()}


# ------------------------------------------------------------------ overlapping exports


def test_two_overlapping_exports_of_a_clean_shoe_log_give_each_row_once(tmp_path):
    """Rows 1-149 and 119-267 of a clean log: each coup once, the same cards as the whole log, no finding."""
    head, rows = _lines()[0], _lines()[1:]
    first = _write(tmp_path, "first.csv", head + "".join(rows[:148]))
    second = _write(tmp_path, "second.csv", head + "".join(rows[117:]))
    whole, whole_out = _import(tmp_path / ".." / tmp_path.name, f"shoe-log={SHOE}")
    whole_coups = _coups(whole_out)
    result, out = _import(tmp_path, f"shoe-log={first}", f"shoe-log={second}")
    assert result.exit_code == 0, result.stderr
    assert _events(_coups(out)) == _events(whole_coups)
    assert _check(out).findings == []
    overlap = _coups(out)[25]["x-source"]  # a coup both exports hold: both places kept
    assert any(s.startswith(first) for s in overlap) and any(s.startswith(second) for s in overlap)


def test_the_same_log_given_twice_is_refused(tmp_path):
    copy = _write(tmp_path, "copy.csv", SHOE.read_text(encoding="utf-8"))
    for twice in ((f"shoe-log={SHOE}", f"shoe-log={SHOE}"), (f"shoe-log={SHOE}", f"shoe-log={copy}")):
        result, out = _import(tmp_path, *twice)
        assert result.exit_code == 2 and "the same log is given twice" in result.stderr and not out.exists()


def test_overlapping_rows_that_disagree_are_logs_disagree_and_not_judged(tmp_path):
    head, rows = _lines()[0], _lines()[1:]
    later = list(rows[117:])
    coup_of = {i: r.split(",")[2] for i, r in enumerate(later)}
    i = next(i for i, r in enumerate(later) if r.split(",")[2] == "25" and r.split(",")[3] == "2")
    cells = later[i].split(",")
    cells[4] = "9S" if cells[4] != "9S" else "8S"
    later[i] = ",".join(cells)
    first = _write(tmp_path, "first.csv", head + "".join(rows[:148]))
    second = _write(tmp_path, "second.csv", head + "".join(later))
    result, out = _import(tmp_path, f"shoe-log={first}", f"shoe-log={second}")
    assert result.exit_code == 0 and coup_of
    found = [(f.coup, f.category) for f in _check(out).findings]
    assert found == [(25, "record.logs-disagree")]
    assert "cards" not in _coups(out)[25].get("recorded", ["cards"])


# ------------------------------------------------------------------ a stray quote


def test_a_stray_quote_loses_its_own_line_and_the_check_fails(tmp_path):
    rows = _lines()
    n = next(i for i, r in enumerate(rows) if r.split(",")[2] == "3" and r.split(",")[3] == "1")
    cells = rows[n].split(",")
    cells[4] = '"' + cells[4]
    rows[n] = ",".join(cells)
    log = _write(tmp_path, "quote.csv", "".join(rows))
    result, out = _import(tmp_path, f"shoe-log={log}")
    assert result.exit_code == 1
    assert f"{log}:{n + 1}: a quote opened in this line is never closed" in result.stderr
    assert f"{log}: 267 rows read, 266 imported, 1 rejected" in result.stderr
    assert len(_coups(out)) == 50
    checked = _check(out)
    assert [(f.coup, f.category, f.severity) for f in checked.findings] == [(3, "record.rejected-row", "error")]
    assert run("check", out).exit_code == 1


def test_a_quote_bomb_swallows_no_line_after_it(tmp_path):
    rows = _lines()
    bomb = 'BAC-07,S0001,3,1,"' + "x" * 200_000 + "\n"
    log = _write(tmp_path, "bomb.csv", rows[0] + bomb + "".join(rows[1:]))
    result, out = _import(tmp_path, f"shoe-log={log}")
    assert result.exit_code == 1 and f"{log}: 268 rows read, 267 imported, 1 rejected" in result.stderr
    assert len(_coups(out)) == 50 and run("check", out).exit_code == 1


# ------------------------------------------------------------------ rows of the table under check


def test_an_unreadable_row_of_the_table_is_an_error_at_its_coup_and_line(tmp_path):
    wagers = _write(tmp_path, "w.csv", WAGERS + "BAC-07,S0001,2,2,,P,100,L,100,,\nBAC-07,S0001,2,3x,,B,5000,W,9000,,\n")
    result, out = _import(tmp_path, f"shoe-log={SHOE}", f"wager-log={wagers}")
    assert result.exit_code == 1
    found = _check(out).findings
    assert [(f.coup, f.category, f.severity) for f in found] == [(2, "record.rejected-row", "error")]
    assert found[0].message.startswith(f"{wagers}:3: ")
    assert run("check", out).exit_code == 1


def test_rows_of_another_table_are_listed_once_as_information(tmp_path):
    other = "".join(f"BAC-09,S0001,{n},2,,P,100,L,100,,\n" for n in (2, 3, 4))
    wagers = _write(tmp_path, "w.csv", WAGERS + "BAC-07,S0001,2,2,,P,100,L,100,,\n" + other)
    result, out = _import(tmp_path, f"shoe-log={SHOE}", f"wager-log={wagers}")
    assert result.exit_code == 0
    found = _check(out).findings
    assert [(f.coup, f.severity, f.message) for f in found] == [
        (None, "info", f"{wagers}: 3 rows of table 'BAC-09', not this transcript's, not imported (lines 3, 4, 5)")]
    assert run("check", out).exit_code == 0


def test_rejected_rows_are_reported_in_the_order_of_their_lines(tmp_path):
    """Lines 9 and 10 and 100: sorted as numbers, not as text (10 before 9), each at its coup."""
    rows = [WAGERS] + [f"BAC-07,,{2 + i // 5},{2 + i % 5},,P,100,L,100,,\n" for i in range(100)]
    for n in (9, 10, 100):
        rows[n - 1] = rows[n - 1].replace(",P,", ",Q,")
    wagers = _write(tmp_path, "w.csv", "".join(rows))
    result, out = _import(tmp_path, f"shoe-log={SHOE}", f"wager-log={wagers}")
    header = json.loads(out.read_text().splitlines()[0])
    assert [r["line"] for r in header["rejected_rows"]] == [9, 10, 100]
    assert all(r["cells"] for r in header["rejected_rows"])
    found = [f for f in _check(out).findings if f.category == "record.rejected-row"]
    assert [f.message.partition(": ")[0].rpartition(":")[2] for f in found] == ["9", "10", "100"]
    assert [f.coup for f in found] == [3, 3, 21]


@settings(max_examples=60, deadline=None)
@given(st.text("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-", min_size=2, max_size=8), st.data())
def test_an_id_a_character_away_is_a_lookalike_a_digit_for_a_digit_is_another_table(table, data):
    i = data.draw(st.integers(0, len(table) - 1))
    assert lookalike(table[:i] + table[i + 1:], table)  # a character less
    confusable = {"0": "O", "O": "0", "1": "I", "I": "1", "5": "S", "8": "B"}
    if table[i] in confusable:
        assert lookalike(table[:i] + confusable[table[i]] + table[i + 1:], table)
    if table[i].isdigit():
        other = str((int(table[i]) + 1) % 10)
        assert not lookalike(table[:i] + other + table[i + 1:], table)


def test_a_table_chosen_that_no_row_holds_stops_the_import_naming_the_tables_held(tmp_path):
    result, out = _import(tmp_path, f"shoe-log={SHOE}", extra=("--table", "BAC-7", "--jurisdiction", "us-nj"))
    assert result.exit_code == 2 and "no row of the logs is of table 'BAC-7'" in result.stderr
    assert "the logs hold table BAC-07" in result.stderr and not out.exists()


def test_an_import_without_a_jurisdiction_stops_at_once(tmp_path):
    result, out = _import(tmp_path, f"shoe-log={SHOE}", extra=("--decks", "2"))
    assert result.exit_code == 2 and "--jurisdiction" in result.stderr and not out.exists()


# ------------------------------------------------------------------ currency


def test_amounts_in_another_currency_than_the_tables_are_refused_never_read_as_its_own(tmp_path):
    header = json.loads((LOGS / "header.json").read_text())
    header["table"]["currency"] = "USD"
    head = _write(tmp_path, "h.json", json.dumps(header))
    wagers = _write(tmp_path, "w.csv", WAGERS + "BAC-07,S0001,2,2,,P,$100,L,$100,,\n"
                                                "BAC-07,S0001,2,3,,P,€100,L,€100,,\n"
                                                "BAC-07,S0001,2,4,,P,100 JPY,L,100 JPY,,\n"
                                                "BAC-07,S0001,2,5,,P,¥100,L,¥100,,\n")
    result, out = _import(tmp_path, f"shoe-log={SHOE}", f"wager-log={wagers}", extra=("--header", head))
    assert result.exit_code == 1
    assert "'€100' is written in € (EUR), not in USD, the table's currency" in result.stderr
    assert "'100 JPY' is written in JPY (JPY), not in USD" in result.stderr
    assert f"{wagers}: 4 rows read, 1 imported, 3 rejected" in result.stderr
    found = _check(out).findings
    assert [(f.coup, f.severity) for f in found] == [(2, "error")] * 3


def test_a_log_whose_amounts_name_two_currencies_is_refused_without_a_table_currency(tmp_path):
    wagers = _write(tmp_path, "w.csv", WAGERS + "BAC-07,S0001,2,2,,P,€100,L,€100,,\n"
                                                "BAC-07,S0001,2,3,,P,$100,L,$100,,\n")
    result, _ = _import(tmp_path, f"shoe-log={SHOE}", f"wager-log={wagers}")
    assert result.exit_code == 1 and "the log's amounts in € (first at" in result.stderr
