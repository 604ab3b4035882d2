"""Transcripts for the tests, built the way a dealer deals: by the book unless told otherwise.

The drawing rules and the payouts here are written out by hand, independently
of the rulesets' YAML and of :mod:`compliance.checks`, so a test that deals
"by the rules" with this module also checks the tableau the rulesets carry.
"""

from __future__ import annotations

import tempfile
from collections.abc import Iterable, Iterator
from decimal import Decimal
from pathlib import Path

import msgspec

from compliance.cards import POINTS
from compliance.engine import Checker
from compliance.findings import Finding

COMMISSION = Decimal("0.05")
TIE_ODDS = Decimal(8)
JURISDICTIONS = ("us-nj", "us-in", "au-nsw", "nz")


# ------------------------------------------------------------------ the rules of play


def total(cards: Iterable[str]) -> int:
    return sum(POINTS[c] for c in cards) % 10


def natural(player: list[str], banker: list[str]) -> bool:
    return total(player[:2]) >= 8 or total(banker[:2]) >= 8


def player_draws(player: list[str], banker: list[str]) -> bool:
    """The Player's Hand draws on 0 to 5 unless either hand is a natural."""
    return not natural(player, banker) and total(player[:2]) <= 5


def banker_draws(banker_total: int, player_third: str | None) -> bool:
    """Table 2, as every punto banco rule book prints it."""
    if player_third is None:
        return banker_total <= 5
    t = POINTS[player_third]
    return {
        0: True, 1: True, 2: True,
        3: t != 8,
        4: 2 <= t <= 7,
        5: 4 <= t <= 7,
        6: t in (6, 7),
        7: False,
    }[banker_total]


def play(shoe: Iterator[str]) -> tuple[list[str], list[str]]:
    """Deal one coup from the top of ``shoe`` by the rules: the Player's and the Banker's cards."""
    player = [next(shoe)]
    banker = [next(shoe)]
    player.append(next(shoe))
    banker.append(next(shoe))
    third = None
    if player_draws(player, banker):
        third = next(shoe)
        player.append(third)
    if not natural(player, banker) and banker_draws(total(banker[:2]), third):
        banker.append(next(shoe))
    return player, banker


def winner(player: list[str], banker: list[str]) -> str:
    p, b = total(player), total(banker)
    return "player" if p > b else "banker" if b > p else "tie"


def payout(spot: str, stake: Decimal, player: list[str], banker: list[str], *,
           commission: Decimal = COMMISSION, tie_odds: Decimal = TIE_ODDS,
           banker_six_pays: Decimal | None = None) -> tuple[str, Decimal]:
    """(outcome, amount) a wager is settled with: 1 to 1, Banker less commission, tie at its odds,
    Player and Banker pushed on a tie; ``banker_six_pays``: Even Money Baccarat's Banker win on 6."""
    w = winner(player, banker)
    if w == "tie":
        return ("win", stake * tie_odds) if spot == "tie" else ("push", Decimal(0))
    if spot != w:
        return "lose", stake
    if spot == "banker":
        if banker_six_pays is not None and total(banker) == 6:
            return "win", stake * banker_six_pays
        return "win", stake - stake * commission
    return "win", stake


# ------------------------------------------------------------------ transcripts


def header(jurisdiction: str = "us-nj", *, game: str = "punto_banco", decks: int = 8, **table) -> dict:
    t = {"id": f"T-{jurisdiction}", "jurisdiction": jurisdiction, "game": game, "seats": 7,
         "limits": {"min_wager": 20, "max_wager": 5000, "table_differential": 4000}}
    if jurisdiction == "au-nsw":
        t["dealing_method"] = "C"  # the dealer turns every card: no curator, no passing of hands
    t.update(table)
    return {"format": "baccarat-transcript", "version": 1, "table": t, "shoes": [{"id": "S1", "decks": decks}]}


def card_events(player: list[str], banker: list[str]) -> list[dict]:
    """Player, Banker, Player, Banker, then the Player's third card, then the Banker's."""
    order = [("player", player[0]), ("banker", banker[0]), ("player", player[1]), ("banker", banker[1])]
    order += [("player", c) for c in player[2:]] + [("banker", c) for c in banker[2:]]
    return [{"type": "card", "card": c, "to": to, "face": "up"} for to, c in order]


def result_event(player: list[str], banker: list[str]) -> dict:
    return {"type": "result", "player_points": total(player), "banker_points": total(banker),
            "winner": winner(player, banker)}


def coup(number: int, player: list[str], banker: list[str], wagers: Iterable[tuple[int, str, int | str]] = (),
         *, shoe: str = "S1", settle: bool = True, **pay) -> dict:
    """A whole compliant coup: wagers, both calls, the cards, the result, every wager settled."""
    wagers = [(seat, spot, Decimal(str(amount))) for seat, spot, amount in wagers]
    events = [{"type": "wager", "seat": seat, "spot": spot, "amount": amount} for seat, spot, amount in wagers]
    events += [{"type": "announce", "call": "no_more_bets"}, {"type": "announce", "call": "cards"}]
    events += card_events(player, banker)
    events.append(result_event(player, banker))
    if settle:
        for seat, spot, amount in wagers:
            outcome, paid = payout(spot, amount, player, banker, **pay)
            events.append({"type": "settle", "seat": seat, "spot": spot, "outcome": outcome, "amount": paid})
    seated = {str(seat): f"P-{seat}" for seat in sorted({s for s, _, _ in wagers})}
    return {"coup": number, "shoe": shoe, "seated": seated, "events": events}


def dealt_by_the_rules(cards: Iterable[str], *, wagers=((1, "player", 100), (2, "banker", 200)), **pay) -> list[dict]:
    """Deal every whole coup the cards allow, by the rules."""
    shoe = iter(list(cards))
    coups = []
    while True:
        try:
            player, banker = play(shoe)
        except StopIteration:
            return coups
        coups.append(coup(len(coups) + 1, player, banker, wagers, **pay))


def transcript(coups: list[dict], jurisdiction: str = "us-nj", **head) -> dict:
    return header(jurisdiction, **head) | {"coups": coups}


_encoder = msgspec.json.Encoder(decimal_format="number")  # Decimal amounts as exact JSON numbers


def dumps(doc) -> str:
    return msgspec.json.format(_encoder.encode(doc), indent=1).decode() + "\n"


def jsonl(doc: dict) -> str:
    head = {k: v for k, v in doc.items() if k != "coups"}
    return "".join(_encoder.encode(x).decode() + "\n" for x in [head, *doc["coups"]])


# ------------------------------------------------------------------ checking


_checkers: dict[tuple, Checker] = {}


def check(doc: dict | str, ruleset: str | None = None, suffix: str = ".json", bounds=None) -> list[Finding]:
    """Every finding of the per-coup rules for a transcript (a document, or its text), as the engine reports them.

    The coups these tests make by hand (shoes in deck order, the same coup twice) are not shuffled shoes, and
    the shoe and table integrity stage, which judges whole shoes, would rightly say so: it is tested on its own
    (tests/test_integrity.py), so these checks stop before it.  ``bounds``: the run's size limits (the defaults)."""
    checker = _checkers.get((ruleset, bounds))
    if checker is None:
        checker = _checkers[(ruleset, bounds)] = (Checker(ruleset=ruleset, judge=False) if bounds is None else
                                                  Checker(ruleset=ruleset, limits=bounds, judge=False))
    text = doc if isinstance(doc, str) else dumps(doc)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / f"transcript{suffix}"
        path.write_text(text, encoding="utf-8")
        return checker.check_file(path, path.name).findings


def replay(doc: dict, ruleset: str | None = None) -> list:
    """The replayed state (CoupState) of every coup of ``doc``, decoded as the reader decodes it."""
    from compliance.games.baccarat import GAME
    from compliance.games.baccarat.replay import Replayer
    from compliance.games.baccarat.table import TableContext
    from compliance.ruleset.loader import load_ruleset

    codec = GAME.codec

    head = codec.header_decoder.decode(msgspec.json.encode({k: v for k, v in doc.items() if k != "coups"}))
    replayer = Replayer(TableContext.build(head, load_ruleset(ruleset or head.table.jurisdiction), "test"))
    return [replayer.replay(codec.coup_decoder.decode(msgspec.json.encode(c))) for c in doc["coups"]]


def by_rule(findings: list[Finding]) -> dict[str, list[Finding]]:
    out: dict[str, list[Finding]] = {}
    for f in findings:
        out.setdefault(f.rule, []).append(f)
    return out


def pairs(findings: list[Finding]) -> set[tuple[int | None, str]]:
    return {(f.coup, f.rule) for f in findings}
