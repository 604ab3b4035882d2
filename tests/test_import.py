"""``baccarat-audit import``: what casinos' recorders log, turned into transcripts through YAML mappings.

The fixtures are a night at one table (``fixtures/import/README.md``) as a
card-reading shoe, a hand log and a table system logged it: clean, with
third-card errors, in dealing order only, and with bad, ambiguous and
duplicated rows.  Each is imported through its bundled mapping and checked.
A simulated shoe written out as the three logs must come back with the
findings of the transcript it was written from.
"""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from compliance.engine import Checker
from compliance.games.baccarat.analyze import standard_tableau
from compliance.games.baccarat.importing import legal_readings
from compliance.games.baccarat.simulate import Simulator, write_transcript
from compliance.report.notjudged import not_judged
from compliance.ruleset.loader import load_ruleset
from tests import builders, recorder_logs
from tests.reporting import run as run_command

ROOT = Path(__file__).resolve().parent.parent
LOGS = ROOT / "fixtures" / "import"
HEADER = ("--header", str(LOGS / "header.json"))
BROKEN = sorted((LOGS / "broken-mappings").glob("*.yaml"))


def run(*args):
    """The command; an import given neither a header nor a jurisdiction is of a table in New Jersey (an import
    names its jurisdiction: tests/test_import_nothing_lost.py)."""
    if args and args[0] == "import" and not {"--header", "--jurisdiction", "--list-mappings"} & set(map(str, args)):
        args = (*args, "--jurisdiction", "us-nj")
    return run_command(*args)


def imported(tmp_path: Path, *logs: str, name: str = "night.jsonl", extra: tuple = HEADER):
    out = tmp_path / name
    result = run("import", *logs, *extra, "-o", out)
    return result, out


def check(path: Path):
    return Checker().check_file(path, path.name)


def coups(path: Path) -> dict[int, dict]:
    lines = path.read_text().splitlines()[1:]
    return {c["coup"]: c for c in map(json.loads, lines)}


def fixture(name: str) -> str:
    return str(LOGS / name)


# ------------------------------------------------------------------ the bundled mappings


def test_the_bundled_mappings_are_listed_with_what_each_log_records():
    out = run("import", "--list-mappings").stdout.splitlines()
    assert [line.split()[0] for line in out] == ["hand-log", "shoe-log", "wager-log"]
    assert "records cards, coups, faces, hands, order" in out[1]
    assert "records settlements, stakes" in out[2]


def test_a_cards_only_shoe_log_of_compliant_play_gives_no_finding_and_names_the_rules_it_cannot_judge(tmp_path):
    result, out = imported(tmp_path, f"shoe-log={fixture('shoe-log/clean.csv')}")
    assert result.exit_code == 0
    assert result.stderr.splitlines()[-2:] == [
        f"{fixture('shoe-log/clean.csv')}: 267 rows read, 267 imported, 0 rejected",
        f"wrote {out}: 50 coups of table BAC-07; recorded: cards, hands, order, coups"]
    checked = check(out)
    assert checked.findings == []
    why = {nj.rule.id: nj.reason for nj in not_judged(checked)}
    assert why["BAC-CALLS"] == "calls not recorded" and why["BAC-RESULT"] == "results not recorded"
    assert why["BAC-SETTLE-AMOUNT"] == "wagers and settlements not recorded"
    assert {"BAC-DEAL-ORDER", "BAC-DRAW-BANKER-ILLEGAL", "BAC-SHOE-INTEGRITY", "BAC-RECORD-DUPLICATE"}.isdisjoint(why)
    assert coups(out)[1]["staff"] == {"dealer": "D-114"} and coups(out)[26]["staff"] == {"dealer": "D-207"}


THIRD_CARD_ERRORS = {
    (5, "third-card.banker.illegal"), (6, "third-card.banker.illegal"), (11, "third-card.player.missing"),
    (12, "third-card.banker.illegal"), (13, "third-card.banker.illegal"), (14, "third-card.player.illegal"),
    (19, "third-card.player.illegal"), (20, "third-card.player.illegal"), (24, "third-card.player.missing"),
    (25, "third-card.player.illegal"), (29, "third-card.banker.illegal"), (31, "third-card.player.illegal"),
    (32, "third-card.player.missing"), (33, "third-card.banker.illegal"), (34, "third-card.player.illegal"),
    (35, "third-card.banker.illegal"), (39, "third-card.banker.missing"), (40, "third-card.player.missing"),
    (44, "third-card.player.illegal"), (49, "third-card.banker.illegal"), (50, "third-card.banker.illegal"),
}


def test_the_same_shoe_log_with_third_card_errors_gives_exactly_those_findings(tmp_path):
    _, out = imported(tmp_path, f"shoe-log={fixture('shoe-log/third-card-errors.csv')}")
    assert {(f.coup, f.category) for f in check(out).findings} == THIRD_CARD_ERRORS


def test_a_shoe_log_of_the_order_only_is_settled_by_the_tableau_where_one_reading_is_legal(tmp_path):
    result, out = imported(tmp_path, f"shoe-log={fixture('shoe-log/order-only.csv')}")
    assert result.exit_code == 0 and "recorded: cards, coups; 33 hold less" in result.stderr
    read = coups(out)
    settled = [n for n, c in read.items() if "settled" in c.get("x-import", {})]
    unsettled = [n for n, c in read.items() if "cards_in_order" in c]
    first = read[settled[0]]
    assert first["x-import"]["settled"][0].startswith("the additional cards by the tableau, the only legal reading: ")
    assert "hands" in first["recorded"] and "order" not in first["recorded"]  # the deal's order is assumed
    # every coup an error made illegal cannot be read one way: its cards are kept in order, never guessed into hands
    assert unsettled == [5, 6, 12, 13, 14, 19, 20, 25, 29, 31, 33, 34, 35, 40, 44, 49, 50]
    assert "recorded" not in read[5] and read[5]["events"] == []  # the cards, in order; not their hands
    assert read[5]["cards_in_order"] == ["4H", "8S", "6H", "6C", "AH", "7S"]
    assert "no reading of the additional cards complies with the tableau" in read[5]["x-import"]["notes"][0]
    assert len(settled) == 20
    # four cards read one way only: a hand that stood when it had to draw is still seen; a coup no reading makes
    # legal is a breach of the drawing rules whichever hand drew: every error of the log is found
    found = {(f.coup, f.category) for f in check(out).findings}
    assert found == {(11, "third-card.player.missing"), (24, "third-card.player.missing"),
                     (32, "third-card.player.missing"), (39, "third-card.banker.missing")} | {
        (n, "third-card.no-legal-reading") for n in unsettled}
    assert {n for n, _ in found} == {n for n, _ in THIRD_CARD_ERRORS}


def test_a_fifth_seven_in_a_shoe_log_of_the_order_only_does_not_fit_its_one_deck_shoe(tmp_path):
    """A one-deck shoe logged in dealing order only.  Coup 1 reads one legal way (its hands are settled by the
    tableau); in coup 2 the shoe did not read a card (??), so where its fifth card went is not known and its cards
    are kept in order (`cards_in_order`).  They are the shoe's cards all the same: its 7? is a fifth seven."""
    header = json.loads((LOGS / "header.json").read_text())
    header["shoes"] = [{"id": "S0001", "decks": 1}]
    (tmp_path / "header.json").write_text(json.dumps(header))
    rows = [["BAC-07", "S0001", 1, n, card] for n, card in enumerate(["7S", "7H", "7D", "7C", "KS"], 1)] + [
        ["BAC-07", "S0001", 2, n, card] for n, card in enumerate(["2S", "??", "3S", "7?", "4D"], 1)]
    (tmp_path / "shoe.csv").write_text("Table,Shoe,Coup,Seq,Card\n" + "".join(
        ",".join(map(str, row)) + "\n" for row in rows))
    result, out = imported(tmp_path, f"shoe-log={tmp_path / 'shoe.csv'}", extra=(
        "--header", str(tmp_path / "header.json")))
    assert result.exit_code == 0, result.stderr
    read = coups(out)
    assert "cards_in_order" not in read[1] and read[2]["cards_in_order"] == ["2S", "??", "3S", "7?", "4D"]
    (finding,) = check(out).findings
    assert (finding.coup, finding.rule, finding.event) == (2, "BAC-SHOE-INTEGRITY", None)
    assert finding.message == ("7? is card 5 of rank 7 (7s) in shoe 'S0001', which holds 4 (1 deck), counted "
                               "against every card it may be")


def test_whether_five_cards_split_three_and_two_or_two_and_three_depends_on_the_tableau():
    tableau = standard_tableau()
    # Player 2+2 = 4 draws; Banker 4+K = 4 stands on a Player's third card of 0, draws on a 5
    assert legal_readings(["2H", "4S", "2D", "KC", "TD"], tableau) == [
        ("player", "banker", "player", "banker", "player")]
    assert legal_readings(["2H", "4S", "2D", "KC", "5D"], tableau) == []  # 3+2 and 2+3 both break the tableau
    # Player 6 stands, Banker 4 draws: the fifth card is the Banker's
    assert legal_readings(["3H", "4S", "3D", "KC", "5D"], tableau) == [
        ("player", "banker", "player", "banker", "banker")]
    assert legal_readings(["2H", "4S", "2D", "??", "TD"], tableau) is None  # a card not read: cannot tell


@settings(max_examples=200, deadline=None)
@given(st.permutations([r + s for r in "A23456789TJQK" for s in "SH"]))
def test_compliant_play_read_in_dealing_order_only_settles_to_the_hands_dealt(cards):
    """Every coup dealt by the rules has exactly one legal reading of its order, and it is the deal itself."""
    shoe = iter(cards)
    player, banker = builders.play(shoe)
    order = builders.card_events(player, banker)
    assert legal_readings([e["card"] for e in order], standard_tableau()) == [tuple(e["to"] for e in order)]


# ------------------------------------------------------------------ bad, ambiguous and duplicated rows


def test_bad_and_duplicated_rows_of_a_shoe_log_are_reported_at_their_line_and_lose_nothing_else(tmp_path):
    log = fixture("shoe-log/faults.csv")
    result, out = imported(tmp_path, f"shoe-log={log}")
    assert result.exit_code == 1  # rows were rejected; the transcript is written all the same
    said = [line.removeprefix("baccarat-audit: ") for line in result.stderr.splitlines()]
    assert said[:3] == [
        f"{log}:50: `card` (column 'Card'): 'ZZ' is not a card: expected rank then suit (7H), a rank (7, K) or a "
        "value (0 to 9), or a card not read ('', '?', '??', 'XX', 'ERR')",
        f"{log}:83: the same row captured twice (it repeats {log}:82): not imported",
        f"note: {log}:213: `at` (column 'Time'): 'yesterday' is not a time in the format 'iso': written as recorded "
        "(the check reports it)"]
    assert f"{log}: 263 rows read, 260 imported, 2 rejected, 1 of other tables" in said
    read = coups(out)
    assert read[8]["recorded"] == ["coups"] and [r["row"] for r in read[8]["x-rows"]] == [
        f"{log}:48", f"{log}:49", f"{log}:51"]  # coup 8's good rows, set aside, not lost
    assert read[8]["staff"] == {"dealer": "D-114"}
    found = {(f.coup, f.rule) for f in check(out).findings}
    assert found == {(22, "BAC-RECORD-DUPLICATE"), (22, "BAC-SHOE-INTEGRITY"), (24, "BAC-SHOE-INTEGRITY"),
                     (25, "BAC-SHOE-INTEGRITY"), (27, "BAC-SHOE-INTEGRITY"), (31, "BAC-RECORD-COUP-NUMBER"),
                     (40, "BAC-RECORD-TIMESTAMP"), (45, "BAC-RECORD-TIMESTAMP"), (None, "BAC-RECORD-REJECTED-ROW"),
                     (8, "BAC-RECORD-REJECTED-ROW"), (15, "BAC-RECORD-REJECTED-ROW")}
    # every row the import could not use is in the transcript, and the check reports each at its coup (coup 8's
    # gap is its rejected row, not a second finding): a row lost is an error, a row captured twice a warning, the
    # other table's row information
    rejected = [f for f in check(out).findings if f.rule == "BAC-RECORD-REJECTED-ROW"]
    assert [(f.coup, f.severity, f.message.partition(": the import could not use this row: ")[::2])
            for f in rejected] == [
        (None, "info", (f"{log}: 1 row of table 'BAC-09', not this transcript's, not imported (line 177)", "")),
        (8, "error", (f"{log}:50", said[0].partition(": ")[2])), (15, "warning", (f"{log}:83", said[1].partition(": ")[2]))]
    values = {nj.rule.id: nj for nj in not_judged(check(out))}["BAC-DRAW-PLAYER-MISSING"]
    assert values.missing == {"hands": 1, "values": 2}  # coup 8 set aside; coup 12's card not read


def test_bad_and_duplicated_rows_of_a_hand_log(tmp_path):
    log = fixture("hand-log/faults.csv")
    result, out = imported(tmp_path, f"hand-log={log}")
    assert result.exit_code == 1
    said = [line.removeprefix("baccarat-audit: ") for line in result.stderr.splitlines()]
    assert said[:3] == [
        f"{log}:10: `winner` (column 'Winner'): 'Q' is neither a spelling of the mapping (P, B, T, PLAYER, BANKER, "
        "TIE, VOID, V) nor one of the words player, banker, tie, void",
        f"{log}:18: the same row captured twice (it repeats {log}:17): not imported",
        f"note: coup 9: hand-log ({log}): its row {log}:10 was rejected; the row is kept in the header's "
        "rejected_rows, and nothing of this log is judged in the coup"]
    assert f"{log}: 52 rows read, 50 imported, 2 rejected" in said
    read = coups(out)
    assert read[9]["events"] == [] and read[9]["recorded"] == ["coups"]  # known to exist, nothing of it judged
    assert len(read[38]["x-rows"]) == 2
    shoe3 = [e["card"] for c in read.values() if c["shoe"] == "S0003" for e in c["events"] if e["type"] == "card"]
    assert shoe3 and all(code.endswith("?") for code in shoe3)  # values only: the suits not recorded
    checked = check(out)
    assert [(f.coup, f.rule, f.severity) for f in checked.findings] == [
        (9, "BAC-RECORD-REJECTED-ROW", "error"), (16, "BAC-RECORD-REJECTED-ROW", "warning"),
        (38, "BAC-RECORD-DUPLICATE-ROW", "error")]
    assert checked.findings[2].message == (
        f"hand-log: coup 38 of shoe 'S0003' is recorded twice, with different values (winner banker and tie): "
        f"neither is judged ({log}:40-41)")
    missing = {nj.rule.id: nj.missing for nj in not_judged(checked)}
    assert missing["BAC-RESULT"] == {"hands": 2, "values": 3, "results": 2}  # coups 9 and 38; coup 27 has a card unread
    assert missing["BAC-DEAL-ORDER"] == {"hands": 2, "order": 50}  # a hand log does not give the dealing order


def test_three_logs_of_a_night_merged_by_shoe_and_coup(tmp_path):
    logs = [f"shoe-log={fixture('shoe-log/clean.csv')}", f"hand-log={fixture('hand-log/clean.csv')}",
            f"wager-log={fixture('wager-log/clean.csv')}"]
    result, out = imported(tmp_path, *logs)
    assert result.exit_code == 0
    assert "recorded: cards, hands, order, results, stakes, settlements, coups" in result.stderr
    checked = check(out)
    assert checked.findings == []
    judged_here = {nj.rule.id for nj in not_judged(checked)}
    assert judged_here == {"BAC-CALLS", "BAC-WAGER-LATE", "NJ-RECIPIENT", "NJ-PLAYER-HAND-FIRST", "NJ-FACE-DOWN",
                           "BAC-COLLUSION"}  # the wager log names seats, not the patrons at them
    first = coups(out)[2]
    assert [e["type"] for e in first["events"]][:3] == ["wager", "wager", "wager"]
    shoe, hand, wager = first["x-source"]
    assert shoe.startswith(fixture("shoe-log/clean.csv") + ":") and "-" in shoe.rpartition(":")[2]
    assert (hand, wager) == (f"{fixture('hand-log/clean.csv')}:3", f"{fixture('wager-log/clean.csv')}:5-8")


def test_the_faulty_logs_merged_are_judged_on_what_they_show(tmp_path):
    logs = [f"shoe-log={fixture('shoe-log/faults.csv')}", f"hand-log={fixture('hand-log/faults.csv')}",
            f"wager-log={fixture('wager-log/faults.csv')}"]
    result, out = imported(tmp_path, *logs)
    assert result.exit_code == 1
    log = fixture("wager-log/faults.csv")
    assert (f"note: coup 26: wager-log ({log}): seat 2 spot player: recorded twice with different values ({log}:113, "
            f"{log}:114); those rows are kept under x-rows and not judged, nor what depends on every row of the coup "
            "(its wagers' totals); the log's other rows of the coup are judged") in result.stderr
    assert ("note: coup 22: the shoe log (Player QD 6H; Banker AS 9H 3S) and the hand log (Player 5D AC; Banker 3H JS "
            "4C) disagree on the cards: they are not judged") in result.stderr
    read = coups(out)
    assert "events" in read[30] and "order" not in read[30]["recorded"]  # lost by the shoe log, held by the hand log
    checked = check(out)
    assert {(f.coup, f.rule) for f in checked.findings} == {
        (34, "BAC-SETTLE-MISSING"), (40, "BAC-RECORD-TIMESTAMP"), (45, "BAC-RECORD-TIMESTAMP"),
        (None, "BAC-RECORD-REJECTED-ROW"), (22, "BAC-RECORD-LOGS-DISAGREE"), (26, "BAC-RECORD-DUPLICATE-ROW"),
        (26, "BAC-SETTLE-AMOUNT"), (38, "BAC-RECORD-DUPLICATE-ROW")} | {
        (n, "BAC-RECORD-REJECTED-ROW") for n in (8, 9, 10, 15, 16, 18)}  # each rejected row at its coup
    # coup 26: only the two rows of seat 2's Player wager that clash are set aside; the coup's other wagers are
    # judged (seat 3 overpaid beside them), and what needs every wager of the coup (its totals) is not
    assert [r["row"] for r in read[26]["x-rows"]] == [f"{log}:113", f"{log}:114"]
    assert [(e.get("seat"), e.get("patron")) for e in read[26]["events"] if e["type"] == "wager"] == [
        (3, None), (4, None), (5, None), (6, None), (1, None), (None, "P-0007")]
    assert read[26]["record_faults"][0]["key"] == {"seat": 2, "spot": "player"}
    assert [f.message for f in checked.findings if f.rule == "BAC-SETTLE-AMOUNT"] == [
        "seat 3 player wager of 1,000 should be win 1,000 (Player pays 1 to 1); it was settled win 1,100"]
    differential = {nj.rule.id: nj for nj in not_judged(checked)}["BAC-TABLE-DIFFERENTIAL"]
    assert differential.missing == {"stakes": 2}  # coup 26's doubtful wager, coup 10's rejected row


def test_logs_of_several_tables_import_one_named_table(tmp_path):
    log = fixture("shoe-log/faults.csv")
    result = run("import", f"shoe-log={log}", "-o", tmp_path / "x.jsonl")
    assert result.exit_code == 2
    assert result.stderr == ("baccarat-audit: the logs hold several tables (BAC-07, BAC-09): choose one with --table\n")
    result, out = imported(tmp_path, f"shoe-log={log}", extra=("--table", "BAC-09", "--decks", "2"))
    assert [c["coup"] for c in coups(out).values()] == [33]


# ------------------------------------------------------------------ a simulated shoe, written out and read back


@pytest.mark.parametrize("jurisdiction,seed", [("us-nj", 3), ("au-nsw", 11), ("nz", 5)])
def test_a_simulated_shoe_written_as_three_logs_gives_the_findings_of_its_transcript(tmp_path, jurisdiction, seed):
    categories = ["third-card.player.illegal", "third-card.player.missing", "third-card.banker.illegal",
                  "third-card.banker.missing", "deal.initial-order", "deal.extra-card", "result.wrong",
                  "settlement.wrong-amount", "settlement.missing", "shoe.integrity", "wager.limits"]
    sim = Simulator(load_ruleset(jurisdiction), coups=180, seed=seed, inject={c: 0.03 for c in categories})
    buf = io.BytesIO()
    write_transcript(sim, buf, "json")
    original = json.loads(buf.getvalue())
    (tmp_path / "original.json").write_bytes(buf.getvalue())
    header = {k: v for k, v in original.items() if k != "coups"}
    (tmp_path / "header.json").write_text(json.dumps(header))
    (tmp_path / "shoe.csv").write_text(recorder_logs.shoe_log(original))
    (tmp_path / "hands.csv").write_text(recorder_logs.hand_log(original))
    (tmp_path / "wagers.csv").write_text(recorder_logs.wager_log(original))
    result, out = imported(tmp_path, f"shoe-log={tmp_path / 'shoe.csv'}", f"hand-log={tmp_path / 'hands.csv'}",
                           f"wager-log={tmp_path / 'wagers.csv'}", extra=("--header", str(tmp_path / "header.json")))
    assert result.exit_code == 0
    want = check(tmp_path / "original.json").findings
    got = check(out).findings
    assert len(sim.injected) > 10
    assert {(f.rule, f.coup, f.message) for f in got} == {(f.rule, f.coup, f.message) for f in want}


# ------------------------------------------------------------------ mappings and logs that cannot be read


@pytest.mark.parametrize("mapping", BROKEN, ids=[p.stem for p in BROKEN])
def test_a_broken_mapping_is_one_message_at_its_place(mapping: Path, tmp_path):
    expect = mapping.read_text().splitlines()[0].removeprefix("# expect: ")
    place, _, words = expect.partition(": ")
    result = run("import", f"{mapping}=fixtures/import/shoe-log/clean.csv", "-o", tmp_path / "x.jsonl")
    assert result.exit_code == 2 and not (tmp_path / "x.jsonl").exists()
    lines = result.stderr.splitlines()
    assert len(lines) == 1
    assert lines[0].startswith(f"baccarat-audit: {mapping}:{place}: {words}")


def test_a_mapping_names_a_column_the_log_does_not_have(tmp_path):
    mapping = tmp_path / "m.yaml"
    mapping.write_text("format: baccarat-audit-mapping\nversion: 1\nname: m\ntitle: t\nrows: cards\n"
                       "fields: {shoe: Shoe, coup: Round, card: Card}\n")
    log = fixture("shoe-log/clean.csv")
    result = run("import", f"{mapping}={log}", "-o", tmp_path / "x.jsonl")
    assert result.exit_code == 2
    assert result.stderr == (f"baccarat-audit: {log}:1:1: no column 'Round' in the header row (the mapping {mapping} "
                             f"maps `coup` to it, at {mapping}:6:22); the columns are: Table, Shoe, Coup, Seq, Card, "
                             "Hand, Time, Dealer\n")


def test_a_log_without_a_header_row_names_its_columns_by_number(tmp_path):
    mapping = tmp_path / "bare.yaml"
    mapping.write_text("format: baccarat-audit-mapping\nversion: 1\nname: bare\ntitle: t\nrows: coups\n"
                       "csv: {header: false, delimiter: ';'}\n"
                       "fields: {shoe: 1, coup: 2, player: 3, banker: 4, player_total: 5, banker_total: 6}\n")
    (tmp_path / "hands.txt").write_text("S1;1;4H TD 3S;KS 6C;7;6\nS1;2;9H 9C;2D 3D 8C;8;3\n")
    result, out = imported(tmp_path, f"{mapping}={tmp_path / 'hands.txt'}", extra=("--table", "T", "--jurisdiction",
                                                                                    "us-nj"))
    assert result.exit_code == 0
    # coup 2: the Player's 9 and 9 are a natural 8, yet the Banker's Hand took 8C
    assert {(f.coup, f.rule) for f in check(out).findings} == {(2, "BAC-DRAW-BANKER-ILLEGAL")}


def test_coups_numbered_in_each_shoe_keep_their_shoe_in_the_transcripts_number(tmp_path):
    mapping = tmp_path / "per-shoe.yaml"
    mapping.write_text("format: baccarat-audit-mapping\nversion: 1\nname: per-shoe\ntitle: t\nrows: coups\n"
                       "coup_numbers: shoe\nfields: {shoe: Shoe, coup: Hand, player: P, banker: B}\n")
    (tmp_path / "h.csv").write_text("Shoe,Hand,P,B\nA,1,4H TD 3S,KS 6C\nA,2,9H 9C,2D 3D\nB,1,9S 9D,2C 3C\n")
    result, out = imported(tmp_path, f"{mapping}={tmp_path / 'h.csv'}", extra=("--table", "T"))
    assert result.exit_code == 0 and list(coups(out)) == [1001, 1002, 2001]


def test_the_transcript_written_never_overwrites_a_log_it_reads(tmp_path):
    log = tmp_path / "shoe.csv"
    log.write_text((LOGS / "shoe-log" / "clean.csv").read_text())
    before = log.read_bytes()
    result = run("import", f"shoe-log={log}", "-o", log)
    assert result.exit_code == 2 and log.read_bytes() == before
    assert result.stderr == f"baccarat-audit: {log}: is a log this run reads: an output never overwrites what is checked\n"


def test_what_a_log_holds_is_quoted_in_messages_never_obeyed_by_the_terminal(tmp_path):
    log = tmp_path / "shoe.csv"
    log.write_text("Shoe,Coup,Card\nS1,1,\x1b[2J4H\n")
    result = run("import", f"shoe-log={log}", "--table", "T", "-o", tmp_path / "t.jsonl")
    assert result.exit_code == 1
    assert "\x1b" not in result.stderr and "'\\x1b[2J4H' is not a card" in result.stderr


# ------------------------------------------------------------------ every row accounted for, in the check's report


def _write(tmp_path: Path, name: str, text: str) -> str:
    (tmp_path / name).write_text(text)
    return str(tmp_path / name)


WAGERS = "Table,Shoe,Coup,Seat,Patron,Spot,Amount,Outcome,Payout,Commission,Time\n"


def test_rows_of_a_near_identical_table_id_are_rows_of_this_table_lost_an_error_naming_both(tmp_path):
    # BAC-O7 (letter O): a mislabelled table id; its overpayment must not vanish from the check
    wagers = _write(tmp_path, "w.csv", WAGERS + "BAC-07,S0001,2,2,,P,100,L,100,,\nBAC-O7,S0001,2,3,,B,5000,W,9000,,\n")
    result, out = imported(tmp_path, f"shoe-log={fixture('shoe-log/clean.csv')}", f"wager-log={wagers}")
    assert result.exit_code == 1 and f"{wagers}: 2 rows read, 1 imported, 1 rejected" in result.stderr
    header = json.loads(out.read_text().splitlines()[0])
    assert header["rejected_rows"] == [{"log": wagers, "line": 3, "coup": 2, "reason": "a row of table 'BAC-O7', "
                                        "which is not 'BAC-07', the table imported, but differs from it as a "
                                        "mislabelled id does (a confusable character, one character more or less): "
                                        "not imported", "cells": ["BAC-O7", "S0001", "2", "3", "", "B", "5000", "W",
                                                                  "9000", "", ""]}]
    checked = check(out)
    assert [(f.rule, f.severity, f.coup) for f in checked.findings] == [("BAC-RECORD-REJECTED-ROW", "error", 2)]
    assert checked.findings[0].message.startswith(f"{wagers}:3: the import could not use this row: a row of table")
    summary = run("check", out).stdout.splitlines()[-1]
    assert "1 row of the recorders' logs not imported (record.rejected-row)" in summary


def test_a_wager_naming_no_bettor_is_rejected_at_its_line_not_left_to_make_its_coup_unreadable(tmp_path):
    wagers = _write(tmp_path, "w.csv", WAGERS + "BAC-07,S0001,2,,,P,100,L,100,,\nBAC-07,S0001,2,3,,B,100,W,95,,\n")
    result, out = imported(tmp_path, f"shoe-log={fixture('shoe-log/clean.csv')}", f"wager-log={wagers}")
    assert result.exit_code == 1
    assert (f"baccarat-audit: {wagers}:2: the wager names neither a seat nor a patron: whose it is is not known"
            in result.stderr.splitlines())
    checked = check(out)
    assert checked.unreadable == 0  # coup 2 is read: its wager log's rows set aside, its cards judged
    assert [f.rule for f in checked.findings] == ["BAC-RECORD-REJECTED-ROW"]
    assert "stakes" not in coups(out)[2]["recorded"]


def test_the_table_is_never_taken_from_a_rejected_row(tmp_path):
    log = _write(tmp_path, "s.csv", "Table,Shoe,Coup,Card\nBAC-09,S1,1,ZZ\nBAC-07,S1,1,4H\nBAC-07,S1,1,KS\n")
    result, out = imported(tmp_path, f"shoe-log={log}", extra=("--decks", "1"))
    assert result.exit_code == 1 and "wrote" in result.stderr  # one table, BAC-07: not "several tables"
    assert json.loads(out.read_text().splitlines()[0])["table"]["id"] == "BAC-07"


# ------------------------------------------------------------------ the recorder's own faults are findings


SHOE = "Table,Shoe,Coup,Seq,Card,Hand\n"


def test_a_missing_first_card_is_a_gap_in_the_sequence_never_an_initial_order_error_against_the_dealer(tmp_path):
    log = _write(tmp_path, "s.csv", SHOE + "T,S1,1,1,4H,P\nT,S1,1,2,KS,B\nT,S1,1,3,2D,P\nT,S1,1,4,3C,B\nT,S1,1,5,TD,B\n"
                 "T,S1,2,2,KD,B\nT,S1,2,3,9H,P\nT,S1,2,4,QC,B\n")  # coup 2's first card (seq 1) not logged
    result, out = imported(tmp_path, f"shoe-log={log}", extra=("--decks", "1", "--jurisdiction", "us-nj"))
    assert result.exit_code == 0
    found = check(out).findings
    assert [(f.coup, f.rule, f.severity) for f in found] == [(2, "BAC-RECORD-CARD-SEQUENCE", "error")]
    assert found[0].message == (f"shoe-log: the card sequence of coup 2 of shoe 'S1' starts at 2: no row for sequence 1 "
                                f"(a card row missing, or a number the shoe skipped): its cards are not judged ({log}:7)")


def test_a_sequence_number_skipped_without_a_row_missing_is_a_gap_too(tmp_path):
    log = _write(tmp_path, "s.csv", SHOE + "T,S1,1,1,4H,P\nT,S1,1,2,KS,B\nT,S1,1,4,2D,P\nT,S1,1,5,3C,B\nT,S1,1,6,TD,P\n")
    _, out = imported(tmp_path, f"shoe-log={log}", extra=("--decks", "1", "--jurisdiction", "us-nj"))
    found = check(out).findings
    assert [(f.coup, f.rule) for f in found] == [(1, "BAC-RECORD-CARD-SEQUENCE")]
    assert "goes from 2 to 4: no row for sequence 3" in found[0].message and f"({log}:3-4)" in found[0].message


def test_a_hand_log_that_contradicts_every_coup_of_the_shoe_log_is_an_error_naming_both_rows(tmp_path):
    shoe = fixture("shoe-log/clean.csv")
    rows = (LOGS / "hand-log" / "clean.csv").read_text().splitlines()
    swapped = [rows[0]] + [",".join(c[:3] + [c[4], c[3]] + c[5:]) for c in (r.split(",") for r in rows[1:])]
    hands = _write(tmp_path, "h.csv", "\n".join(swapped) + "\n")  # the Player's and the Banker's cards swapped
    _, out = imported(tmp_path, f"shoe-log={shoe}", f"hand-log={hands}")
    found = check(out).findings
    disagree = [f for f in found if f.rule == "BAC-RECORD-LOGS-DISAGREE"]
    assert len(disagree) == 50 and all(f.severity == "error" for f in disagree)
    assert f"({shoe}:" in disagree[1].message and f", {hands}:3)" in disagree[1].message
    assert not [f for f in found if f.category.startswith("third-card")]  # not judged on either log's cards


def test_a_winner_the_hand_logs_own_cards_contradict_is_a_finding(tmp_path):
    mapping = _write(tmp_path, "m.yaml", "format: baccarat-audit-mapping\nversion: 1\nname: m\ntitle: t\nrows: coups\n"
                     "fields: {shoe: Shoe, coup: Coup, player: P, banker: B, winner: {column: W, values: {P: player, "
                     "B: banker, T: tie}}}\n")
    log = _write(tmp_path, "h.csv", "Shoe,Coup,P,B,W\nS1,1,4H TD 3S,KS 6C,P\nS1,2,9H 9C,2D 3D,B\n")
    _, out = imported(tmp_path, f"{mapping}={log}", extra=("--table", "T", "--jurisdiction", "us-nj"))
    found = check(out).findings
    assert [(f.coup, f.rule) for f in found] == [(2, "BAC-RECORD-CONTRADICTION")]
    assert found[0].message == (f"the hand log's row gives its winner banker, and its cards (Player 9H 9C; Banker 2D "
                                f"3D) give Player 8, Banker 5: Player wins ({log}:3)")


# ------------------------------------------------------------------ hostile logs, and the installation's own files


def test_a_skip_past_the_end_of_the_log_stops_at_its_end_with_one_message(tmp_path):
    mapping = _write(tmp_path, "m.yaml", "format: baccarat-audit-mapping\nversion: 1\nname: m\ntitle: t\nrows: cards\n"
                     "csv: {skip: 1000000000000}\nfields: {shoe: Shoe, coup: Coup, card: Card}\n")
    log = fixture("shoe-log/clean.csv")
    result = run("import", f"{mapping}={log}", "-o", tmp_path / "x.jsonl")
    assert result.exit_code == 2
    assert result.stderr == f"baccarat-audit: {log}: the log has 268 lines, and the mapping skips 1,000,000,000,000 (csv.skip)\n"


def test_import_never_writes_over_a_file_of_the_installation(tmp_path):
    from compliance.importing.mapping import bundled_dir

    bundled = bundled_dir() / "shoe-log.yaml"
    before = bundled.read_bytes()
    result = run("import", f"hand-log={fixture('hand-log/clean.csv')}", "-o", bundled)
    assert result.exit_code == 2 and bundled.read_bytes() == before
    assert result.stderr == (f"baccarat-audit: {bundled}: is a file of the installation (under compliance/): write the "
                             "transcript elsewhere\n")


# ------------------------------------------------------------------ the mapping language, on real exports' shapes


def test_a_studio_archive_of_both_hands_in_one_cell_is_split_by_the_counts_or_the_totals_never_guessed(tmp_path):
    mapping, log = fixture("studio-archive/mapping.yaml"), fixture("studio-archive/hands.csv")
    result, out = imported(tmp_path, f"{mapping}={log}", extra=("--jurisdiction", "au-nsw"))
    assert result.exit_code == 0
    read = coups(out)
    assert read[1001]["x-import"]["settled"] == ["the cell of both hands split by the totals: Player 4H TD 3S; Banker "
                                                 "KS 6C"]
    assert read[1006]["x-import"]["settled"] == ["the cell of both hands split by the card counts: Player 2S 3H 8D; "
                                                 "Banker 7C QH"]
    # 4H 3S KD 2C 5D: Player 7 and Banker 7 whether the Player holds two cards or three: reported, judged only by
    # whether either split complies with the tableau (one does: Player 7 stands, Banker 2 draws)
    assert read[1003]["recorded"] == ["results", "coups"] and "x-cards" not in read[1003]
    assert read[1003]["hands_unsplit"] == ["4H", "3S", "KD", "2C", "5D"]
    assert "splits more than one way by the totals" in read[1003]["x-import"]["notes"][0]
    # cards the camera missed: the coup kept, with its result; totals 0-0 without cards are a placeholder
    assert read[1005]["recorded"] == ["results", "coups"] and [e["type"] for e in read[1005]["events"]] == ["result"]
    assert read[1004]["events"] == [] and "placeholder" in read[1004]["x-import"]["notes"][0]
    # the date and the time of day in two columns, in Sydney's summer time
    assert read[1001]["events"][-1]["at"] == "2026-11-29T20:01:12+11:00"
    assert [(f.coup, f.rule) for f in check(out).findings] == [(1007, "BAC-RESULT")]  # Player 9 beats 7, said Banker


def test_a_table_systems_amounts_with_currency_signs_separators_and_cents_are_read_exactly(tmp_path):
    mapping, log = fixture("table-system/mapping.yaml"), fixture("table-system/wagers.csv")
    result, out = imported(tmp_path, f"shoe-log={fixture('shoe-log/clean.csv')}", f"{mapping}={log}")
    assert result.exit_code == 0
    settled = [e for e in coups(out)[2]["events"] if e["type"] in ("settle", "commission")]
    assert [(e["type"], e.get("seat"), e["amount"]) for e in settled] == [
        ("settle", 3, 4750), ("settle", 6, 50), ("commission", 6, 2.5), ("settle", 2, 100)]
    found = check(out).findings
    assert [(f.coup, f.rule) for f in found] == [(3, "BAC-SETTLE-AMOUNT")]  # 5000 cents is 50 of the 100 due
    assert "commission collected from seat 4 is 50; 100 is due" in found[0].message


def test_a_round_historys_pair_and_natural_flags_are_checked_against_its_cards(tmp_path):
    mapping, log = fixture("hand-flags/mapping.yaml"), fixture("hand-flags/hands.csv")
    result, out = imported(tmp_path, f"{mapping}={log}")
    assert result.exit_code == 0
    found = check(out).findings
    assert [(f.coup, f.rule) for f in found] == [(7, "BAC-RECORD-CONTRADICTION"), (8, "BAC-RECORD-CONTRADICTION")]
    assert found[0].message == (f"the hand log's row flags a Player pair, and its cards (Player 6D 4C 3H; Banker JS 3D "
                                f"8D) show no Player pair ({log}:8)")
    assert found[1].message == (f"the hand log's row flags no natural, and its cards (Player 5C 2H; Banker 9H KC) show "
                                f"a natural ({log}:9)")


def test_the_bundled_hand_log_reads_pair_and_natural_flags_where_the_log_has_them(tmp_path):
    log = tmp_path / "hands.csv"
    log.write_text("Shoe,Coup,Player,Banker,Winner,PlayerPair,BankerPair,Natural\n"
                   "S1,1,7H 7S,KD 9C,B,1,0,1\n"  # a Player pair, a Banker natural 9: flagged right
                   "S1,2,2D JH,8S TS,B,0,1,0\n")  # no Banker pair (8 and 10), and the Banker's 8 is a natural
    result, out = imported(tmp_path, f"hand-log={log}", extra=("--table", "BAC-07", "--jurisdiction", "us-nj"))
    assert result.exit_code == 0
    found = check(out).findings
    assert [(f.coup, f.rule) for f in found] == [(2, "BAC-RECORD-CONTRADICTION")]
    assert found[0].message.startswith("the hand log's row flags a Banker pair and no natural, and its cards (Player "
                                       "2D JH; Banker 8S TS) show no Banker pair and a natural")


def test_a_flag_the_record_cannot_settle_is_not_contradicted():
    from compliance.games.baccarat.importing import _flags_contradicted
    from compliance.transcript.logs import Row

    tableau = standard_tableau()
    row = Row("h.csv:2", {"player_pair": True, "banker_pair": False, "player_suited": True})
    # values only: two cards worth 0 may be a pair (two kings) or not (a ten and a queen); the suits not read
    assert _flags_contradicted(row, ("0?", "0?"), ("5?", "0?"), tableau) is None
    assert _flags_contradicted(row, ("5?", "0?"), ("5?", "0?"), tableau) == (
        "the hand log's row flags a Player pair, and its cards (Player 5? 0?; Banker 5? 0?) show no Player pair")
    assert "initial cards of one suit" in _flags_contradicted(row, ("5H", "5S"), ("5H", "6H"), tableau)


def test_two_systems_logs_merge_with_their_own_ids_and_numbering_and_a_late_wager_is_seen(tmp_path):
    """A second table system names the table "Baccarat 7", its shoes 1, 2, 3 and numbers hands from 1 in each
    shoe, while the shoe log numbers coups through the night: its mapping renames the ids (`values`, `template`)
    and the coups are matched shoe by shoe.  It logs when each wager was placed: put among the cards by time, the
    wager placed after coup 12's first card is late."""
    mapping, log = fixture("bet-system/mapping.yaml"), fixture("bet-system/bets.csv")
    logs = [f"shoe-log={fixture('shoe-log/clean.csv')}", f"hand-log={fixture('hand-log/clean.csv')}"]
    result, out = imported(tmp_path, *logs, f"{mapping}={log}")
    assert result.exit_code == 0 and f"{log}: 223 rows read, 223 imported, 0 rejected" in result.stderr
    assert "recorded: cards, hands, order, results, wagers, stakes, settlements, coups" in result.stderr
    _, same = imported(tmp_path, *logs, f"wager-log={fixture('wager-log/clean.csv')}", name="same.jsonl")

    def played(c):  # the coup's events but the wagers' times and their place among the cards
        events = [{k: v for k, v in e.items() if not (k == "at" and e["type"] in ("wager", "settle"))}
                  for e in c["events"]]
        return c["shoe"], sorted(map(json.dumps, events))

    two, one = coups(out), coups(same)
    assert two.keys() == one.keys() and all(played(two[n]) == played(one[n]) for n in one)
    twelve = [(e["type"], e.get("seat")) for e in two[12]["events"]]
    assert twelve[:5] == [("wager", 5), ("wager", 4), ("card", None), ("card", None), ("wager", 2)]
    assert [(f.coup, f.rule, f.message) for f in check(out).findings] == [
        (12, "BAC-WAGER-LATE", "seat 2 banker wager placed 1,000 after the first card")]
    assert "BAC-WAGER-LATE" not in {nj.rule.id for nj in not_judged(check(out))}


def test_coups_numbered_in_each_shoe_merge_only_with_a_log_that_numbers_every_coup_of_that_shoe(tmp_path):
    mapping = fixture("bet-system/mapping.yaml")
    shoe = tmp_path / "shoe.csv"
    shoe.write_text("".join(line for line in (LOGS / "shoe-log" / "clean.csv").open()
                            if not line.startswith("BAC-07,S0003,")))
    result, out = imported(tmp_path, f"shoe-log={shoe}", f"{mapping}={fixture('bet-system/bets.csv')}")
    assert result.exit_code == 1  # shoe S0003's wagers: no log numbered through the night holds the shoe
    assert ("coup 1 of shoe 'S0003': no log numbered through the night holds that shoe, so the coup's number there "
            "is not known: not imported") in result.stderr
    assert {c["shoe"] for c in coups(out).values()} == {"S0001", "S0002"}
    hands = tmp_path / "hands.csv"
    hands.write_text("Coup,Player,Banker\n1,QD KH 4H,3D JS 7C\n")
    nameless = tmp_path / "nameless.yaml"
    nameless.write_text("format: baccarat-audit-mapping\nversion: 1\nname: n\ntitle: t\nrows: coups\nfields:\n"
                        "  shoe: {column: Shoe, optional: true}\n  coup: Coup\n  player: Player\n  banker: Banker\n")
    result = run("import", f"{nameless}={hands}", f"{mapping}={fixture('bet-system/bets.csv')}", "-o",
                 tmp_path / "x.jsonl")
    assert result.exit_code == 2 and "a log numbered through the night must hold every coup" in result.stderr


@pytest.mark.parametrize("text,decimal,amount", [
    ("1,250.50", ".", "1250.50"), ("$1,250.50", ".", "1250.50"), ("€1.250,50", ",", "1250.50"),
    ("1 250,50", ",", "1250.50"), ("AUD 1,250", ".", "1250"), ("1250.5 USD", ".", "1250.5"), ("-25", ".", "-25")])
def test_an_amount_is_read_with_its_currency_and_grouping(text, decimal, amount):
    from decimal import Decimal

    from compliance.importing.logs import _money

    assert _money(text, decimal) == Decimal(amount)


@pytest.mark.parametrize("text,decimal", [("1.250,00", "."), ("1,25", "."), ("1,250.00", ","), ("12x", "."),
                                          ("1.2.3", ".")])
def test_a_decimal_mark_that_does_not_fit_the_amount_is_an_error_never_another_amount(text, decimal):
    from compliance.importing.logs import _Bad, _money

    with pytest.raises(_Bad):
        _money(text, decimal)


def test_a_named_time_zone_follows_daylight_saving_and_a_time_it_gives_twice_is_not_guessed():
    import zoneinfo

    from compliance.importing.logs import read_time

    try:
        zoneinfo.ZoneInfo("Australia/Sydney")
    except zoneinfo.ZoneInfoNotFoundError:
        pytest.skip("this machine has no time zone database")
    fmt = "%d/%m/%Y %H:%M"
    assert read_time("05/04/2026 01:30", fmt, "Australia/Sydney") == "2026-04-05T01:30:00+11:00"
    assert read_time("05/04/2026 03:30", fmt, "Australia/Sydney") == "2026-04-05T03:30:00+10:00"
    assert read_time("05/04/2026 02:30", fmt, "Australia/Sydney") == "!the hour repeated when daylight saving ended"
    assert read_time("04/10/2026 02:30", fmt, "Australia/Sydney") == "!an hour skipped when daylight saving began"


def test_rank_and_suit_in_two_columns_and_one_column_a_card_written_q_s_read_the_same_cards(tmp_path):
    shoe = f"{fixture('rank-suit-shoe/mapping.yaml')}={fixture('rank-suit-shoe/shoe.csv')}"
    hands = f"{fixture('card-positions/mapping.yaml')}={fixture('card-positions/hands.csv')}"
    result, out = imported(tmp_path, shoe, hands, extra=("--table", "BAC-07", "--jurisdiction", "us-nj", "--decks", "2"))
    assert result.exit_code == 0
    read = coups(out)
    assert [e["card"] for e in read[3]["events"]] == ["AS", "6D", "TD", "9H", "QS"]
    assert all("x-cards" not in c for c in read.values())  # the two logs agree, card for card
    assert check(out).findings == []


def test_a_signed_net_result_stands_for_the_outcome_and_the_payout(tmp_path):
    mapping = _write(tmp_path, "net.yaml", "format: baccarat-audit-mapping\nversion: 1\nname: net\ntitle: t\n"
                     "rows: wagers\nfields: {table: Table, shoe: Shoe, coup: Coup, seat: Seat, spot: {column: Bet, "
                     "values: {P: player, B: banker}}, amount: Stake, net: Net}\n")
    log = _write(tmp_path, "net.csv", "Table,Shoe,Coup,Seat,Bet,Stake,Net\nBAC-07,S0001,2,3,B,5000,+4750\n"
                 "BAC-07,S0001,2,2,P,100,-100\nBAC-07,S0001,2,6,B,100,100\n")
    _, out = imported(tmp_path, f"shoe-log={fixture('shoe-log/clean.csv')}", f"{mapping}={log}")
    settled = [(e["seat"], e["outcome"], e["amount"]) for e in coups(out)[2]["events"] if e["type"] == "settle"]
    assert settled == [(3, "win", 4750), (2, "lose", 100), (6, "win", 100)]
    found = check(out).findings
    assert [(f.coup, f.rule) for f in found] == [(2, "BAC-SETTLE-AMOUNT")]  # seat 6 paid 100 with no commission


# ------------------------------------------------------------------ large hostile logs (bench/import_bounds.py measures)


@pytest.mark.slow
def test_a_large_log_repeating_one_row_after_a_quote_never_closed_is_read_to_its_end_and_counted(tmp_path):
    log = tmp_path / "quote.csv"
    with log.open("w") as f:
        f.write('Table,Shoe,Coup,Seq,Card,Hand\nBAC-07,S1,1,1,"4H,P\n')
        f.write("BAC-07,S1,1,2,KS,B\n" * 400_000)
    result, out = imported(tmp_path, f"shoe-log={log}", extra=("--jurisdiction", "us-nj", "--decks", "1"))
    assert result.exit_code == 1
    header = json.loads(out.read_text().splitlines()[0])
    counted = [r for r in header["rejected_rows"] if "count" in r]
    rejected = header["x-import"]["logs"][0]["rejected"]
    assert rejected > 390_000  # the quote swallows what the CSV reader allows a cell (128 KB), then rows read again
    # every row accounted for: 1,000 kept one by one, the rest counted in one entry
    assert len(header["rejected_rows"]) == 1001 and counted[0]["count"] == rejected - 1000
    summary = run("check", out).stdout.splitlines()[-1]
    assert f"{rejected:,} rows of the recorders' logs not imported" in summary


@pytest.mark.slow
def test_a_header_of_two_million_columns_is_one_message(tmp_path):
    log = tmp_path / "wide.csv"
    log.write_text("Shoe,Coup,Card," + ",".join(f"C{i}" for i in range(2_000_000)) + "\nS1,1,4H\n")
    result = run("import", f"shoe-log={log}", "--table", "T", "-o", tmp_path / "x.jsonl")
    assert result.exit_code == 2 and not (tmp_path / "x.jsonl").exists()
    assert result.stderr == (f"baccarat-audit: {log}:1:1: the header row names more than 10,000 columns (or is longer "
                             "than 1 MB): not a log's header\n")
