"""Baccarat coups from a recorder's logs: the fields baccarat's logs hold, and the coup they make.

``baccarat-audit import`` (:mod:`compliance.importing`) reads the logs and gathers each
coup's rows; this module's :data:`ROWS` says which fields a baccarat shoe log, hand log
or wager log may map (beyond :data:`compliance.transcript.logs.COMMON`), and :func:`build`
makes the coup's events from its rows: wagers first, then the cards, the result and the
settlements.  What the logs leave open is settled only when exactly one reading is
possible (:func:`legal_readings`); otherwise the coup holds less and says so.

What each log gives and how an open point is settled: docs/import.md, "Settled only when
one reading is possible".
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

from compliance.cards import PARTIAL_POINTS, POINTS
from compliance.transcript.logs import Built, CoupParts, Field, Row, fault

PLAYER, BANKER = "player", "banker"
HANDS = (PLAYER, BANKER)
ORDER = (PLAYER, BANKER, PLAYER, BANKER)

#: the fields of each kind of row (beyond the common ones)
ROWS: dict[str, dict[str, Field]] = {
    "cards": {
        "card": Field("card", "the card as the recorder read it"),
        "to": Field("word", "where the card went (without it: the cards' order settles it)",
                    ("player", "banker", "burn", "discard")),
        "face": Field("word", "how the card was dealt", ("up", "down")),
    },
    "coups": {
        "player": Field("cards", "the Player's Hand, in the order its cards were dealt"),
        "banker": Field("cards", "the Banker's Hand, in the order its cards were dealt"),
        "cards": Field("cards", "every card of the coup in dealing order, without their hands"),
        "hands": Field("cards", "the Player's cards, then the Banker's, in one cell: split by the card counts "
                                "(`player_count`, `banker_count`) or by the totals"),
        "player_count": Field("int", "how many cards the Player's Hand holds (to split `hands`)", low=0, high=3),
        "banker_count": Field("int", "how many cards the Banker's Hand holds (to split `hands`)", low=0, high=3),
        "winner": Field("word", "the winner announced, or void", ("player", "banker", "tie", "void")),
        "player_total": Field("int", "the Player's points announced", low=0, high=9),
        "banker_total": Field("int", "the Banker's points announced", low=0, high=9),
        **{f"{hand}_{flag}": Field("flag", f"the log's flag: {about.format(hand=hand.capitalize())}", ("yes", "no"))
           for flag, about in (("pair", "the {hand}'s two initial cards are a pair (of one rank)"),
                               ("suited", "the {hand}'s two initial cards are of one suit"),
                               ("natural", "the {hand}'s Hand is a natural (its two initial cards)"))
           for hand in HANDS},
        "natural": Field("flag", "the log's flag: either hand is a natural", ("yes", "no")),
    },
    "wagers": {
        "seat": Field("int", "the bettor's seat (empty for a standing patron)", low=0, high=2**31),
        "patron": Field("text", "the bettor's id"),
        "spot": Field("word", "the spot wagered on", ("player", "banker", "tie")),
        "amount": Field("money", "the wager as it stood when the cards were dealt", low=0),
        "outcome": Field("word", "how it was settled", ("win", "lose", "push")),
        "payout": Field("money", "won: the winnings paid on top of the stake; lost: the stake collected (0 or "
                                 "empty: the whole stake); push: 0"),
        "net": Field("money", "the patron's net result in place of `outcome` and `payout`: above 0 a win paid that "
                              "much, below 0 the stake lost, 0 a push"),
        "commission": Field("money", "commission collected apart from the payout (0 or empty: none, or paid net "
                                     "of it)", low=0),
        "placed_at": Field("time", "when the wager was placed (`at` is when it was settled): with the cards' times, "
                                   "each wager is put in its place among the cards, so a wager placed after the first "
                                   "card is seen"),
    },
}

#: what a log of each kind of row must map: one of these sets of fields
REQUIRED: dict[str, tuple[tuple[str, ...], ...]] = {
    "cards": (("card",),),
    "coups": (("player", "banker"), ("hands",), ("cards",)),
    "wagers": (("spot", "amount"),),
}

#: the fields that tell one row of a coup from another, per kind of row: two rows of a coup alike in these are
#: the same row (captured twice if alike in everything, else rows that clash); () : one row a coup
UNIQUE: dict[str, tuple[str, ...]] = {"cards": ("sequence",), "coups": (), "wagers": ("seat", "patron", "spot")}

#: the kinds of row that each stand alone: a wager row says all there is of one wager, so two rows of one wager
#: that clash set aside that wager only (the coup's other wagers are judged); a card row is one of a coup's cards,
#: which stand or fall together
ALONE: frozenset[str] = frozenset({"wagers"})


def row_problem(kind: str, values: dict) -> str | None:
    """Why a row read from a log could not be a part of a coup the check reads (None: it can): such a row is
    rejected at its line, never passed on to make its whole coup unreadable."""
    if kind == "wagers":
        if values.get("seat") is None and values.get("patron") is None and values.get("amount"):
            return "the wager names neither a seat nor a patron: whose it is is not known"
        payout = values.get("payout")
        if payout is not None and payout < 0 and values.get("outcome") in ("win", "push"):
            return f"a {values.get('outcome')} paid {payout}: a payout is not negative (a loss is `outcome` lose)"
    return None


def evidence_of(kind: str, mapped: set[str]) -> frozenset[str]:
    """What a log of ``kind`` rows that maps the fields ``mapped`` records (compliance.evidence)."""
    out: set[str] = set()
    if kind == "cards":
        out.add("cards")
        if "to" in mapped:
            out |= {"hands", "order"}
        if "face" in mapped:
            out.add("faces")
    elif kind == "coups":
        if {"player", "banker"} <= mapped or "hands" in mapped:
            out |= {"cards", "hands"}
        elif "cards" in mapped:
            out.add("cards")
        if {"player_total", "banker_total"} <= mapped:
            out.add("results")
    elif kind == "wagers":
        out.add("stakes")
        if "outcome" in mapped or "net" in mapped:
            out.add("settlements")
        if "placed_at" in mapped:
            out.add("wagers")  # each wager in its place among the coup's events, where the cards' times are known
    return frozenset(out)


# ------------------------------------------------------------------ building a coup


def context(ruleset):
    """What building a coup needs once: the tableau (the ruleset's, else the standard one)."""
    from compliance.games.baccarat.analyze import standard_tableau

    return ruleset.game.tableau if ruleset is not None and ruleset.game is not None else standard_tableau()


def _points(code: str) -> int | None:
    return POINTS[code] if code in POINTS else PARTIAL_POINTS[code]


def compatible(a: str, b: str) -> bool:
    """Two records of one card agree: the same code, or one recorded in part that the other fits."""
    if a == b or "??" in (a, b):
        return True
    for part, full in ((a, b), (b, a)):
        if part.endswith("?") and not full.endswith("?"):
            return part[0] == full[0] or (part == "0?" and POINTS[full] == 0)
    return _points(a) == _points(b) and "0?" in (a, b)  # 0? and T? / J? ...


def _total(codes) -> int | None:
    points = [_points(c) for c in codes]
    return None if None in points else sum(points) % 10


def legal_readings(codes: list[str], tableau) -> list[tuple[str, ...]] | None:
    """The hands of cards dealt in this order that comply with the tableau (the first four Player, Banker,
    Player, Banker); None when a value the tableau needs was not read."""
    n = len(codes)
    if n <= 4:
        return [ORDER[:n]]
    if n > 6:
        return []  # more than one additional card a hand: no reading complies
    p, b = _total(codes[0:4:2]), _total(codes[1:4:2])
    if p is None or b is None:
        return None
    natural = p in tableau.naturals or b in tableau.naturals
    player_draws = not natural and p in tableau.player_draws
    fifth = _points(codes[4])
    out = []
    if n == 5:
        if player_draws and fifth is not None and not tableau.banker_draws(b, fifth):
            out.append(ORDER + (PLAYER,))
        if not natural and not player_draws and tableau.banker_draws(b, None):
            out.append(ORDER + (BANKER,))
        if fifth is None and player_draws:
            return None
    else:  # six cards: the Player's third, then the Banker's (the Banker never draws first)
        if fifth is None:
            return None
        if player_draws and tableau.banker_draws(b, fifth):
            out.append(ORDER + (PLAYER, BANKER))
    return out


def _by_hand_log(codes: list[str], player: tuple, banker: tuple) -> tuple[str, ...] | None:
    """Where each card of ``codes`` went, by the hands a hand log gives (matching each card to a hand
    that holds it); None when the two do not fit together, or fit in more than one way that matters."""
    if len(codes) != len(player) + len(banker):
        return None
    left = {PLAYER: list(player), BANKER: list(banker)}
    out = []
    for code in codes:
        fits = [h for h in HANDS if left[h] and compatible(code, left[h][0])]
        if not fits:
            return None
        if len(fits) == 2 and left[PLAYER][0] != left[BANKER][0]:
            return None  # fits either hand's next card, and they differ: the hand log does not say which
        hand = fits[0]
        left[hand].pop(0)
        out.append(hand)
    return tuple(out)


def _describe(codes, hands) -> str:
    return ", ".join(f"{c} to the {h.capitalize()}" for c, h in zip(codes, hands))


def build(parts: CoupParts, tableau) -> Built:
    """The coup's events from its rows; what its record holds; what was settled, and how."""
    have = set(parts.have)
    notes: list[str] = []
    settled: list[str] = []
    events_cards: list[dict] = []
    card_rows = parts.rows.get("cards") or []
    hand_rows = parts.rows.get("coups") or []
    hand_row = hand_rows[0] if hand_rows else None
    given_hands, split = _given(hand_row)
    if split is not None and split.startswith("!"):  # a cell of both hands that cannot be split: not guessed
        if card_rows:
            notes.append(f"the hand log's {split[1:]}: the shoe log's cards are read without it")
        elif len(hand_row.get("hands")) == 5 and " more than one way " in split:
            notes.append(f"the hand log's {split[1:]}: the cards are judged only by whether either split complies "
                         "with the tableau")
            return _without_cards(parts, have, notes, [], unsplit=list(hand_row.get("hands")))
        else:
            notes.append(f"the hand log's {split[1:]}: the cards are not judged")
            return _without_cards(parts, have, notes, list(hand_row.get("hands")))
    elif split is not None:
        settled.append(split)
    if hand_row is not None and not card_rows and given_hands is None and hand_row.get("cards") is None:
        notes.append("the hand log holds no cards for this coup (not captured): its cards are not judged"
                     + _placeholder(hand_row))
        return _without_cards(parts, have, notes, [])

    if card_rows:
        aside = [r for r in card_rows if r.get("to") in ("burn", "discard")]  # burnt or discarded: not in a hand
        card_rows = [r for r in card_rows if r.get("to") not in ("burn", "discard")]
        codes = [r.get("card") for r in card_rows]
        to = [r.get("to") for r in card_rows]
        recorded_to = all(t is not None for t in to)
        if not recorded_to and any(t is not None for t in to):
            notes.append("the shoe log says where some cards went and not others: the cards are not judged")
            return _without_cards(parts, have, notes, [r.get("card") for r in aside] + codes)
        if recorded_to:
            if given_hands is not None and not _agrees(codes, to, given_hands):
                said = (f"the shoe log ({_hands_words(codes, to)}) and the hand log ({_given_words(given_hands)}) "
                        "disagree on the cards")
                notes.append(f"{said}: they are not judged")
                return _without_cards(parts, have, notes, codes, [_disagree(card_rows, hand_row, said)])
            if given_hands is not None:
                have |= {"hands"}
        else:
            hands = _by_hand_log(codes, *given_hands) if given_hands is not None else None
            if hands is not None:
                to = list(hands)
                have |= {"hands", "order"}
                settled.append(f"where each card went, by the hand log: {_describe(codes, hands)}")
            elif given_hands is not None:
                said = (f"the shoe log's cards ({' '.join(codes)}) do not fit the hand log's hands "
                        f"({_given_words(given_hands)})")
                notes.append(f"{said}: the cards are not judged")
                return _without_cards(parts, have, notes, codes, [_disagree(card_rows, hand_row, said)])
            else:
                readings = legal_readings(codes, tableau)
                if readings is not None and len(readings) == 1:
                    to = list(readings[0])
                    have.add("hands")
                    if len(codes) > 4:  # (the first four are the deal's: Player, Banker, Player, Banker)
                        settled.append(f"the additional cards by the tableau, the only legal reading: "
                                       f"{_describe(codes[4:], to[4:])}")
                else:
                    why = ("a card the tableau needs was not read" if readings is None
                           else "no reading of the additional cards complies with the tableau" if not readings
                           else "more than one reading complies with the tableau")
                    notes.append(f"the log gives only the order of the cards ({' '.join(codes)}) and {why}: "
                                 "where each card went is not known, so the cards are judged only by whether some "
                                 "reading complies")
                    return _in_order_only(parts, have, notes, codes)
        placed = sorted([(r, r.get("card"), r.get("to")) for r in aside] + list(zip(card_rows, codes, to)),
                        key=lambda x: _place(x[0]))
        for row, code, dest in placed:
            ev = {"type": "card", "card": code, "to": dest}
            if row.get("face") is not None:
                ev["face"] = row.get("face")
            if row.get("at") is not None:
                ev["at"] = row.get("at")
            events_cards.append(ev)
    elif hand_row is not None and given_hands is not None:
        player, banker = given_hands
        order = _dealing_order(player, banker)
        events_cards = [{"type": "card", "card": code, "to": hand} for code, hand in order]
        have.discard("order")
    elif hand_row is not None and hand_row.get("cards") is not None:
        codes = list(hand_row.get("cards"))
        readings = legal_readings(codes, tableau)
        if readings is not None and len(readings) == 1:
            events_cards = [{"type": "card", "card": c, "to": h} for c, h in zip(codes, readings[0])]
            have.add("hands")
            if len(codes) > 4:
                settled.append(f"the additional cards by the tableau, the only legal reading: "
                               f"{_describe(codes[4:], readings[0][4:])}")
        else:
            notes.append(f"the hand log gives the cards in order only ({' '.join(codes)}), and they cannot be "
                         "told apart into hands: the cards are judged only by whether some reading complies")
            return _in_order_only(parts, have, notes, codes)

    faults = []
    if hand_row is not None and given_hands is not None:
        for said in (_contradiction(hand_row, *given_hands), _flags_contradicted(hand_row, *given_hands, tableau)):
            if said is not None:
                faults.append(fault("contradiction", [hand_row.where], said))
    return Built(_coup(parts, events_cards, hand_row, have), have, notes, settled, faults)


def _given(row: Row | None) -> tuple[tuple | None, str | None]:
    """The hands a hand log's row gives, and how a cell of both hands was split (``!`` and why: it cannot be)."""
    if row is None:
        return None, None
    if row.get("player") is not None and row.get("banker") is not None:
        return (tuple(row.get("player")), tuple(row.get("banker"))), None
    both = row.get("hands")
    if both is None:
        return None, None
    n, counts = len(both), (row.get("player_count"), row.get("banker_count"))
    totals = (row.get("player_total"), row.get("banker_total"))
    splits = [k for k in (2, 3) if 2 <= n - k <= 3]
    if counts != (None, None):
        splits = [k for k in splits if counts[0] in (None, k) and counts[1] in (None, n - k)]
        how = "by the card counts"
    elif len(splits) > 1 and None not in totals:
        splits = [k for k in splits if (_total(both[:k]), _total(both[k:])) == totals]
        how = "by the totals"
    else:
        how = "by the number of cards"
    if len(splits) == 1:
        k = splits[0]
        return (tuple(both[:k]), tuple(both[k:])), (None if how == "by the number of cards" else
                                                     f"the cell of both hands split {how}: Player "
                                                     f"{' '.join(both[:k])}; Banker {' '.join(both[k:])}")
    said = f"cell of both hands ({' '.join(both)})"
    if not splits:
        return None, f"!{said} cannot be split into two hands of two or three cards {how}"
    return None, f"!{said} splits more than one way {how} (Player {' or '.join(str(k) for k in splits)} cards)"


def _placeholder(row: Row) -> str:
    if (row.get("player_total"), row.get("banker_total")) == (0, 0):
        return "; totals 0-0 without cards are a placeholder, not a result"
    return ""


def _disagree(card_rows: list[Row], hand_row: Row, said: str) -> dict:
    return fault("logs-disagree", [r.where for r in card_rows] + [hand_row.where], said)


def _contradiction(row: Row, player: tuple, banker: tuple) -> str | None:
    """What a hand log's row says beside its cards that the cards contradict: a winner given without both totals
    (with both, the result is judged by ``result.wrong``), or one total alone."""
    p, b = _total(player), _total(banker)
    if p is None or b is None or not player or not banker:
        return None
    winner = row.get("winner")
    totals = (row.get("player_total"), row.get("banker_total"))
    if None not in totals or winner == "void":
        return None
    truth = PLAYER if p > b else BANKER if b > p else "tie"
    out = []
    if winner is not None and winner != truth:
        out.append(f"its winner {winner}")
    for hand, said, real in ((PLAYER, totals[0], p), (BANKER, totals[1], b)):
        if said is not None and said != real:
            out.append(f"its {hand.capitalize()} total {said}")
    if not out:
        return None
    return (f"the hand log's row gives {' and '.join(out)}, and its cards (Player {' '.join(player)}; Banker "
            f"{' '.join(banker)}) give Player {p}, Banker {b}: {'a tie' if truth == 'tie' else truth.capitalize() + ' wins'}")


#: the flags a hand log may give beside a coup's cards, in the order a finding names them
FLAGS = tuple(f"{hand}_{flag}" for flag in ("pair", "suited", "natural") for hand in HANDS) + ("natural",)


def _rank(code: str) -> str | None:
    return code[0] if code[0] not in "0?" else None


def _flag_truth(name: str, player: tuple, banker: tuple, tableau) -> bool | None:
    """Whether the cards make the flag ``name`` true (None: the record does not say: a rank, a suit or a value
    not read)."""
    if name == "natural":
        truths = [_flag_truth(f"{h}_natural", player, banker, tableau) for h in HANDS]
        return True if True in truths else None if None in truths else False
    hand, _, flag = name.partition("_")
    cards = (player if hand == PLAYER else banker)[:2]
    if len(cards) < 2:
        return None
    a, b = cards
    if flag == "natural":
        total = _total(cards)
        return None if total is None else total in tableau.naturals
    if flag == "suited":
        return None if "?" in (a[1], b[1]) else a[1] == b[1]
    ra, rb = _rank(a), _rank(b)
    if ra is not None and rb is not None:
        return ra == rb
    pa, pb = _points(a), _points(b)
    return False if None not in (pa, pb) and pa != pb else None  # a 0? beside a 5: no pair; two 0?: not known


def _flag_words(name: str, on: bool) -> str:
    if name == "natural":
        return "a natural" if on else "no natural"
    hand, _, flag = name.partition("_")
    thing = {"pair": "pair", "suited": "suited pair of initial cards", "natural": "natural"}[flag]
    if flag == "suited":
        return f"the {hand.capitalize()}'s initial cards {'of one suit' if on else 'not of one suit'}"
    return f"{'a' if on else 'no'} {hand.capitalize()} {thing}"


def _flags_contradicted(row: Row, player: tuple, banker: tuple, tableau) -> str | None:
    """The flags of a hand log's row (pair, suited, natural) that its own cards contradict, in words."""
    said, shown = [], []
    for name in FLAGS:
        flagged = row.get(name)
        if flagged is None:
            continue
        truth = _flag_truth(name, player, banker, tableau)
        if truth is not None and truth != flagged:
            said.append(_flag_words(name, flagged))
            shown.append(_flag_words(name, truth))
    if not said:
        return None
    return (f"the hand log's row flags {' and '.join(said)}, and its cards (Player {' '.join(player)}; Banker "
            f"{' '.join(banker)}) show {' and '.join(shown)}")


def _place(row: Row) -> tuple:
    """Where a card row stands in its coup: its sequence number, else its place in the log."""
    path, _, line = row.where.rpartition(":")
    return (row.get("sequence") if row.get("sequence") is not None else 0, path, int(line))


def _agrees(codes, to, given) -> bool:
    hands = {h: [c for c, t in zip(codes, to) if t == h] for h in HANDS}
    player, banker = given
    return all(len(hands[h]) == len(g) and all(compatible(a, b) for a, b in zip(hands[h], g))
               for h, g in ((PLAYER, player), (BANKER, banker)))


def _hands_words(codes, to) -> str:
    return "; ".join(f"{h.capitalize()} {' '.join(c for c, t in zip(codes, to) if t == h) or '-'}" for h in HANDS)


def _given_words(given) -> str:
    return f"Player {' '.join(given[0]) or '-'}; Banker {' '.join(given[1]) or '-'}"


def _dealing_order(player: tuple, banker: tuple) -> list[tuple[str, str]]:
    """A hand log's hands in the order a dealer deals them: Player, Banker, Player, Banker, then the Player's
    third card and the Banker's (the log does not record the order: `order` is not claimed)."""
    out = []
    for i in range(max(len(player), len(banker))):
        if i < len(player):
            out.append((player[i], PLAYER))
        if i < len(banker):
            out.append((banker[i], BANKER))
    return out


def _without_cards(parts: CoupParts, have: set, notes: list, codes, faults: list | None = None,
                   unsplit: list | None = None) -> Built:
    """The coup without its cards (kept under ``x-cards`` for the reader): nothing that needs them is judged;
    ``unsplit``: both hands' five cards whose split was not read (format 1.1 ``hands_unsplit``), judged only by
    whether either split complies with the tableau."""
    have -= {"cards", "hands", "order", "faces"}
    coup = _coup(parts, [], (parts.rows.get("coups") or [None])[0], have)
    if codes:
        coup["x-cards"] = list(codes)
    if unsplit:
        coup["hands_unsplit"] = list(unsplit)
    return Built(coup, have, notes, [], faults or [])


def _in_order_only(parts: CoupParts, have: set, notes: list, codes) -> Built:
    """The coup with its cards in dealing order and not their hands (format 1.1 ``cards_in_order``): the check
    judges whether some reading of where the additional cards went complies with the tableau, and nothing that
    needs the hands."""
    have -= {"hands", "order", "faces", "wagers"}  # (nor when a wager was placed among the cards)
    coup = _coup(parts, [], (parts.rows.get("coups") or [None])[0], have)
    coup["cards_in_order"] = list(codes)
    return Built(coup, have, notes, [], [])


def _coup(parts: CoupParts, cards: list[dict], hand_row: Row | None, have: set) -> dict:
    """The coup's events: the wagers (placed among the cards by their times where the log gives when each was
    placed; else all before the cards, and the coup does not hold ``wagers``), the cards, the result, the
    settlements."""
    placed: list[dict] = []
    wagers = parts.rows.get("wagers") or []
    for w in wagers:
        if w.get("amount"):
            at = {"at": w.get("placed_at")} if w.get("placed_at") is not None else {}
            placed.append(_bettor({"type": "wager"}, w) | {"spot": w.get("spot"), "amount": w.get("amount")} | at)
    events = _in_time(placed, cards) if "wagers" in have else None
    if events is None:
        have.discard("wagers")  # when a wager was placed, among the cards, is not known
        events = placed + cards
    if hand_row is not None:
        result = _result(hand_row)
        if result is not None:
            events.append(result)
    for w in wagers:
        events += _settlement(w)
    return {"events": events}


def _when(stamp) -> dt.datetime | None:
    try:
        return dt.datetime.fromisoformat(stamp)
    except (TypeError, ValueError):
        return None


def _in_time(wagers: list[dict], cards: list[dict]) -> list[dict] | None:
    """The wagers put among the cards by when each was placed (one placed at a card's time: before it); None where
    a wager's or a card's time is not known (or the times cannot be compared: some with an offset, some without)."""
    if not wagers:
        return cards
    placed, dealt = [_when(w.get("at")) for w in wagers], [_when(c.get("at")) for c in cards]
    if None in placed or None in dealt or len({t.tzinfo is None for t in placed + dealt}) > 1:
        return None
    order = sorted(range(len(wagers)), key=lambda k: placed[k])
    out, k = [], 0
    for card, when in zip(cards, dealt):
        while k < len(order) and placed[order[k]] <= when:
            out.append(wagers[order[k]])
            k += 1
        out.append(card)
    return out + [wagers[i] for i in order[k:]]


def _result(row: Row) -> dict | None:
    winner, p, b = row.get("winner"), row.get("player_total"), row.get("banker_total")
    if _placeholder(row) and all(row.get(f) is None for f in ("player", "banker", "hands", "cards")):
        return None  # totals 0-0 of a coup whose cards were not captured: nothing was read
    at = {"at": row.get("at")} if row.get("at") is not None else {}
    if winner == "void":
        return {"type": "void", "reason": "other", "note": "recorded as void by the hand log"} | at
    if p is None or b is None:
        return None
    if winner is None:
        winner = PLAYER if p > b else BANKER if b > p else "tie"
    return {"type": "result", "player_points": p, "banker_points": b, "winner": winner} | at


def _bettor(ev: dict, w: Row) -> dict:
    if w.get("seat") is not None:
        ev["seat"] = w.get("seat")
    if w.get("patron") is not None:
        ev["patron"] = w.get("patron")
    return ev


def _settlement(w: Row) -> list[dict]:
    outcome, payout, net = w.get("outcome"), w.get("payout"), w.get("net")
    if outcome is None and net is not None:  # a signed net result: a win paid net, the stake lost, or a push
        outcome = "win" if net > 0 else "lose" if net < 0 else "push"
        payout = abs(net) if payout is None else payout
    if outcome is None or not w.get("amount"):
        return []
    if outcome == "lose":
        amount = abs(payout) if payout else w.get("amount")  # a loss logged as 0 paid: the stake collected
    elif outcome == "push":
        amount = payout if payout is not None else Decimal(0)
    else:
        amount = payout if payout is not None else Decimal(0)
    ev = _bettor({"type": "settle"}, w) | {"spot": w.get("spot"), "outcome": outcome, "amount": amount}
    if w.get("at") is not None:
        ev["at"] = w.get("at")
    out = [ev]
    if outcome == "win" and w.get("commission"):
        out.append(_bettor({"type": "commission"}, w) | {"amount": w.get("commission")})
    return out
