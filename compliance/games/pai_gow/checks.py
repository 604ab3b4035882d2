"""Pai gow poker check kinds (68 IAC 10-9-4): wagers, hands, settlement, the deck.

Each is a small pure function of one replayed round
(:class:`~compliance.games.pai_gow.replay.RoundState`), its rule's parameters
and the :class:`~compliance.games.pai_gow.table.PaiGowTable`, registered in
the one registry of check kinds with ``game="pai_gow_poker"``.  What the
regulation leaves to the licensee (the payout of section 6, the commission,
surrender, multiple play, where the ace-to-five straight ranks) is a
parameter the ruleset marks as the house's.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Annotated

from pydantic import Field

from compliance.checks import Breach, Params, check
from compliance.findings import Money
from compliance.games.common import ZERO, Due, settlement_basis, value_to_patron
from compliance.games.pai_gow.hands import Wheel, describe, fouled, outcome
from compliance.games.pai_gow.replay import DEALER, RoundState, describe_position
from compliance.printable import bounded_name

GAME = "pai_gow_poker"

Rate = Annotated[Decimal, Field(ge=0, lt=1)]


# ------------------------------------------------------------------ wagers: 10-9-4(a), (c), (e)


@check("pai-gow.wager.late", "wager.late", game=GAME, needs=("wagers", "cards"))
def late(coup: RoundState, params, table):
    """Wagers are made before the first card of the round is dealt: none is placed or increased after it."""
    out = []
    for ch in coup.changes:
        if ch.late:
            what = "placed: " if ch.kind == "wager" else f"increased from {table.money(ch.before)} to "
            out.append(Breach(ch.at, f"{coup.describe_box(ch.box)} wager {what}{table.money(ch.after)} after the first card"))
    return out


class AlteredParams(Params):
    surrender_offered: bool = True  # the house offers the surrender option


@check("pai-gow.wager.altered", "wager.improper-reduction", AlteredParams, game=GAME, needs=("wagers", "cards"))
def altered(coup: RoundState, params: AlteredParams, table):
    """After the first card no wager is removed or reduced until the round is complete, except by the surrender
    option, and only where the house offers it."""
    out = []
    for ch in coup.changes:
        if ch.reduced:
            what = "removed" if not ch.after else f"reduced from {table.money(ch.before)} to {table.money(ch.after)}"
            out.append(Breach(ch.at, f"{coup.describe_box(ch.box)} wager {what} after the first card ({ch.reason})"))
    if not params.surrender_offered:
        for s in coup.surrenders:
            if s.after_first_card:
                out.append(Breach(s.at, f"{coup.describe_box(s.box)} surrendered, but this house offers no surrender"))
    return out


@check("pai-gow.wager.limits", "wager.limits", game=GAME, needs=("stakes",))
def limits(coup: RoundState, params, table):
    """Each box's wager, as it stands at the first card, is within the table's minimum and maximum."""
    out = []
    for box, stake in sorted(coup.stakes_at_first_card.items()):
        at = max((ch.at for ch in coup.changes if ch.box == box and not ch.after_first_card), default=None)
        if table.min_wager is not None and stake < table.min_wager:
            out.append(Breach(at, f"{coup.describe_box(box)} wager of {table.money(stake)} is below the table minimum "
                                  f"of {table.money(table.min_wager)}"))
        elif table.max_wager is not None and stake > table.max_wager:
            out.append(Breach(at, f"{coup.describe_box(box)} wager of {table.money(stake)} is above the table maximum "
                                  f"of {table.money(table.max_wager)}"))
    return out


@check("pai-gow.wager.box", "wager.not-eligible", game=GAME, needs=("stakes",))
def not_a_box(coup: RoundState, params, table):
    """Wagers are made in the betting boxes of the layout: a box the table does not have takes no wager."""
    return [Breach(ch.at, f"wager in box {ch.box}, which the table does not have (its boxes are 1 to {table.boxes})")
            for ch in coup.changes if ch.kind == "wager" and not table.is_box(ch.box)]


class MultipleBoxesParams(Params):
    boxes_per_patron: Annotated[int, Field(ge=1)] | None = 1  # None: no limit


@check("pai-gow.wager.multiple-boxes", "wager.not-eligible", MultipleBoxesParams, game=GAME, needs=("stakes",))
def multiple_boxes(coup: RoundState, params: MultipleBoxesParams, table):
    """A patron plays more than one box only as far as the licensee permits (the table's ``boxes_per_patron``,
    else the house default)."""
    limit = table.boxes_per_patron if table.boxes_per_patron is not None else params.boxes_per_patron
    if limit is None:
        return ()
    played: dict[str, list[int]] = {}
    out = []
    for ch in coup.changes:
        if ch.kind != "wager" or ch.patron is None:
            continue
        boxes = played.setdefault(ch.patron, [])
        if ch.box in boxes:
            continue
        boxes.append(ch.box)
        if len(boxes) > limit:
            listed = ", ".join(str(b) for b in boxes)
            out.append(Breach(ch.at, f"{ch.patron} wagers in box {ch.box} and so plays {len(boxes)} boxes ({listed}); "
                                     f"the licensee permits {limit} a patron"))
    return out


# ------------------------------------------------------------------ hands


@check("pai-gow.hands.foul", "irregularity.mishandled", game=GAME, needs=("cards", "values"))
def foul(coup: RoundState, params, table):
    """The five-card hand must outrank the two-card hand.  A player's foul is reported as handled (info): the
    hands are set again, or the fouled hand loses (the settlement rule judges that).  The dealer sets the
    dealer's hands by the house way: a dealer's hand left fouled is an error, and no wager of the round can
    be settled by comparing hands."""
    out = []
    for position, settings in coup.settings.items():
        for st in settings:
            high, low = st.values()
            if not fouled(high, low):
                continue
            what = (f"{describe_position(position)}'s two-card hand ({describe(low)}) outranks its five-card hand "
                    f"({describe(high)}): a foul")
            if st is not settings[-1]:
                out.append(Breach(st.at, what + "; the hands were set again", "info"))
            elif position == DEALER:
                out.append(Breach(st.at, what + ", left standing"))
            else:
                out.append(Breach(st.at, what + "; a fouled hand loses", "info"))
    return out


# ------------------------------------------------------------------ settlement: 10-9-4(b), section 6


class SettlementParams(Params):
    odds: Annotated[Decimal, Field(gt=0)] = Decimal(1)  # paid to 1 on a winning wager (section 6)
    commission: Rate = Decimal("0.05")  # share of the winnings the house keeps
    wheel: Wheel = "second_highest"  # where the ace-to-five straight ranks
    surrender_keeps: Rate = Decimal("0.5")  # share of a surrendered wager the house keeps


def _judgeable(coup: RoundState, box: int) -> bool:
    """The outcome can be told from the cards: the round is void, or both sides' hands are set from the cards
    they were dealt (the dealer's without a foul).  Otherwise the foul or deck finding is the one finding."""
    if coup.void is not None:
        return True
    dealer = coup.setting(DEALER)
    return (dealer is not None and not dealer.fouled and coup.setting(box) is not None
            and DEALER not in coup.miscounted and box not in coup.miscounted)


def due(coup: RoundState, box: int, stake: Decimal, params: SettlementParams, table) -> Due:
    """What a box's wager is owed by 10-9-4(b) and the house's payout."""
    if coup.void is not None:
        return Due("push", ZERO, ZERO, "the round is void: every wager is returned")
    ph, pl = coup.setting(box).values(params.wheel)
    dh, dl = coup.setting(DEALER).values(params.wheel)
    if fouled(ph, pl):
        return Due("lose", stake, ZERO, f"the box's hands are fouled ({describe(pl)} over {describe(ph)})")
    result = outcome(ph, pl, dh, dl)
    why = f"{describe(ph)} against {describe(dh)}, {describe(pl)} against {describe(dl)}"
    if result != "win":
        return Due(result, stake if result == "lose" else ZERO, ZERO, why)
    rate = table.commission if table.commission is not None else params.commission
    why += f": pays {table.money(params.odds)} to 1" + (f" less {table.money(rate * 100)}% commission" if rate else "")
    return Due("win", stake * params.odds, stake * params.odds * rate, why)



def _money(coup: RoundState, table, box: int, expected: Decimal, paid: Decimal) -> Money:
    """What a wrong settlement of ``box`` was worth (findings.Money): the patron named where recorded."""
    player = coup.players.get(box)
    return Money(expected, paid, table.currency, bounded_name(player) if player else f"box {box}")


@check("pai-gow.settlement.amount", "settlement.wrong-amount", SettlementParams, game=GAME,
       needs=("cards", "values", "stakes", "settlements"))
def wrong_amount(coup: RoundState, params: SettlementParams, table):
    """Each wager is settled as 10-9-4(b) says: both hands higher than the dealer's wins the house's payout
    (section 6), one hand each is a push with the wager returned, otherwise the wager loses; a copy hand goes
    to the dealer.  Commission is kept from the winnings or collected apart; a surrender keeps the house's
    share of the wager."""
    basis = settlement_basis(coup)
    commission_by: dict[int, list] = {}
    for cm in coup.commissions:
        commission_by.setdefault(cm.box, []).append(cm)
    owed_by: dict[int, tuple[Due | None, bool]] = {}
    out = []
    seen = set()
    for s in coup.settlements:
        if s.box in seen:
            continue  # settled twice: settlement.missing's finding
        seen.add(s.box)
        who = f"{coup.describe_box(s.box)} wager"
        stake = basis.get(s.box)
        if stake is None:
            out.append(Breach(s.at, f"{who} is settled ({s.outcome} {table.money(s.amount)}) but no wager stands in it",
                              money=_money(coup, table, s.box, ZERO, value_to_patron(s.outcome, s.amount))))
            continue
        if not _judgeable(coup, s.box):
            continue
        d = due(coup, s.box, stake, params, table)
        expect = d.net if d.outcome == "win" else d.gross
        gross_paid = s.outcome == d.outcome == "win" and bool(d.commission) and s.amount == d.gross
        wrong = not (gross_paid and commission_by.get(s.box)) and (s.outcome != d.outcome or s.amount != expect)
        owed_by[s.box] = (d, gross_paid, wrong)
        if wrong:
            out.append(Breach(s.at, f"{who} of {table.money(stake)} should be {d.outcome} {table.money(expect)} ({d.why}); "
                                    f"it was settled {s.outcome} {table.money(s.amount)}",
                              money=_money(coup, table, s.box, value_to_patron(d.outcome, expect),
                                           value_to_patron(s.outcome, s.amount))))
    for box, paid in commission_by.items():
        if not _judgeable(coup, box):
            continue
        d, gross_paid, wrong = owed_by.get(box, (None, False, False))
        if wrong:
            continue  # the settlement's finding says what was due; its commission is part of that one mistake
        owed = d.commission if d is not None and d.outcome == "win" else ZERO
        for cm in paid:
            if not owed:
                out.append(Breach(cm.at, f"commission of {table.money(cm.amount)} collected from {coup.describe_box(box)}, "
                                         "which has no winning wager that owes commission",
                                  money=_money(coup, table, box, ZERO, -cm.amount)))
            elif cm.amount != owed or not gross_paid:
                out.append(Breach(cm.at, f"commission collected from {coup.describe_box(box)} is {table.money(cm.amount)}; "
                                         f"{table.money(owed)} is due on winnings of {table.money(d.gross)} paid in full",
                                  money=_money(coup, table, box, -owed if gross_paid else ZERO, -cm.amount)))
    for s in coup.surrenders:
        if not s.stake:
            out.append(Breach(s.at, f"{coup.describe_box(s.box)} surrenders, but no wager stands in it",
                              money=_money(coup, table, s.box, ZERO, -s.amount)))
        elif s.amount != s.stake * params.surrender_keeps:
            out.append(Breach(s.at, f"{coup.describe_box(s.box)} surrendered a wager of {table.money(s.stake)}: the house "
                                    f"keeps {table.money(s.stake * params.surrender_keeps)}, it kept {table.money(s.amount)}",
                              money=_money(coup, table, s.box, -(s.stake * params.surrender_keeps), -s.amount)))
    return out


def _payout_terms(table) -> SettlementParams | None:
    """The payout terms the table's ruleset settles by: the parameters of its rule of wrong settlements
    (``pai-gow.settlement.amount``); None where it has no such rule."""
    return next((r.params for r in table.ruleset.rules if r.check == "pai-gow.settlement.amount"), None)


def _never_settled(coup: RoundState, table, box: int, stake: Decimal) -> Money | None:
    """What a wager never settled was worth: what it was owed by the payout terms of the ruleset's settlement
    rule, paid nothing (a losing wager's stake never collected favours the patron).  None where that cannot
    be told: the ruleset settles by no such rule, or the hands do not decide the round."""
    terms = _payout_terms(table)
    if terms is None or not _judgeable(coup, box):
        return None
    d = due(coup, box, stake, terms, table)
    return _money(coup, table, box, value_to_patron(d.outcome, d.net if d.outcome == "win" else d.gross), ZERO)


@check("pai-gow.settlement.missing", "settlement.missing", game=GAME, needs=("stakes", "settlements"))
def missing(coup: RoundState, params, table):
    """Every wager standing when the round is settled is settled exactly once (a surrendered wager is ended)."""
    counts: dict[int, list] = {}
    for s in coup.settlements:
        counts.setdefault(s.box, []).append(s)
    out = []
    for box, stake in sorted(settlement_basis(coup).items()):
        if box not in counts:
            out.append(Breach(coup.last_event, f"{coup.describe_box(box)} wager of {table.money(stake)} was never settled",
                              money=_never_settled(coup, table, box, stake)))
    for box, settled in counts.items():
        if len(settled) > 1:
            paid = sum((value_to_patron(s.outcome, s.amount) for s in settled[1:]), ZERO)  # the first: the amount's
            out.append(Breach(settled[1].at, f"{coup.describe_box(box)} wager is settled {len(settled)} times",
                              money=_money(coup, table, box, ZERO, paid)))
    return out


# ------------------------------------------------------------------ the deck


@check("pai-gow.deck.integrity", "shoe.integrity", game=GAME, needs=("cards",))
def deck_integrity(coup: RoundState, params, table):
    """The round's cards fit its one deck of 52 cards and a joker: no card twice, seven cards a position, and
    each position's hands made of exactly the cards it was dealt."""
    return [Breach(at, message) for at, message in coup.integrity]
