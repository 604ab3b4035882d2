"""Wagers: when they may be placed, by whom, how much."""

from __future__ import annotations

import difflib
from decimal import Decimal
from fractions import Fraction
from typing import Annotated, Literal

from pydantic import Field

from compliance.checks import Breach, Params
from compliance.evidence import Unknown
from compliance.games.baccarat.checks.register import check
from compliance.games.baccarat.replay import BANKER, HAND, PLAYER, ZERO, CoupState, describe_bettor, side_totals
from compliance.games.baccarat.table import OUT_OF_FORCE, describe_spots


class LateParams(Params):
    after_reconstruction: Literal["late", "misdeal_rule"] = "late"
    """a wager placed or increased after a reconstruction: a late wager, or left to the misdeal rule where
    the rules say what patrons may do with their wagers after a reconstruction (one finding, not two)"""


@check("wager.late", "wager.late", LateParams, needs=("wagers", "cards"),
       partly={("wagers",): 'a wager placed or increased after "no more bets", without the cards'})
def late(coup: CoupState, params: LateParams, table):
    """No wager is placed or increased after "no more bets" is called or after the first card is dealt."""
    found = _after_the_call(coup, params, _put_up)
    return [Breach(ch.at, f"{describe_bettor(ch.bettor)} {ch.spot} wager "
                          + ("placed" if ch.kind == "wager" else f"increased from {table.money(ch.before)} to")
                          + f" {table.money(ch.after)} {when}") for ch, when in found]


@check("wager.taken-down", "wager.improper-reduction", LateParams, needs=("wagers", "cards"),
       partly={("wagers",): 'a wager withdrawn or reduced after "no more bets", without the cards'})
def taken_down(coup: CoupState, params: LateParams, table):
    """Where the rules say a wager stands as made once "no more bets" is called or the first card is out, none
    is withdrawn or reduced (a reduction for the table differential is the reduction rule's, and a wager taken
    down once the coup is declared void is returned with it)."""
    void_at = coup.void_at if coup.void is not None else None
    found = _after_the_call(coup, params, lambda ch: _taken_down(ch) and (void_at is None or ch.at < void_at))
    return [Breach(ch.at, f"{describe_bettor(ch.bettor)} {ch.spot} wager of {table.money(ch.before)} "
                          + ("withdrawn" if not ch.after else f"reduced to {table.money(ch.after)}") + f" {when}")
            for ch, when in found]


def _put_up(ch) -> bool:
    return ch.kind == "wager" or ch.after > ch.before


def _taken_down(ch) -> bool:
    """Withdrawn or reduced; a reduction for the table differential is the reduction rule's."""
    return ch.kind == "wager_adjust" and ch.after < ch.before and ch.reason != "table_differential"


def _after_the_call(coup: CoupState, params: LateParams, judged) -> list[tuple]:
    """(change, "after ...") of each change ``judged`` picks that came after "no more bets" or the first card,
    but those the misdeal rule judges (after a reconstruction, where the rules say so).  Raises Unknown where only
    the cards, not recorded, would tell."""
    out = []
    unknown = None  # a change that is late only if it came after the first card, where the cards were not recorded
    try:
        _ = coup.first_card_at  # where the cards were recorded, each change's place against the first card is known
        cards = True
    except Unknown as e:  # (a change after "no more bets" is late whatever the cards)
        cards, unknown_cards = False, e
    after = (coup.reconstruct_at if cards and params.after_reconstruction == "misdeal_rule" and coup.reconstruct_at is not None
             else None)
    for ch in coup.changes:
        if not judged(ch) or (after is not None and ch.at > after):
            continue
        if not (ch.after_no_more_bets or ch.after_first_card):
            if not cards:
                unknown = unknown_cards  # after the first card? the cards were not recorded
            continue  # (the usual change, made before either, is not late)
        out.append((ch, "after the first card" if ch.after_first_card else "after \"no more bets\""))
    if unknown is not None and not out:
        raise unknown
    return out


# ------------------------------------------------------------------ who may wager


class EligibleWagerParams(Params):
    standing: bool = True
    """a patron who is not seated may wager"""
    no_bet_coup: bool = False
    """wagers are allowed in a no bet coup"""


@check("wager.not-eligible", "wager.not-eligible", EligibleWagerParams, needs=("stakes",))
def not_eligible(coup: CoupState, params: EligibleWagerParams, table):
    """No wager is placed where wagering is not allowed: by a patron who is not seated where only seated
    patrons may wager, or in a no bet coup."""
    if params.standing and (params.no_bet_coup or not coup.no_bet):
        return ()
    out = []
    wagers = [ch for ch in coup.changes if ch.kind == "wager"]
    if coup.no_bet and not params.no_bet_coup:
        if wagers:
            out.append(Breach(wagers[0].at, f"{describe_bettor(wagers[0].bettor)} placed a {wagers[0].spot} wager "
                                            "in a no bet coup, where no wager is allowed"))
    if not params.standing:
        seen = set()
        for ch in wagers:
            standing = isinstance(ch.bettor, str) or not coup.occupied(ch.bettor)
            if standing and ch.bettor not in seen:
                seen.add(ch.bettor)
                where = "is not seated" if isinstance(ch.bettor, str) else "is not an occupied seat"
                out.append(Breach(ch.at, f"{describe_bettor(ch.bettor)} {where}, and only seated patrons may wager"))
    return out


# ------------------------------------------------------------------ limits


class LimitParams(Params):
    spots: list[Annotated[str, Field(pattern=r"^[a-z][a-z0-9_]{0,39}$")]] | None = None
    """the spots the table's minimum and maximum apply to (default: every spot whose declaration says the
    table limits apply to it); a spot's own posted limits (``table.limits.spots``) always apply to it"""
    unrejected_valid: bool = False
    """a wager outside the limits that was not rejected before the first card stands as a valid wager:
    it is reported (the rule's severity), but the coup is settled on it"""


def _last_changes(coup: CoupState) -> dict[tuple, int]:
    """(bettor, spot) -> the event of the last change to that wager before the first card."""
    last = {}
    for ch in coup.changes:
        if coup.first_card_at is None or ch.at < coup.first_card_at:
            last[(ch.bettor, ch.spot)] = ch.at
    return last


def _limits(table, params: LimitParams) -> dict[str, tuple]:
    """spot -> (minimum, maximum, whose) that apply to its wagers: its own posted limits, else the table's
    (worked out once for a table and the rule's parameters)."""
    key = ("wager.limits", id(params))
    found = table.memo.get(key)
    if found is None:
        found = table.memo[key] = {}
        for spot, s in table.spots.items():
            own = table.spot_limits.get(spot)
            if own is not None:
                found[spot] = (own[0], own[1], s.title)
            elif (spot in params.spots) if params.spots is not None else s.table_limits:
                found[spot] = (table.min_wager, table.max_wager, "table")
            else:
                found[spot] = (None, None, "")
    return found


@check("wager.limits", "wager.limits", LimitParams, needs=("stakes",))
def limits(coup: CoupState, params: LimitParams, table):
    """Every wager, as it stands at the first card, is at least the minimum and at most the maximum posted
    for it: the table's (the limits of the transcript's header), or its spot's own where the header posts them."""
    if table.min_wager is None and table.max_wager is None and not table.spot_limits:
        return ()
    bounds = _limits(table, params)
    for (_, spot), a in coup.stakes_at_first_card.items():
        low, high, _ = bounds[spot]
        if (low is not None and a < low) or (high is not None and a > high):
            break
    else:
        return ()
    out = []
    valid = "; not rejected before the first card, it stands as a valid wager" if params.unrejected_valid else ""
    last = _last_changes(coup)
    at = {key: last.get(key, coup.first_card_at) for key in coup.stakes_at_first_card}
    for key in sorted(coup.stakes_at_first_card, key=lambda k: at[k] or 0):
        bettor, spot = key
        amount = coup.stakes_at_first_card[key]
        low, high, whose = bounds[spot]
        if low is not None and amount < low:
            limit = f"below the {whose} minimum of {table.money(low)}"
        elif high is not None and amount > high:
            limit = f"above the {whose} maximum of {table.money(high)}"
        else:
            continue
        out.append(Breach(at[key], f"{describe_bettor(bettor)} {spot} wager of {table.money(amount)} is {limit}{valid}"))
    return out


# ------------------------------------------------------------------ what a spot requires


@check("wager.limits-unoffered", "wager.limits", scope="transcript")
def limits_unoffered(header, params, table):
    """The header posts limits (``table.limits.spots``) only for spots the table offers: limits for any other
    name judge no wager, as a wager on such a spot makes its coup unreadable.  Each is reported once, and the
    transcript is judged all the same (the table's own limits, and each offered spot's)."""
    if not table.unoffered_limits:
        return ()
    offers = describe_spots(table.spots, table.ruleset.id, table.game)
    return [Breach(None, f"table.limits.spots posts limits for {name!r}, which this table does not offer ({offers}): "
                         "they apply to no wager" + _did_you_mean(name, table.spots)) for name in table.unoffered_limits]


def _did_you_mean(name: str, spots) -> str:
    close = difflib.get_close_matches(name, list(spots), n=1)
    return f"; did you mean {close[0]!r}?" if close else ""


@check("wager.spot-requirement", "wager.not-eligible", needs=("stakes",))
def spot_requirement(coup: CoupState, params, table):
    """A wager on a spot that requires another wager (a side wager only beside a main wager) stands, at the
    first card, beside a wager of the same bettor on one of the spots it names, and, where the spot says so,
    is no larger than that wager."""
    requiring = table.requiring
    if not requiring:
        return ()
    out = []
    stakes = coup.stakes_at_first_card
    doubtful = {bettor for bettor, _ in coup.doubtful}  # a wager of theirs recorded twice, differently: not known
    for (bettor, spot), amount in stakes.items():
        if spot not in requiring:
            continue
        if bettor in doubtful:
            continue
        needs = table.spots[spot].requires
        beside = [stakes[(bettor, other)] for other in needs.wager_on if (bettor, other) in stakes]
        if beside and (not needs.at_most or amount <= max(beside)):
            continue  # the usual side wager: beside its main wager, within it
        at = _last_changes(coup).get((bettor, spot), coup.first_card_at)
        names = " or ".join(table.spots[x].title if x in table.spots else x for x in needs.wager_on)
        if not beside:
            out.append(Breach(at, f"{describe_bettor(bettor)} {spot} wager of {table.money(amount)} stands without a "
                                  f"wager on {names} beside it, which the {table.spots[spot].title} wager requires"))
        else:
            out.append(Breach(at, f"{describe_bettor(bettor)} {spot} wager of {table.money(amount)} is larger than the "
                                  f"{table.money(max(beside))} wagered on {names} beside it, its limit"))
    out.sort(key=lambda b: b.event if b.event is not None else -1)
    if not out and any(bettor in doubtful and spot in requiring for bettor, spot in stakes):
        raise Unknown("stakes")  # a side wager beside a main wager the record leaves doubtful
    return out


# ------------------------------------------------------------------ a spot not in force on the coup's day


@check(OUT_OF_FORCE, "wager.spot-not-in-force", when=("out_of_force",))
def spot_not_in_force(coup: CoupState, params, table):
    """A wager on a spot the ruleset's history has, but not on the day the coup was dealt (an amendment that
    adds it not yet in force, or one that removed it; an option the house's submission did not select then), is
    a finding that cites the amendment's register notice, or the option's paragraph and the house's submission.
    The wager is left out of the coup's stakes and its settlement is not judged; the rest of the coup is."""
    notes, cites = table.ruleset.spot_notes, table.ruleset.spot_cites
    wagered = {(bettor, spot) for _, kind, bettor, spot in coup.out_of_force if kind != "settle"}
    out = []
    for at, kind, bettor, spot in coup.out_of_force:
        if kind == "settle":
            if (bettor, spot) in wagered:
                continue  # the wager's own finding says its settlement is not judged
            what = f"{describe_bettor(bettor)} {spot} wager is settled"
        else:
            what = f"{describe_bettor(bettor)} {'wagers' if kind == 'wager' else 'changes a wager'} on {spot}"
        out.append(Breach(at, f"{what}, a spot the rules in force on the coup's day do not have: "
                              f"{notes.get(spot, 'not offered then')}; the wager is left out of the coup's stakes "
                              "and its settlement is not judged", citation=cites.get(spot)))
    return out


# ------------------------------------------------------------------ table differential


def _differential(staked: dict[str, Decimal]) -> Decimal:
    return abs(staked[PLAYER] - staked[BANKER])


@check("wager.table-differential", "wager.table-differential", needs=("stakes", "cards"),
       partly={("stakes",): "the wagers as they stood at the deal, in a coup shown to be dealt (a call made, or "
                            "its result announced) without its cards"})
def table_differential(coup: CoupState, params, table):
    """At the first card, the totals wagered on the Player's Hand and on the Banker's Hand differ by no
    more than the table differential."""
    if table.table_differential is None:
        return ()
    try:
        first = coup.first_card_at
    except Unknown as e:  # the cards not recorded: judged on the wagers as they stood at the deal
        first, unknown = -1, e
    else:
        unknown = None
    if first is None:
        return ()
    player = banker = ZERO  # the totals on each side: the spots whose declaration counts them there
    sides = table.sides
    for (_, spot), amount in coup.whole_stakes().items():
        side = sides.get(spot)
        if side == PLAYER:
            player += amount
        elif side == BANKER:
            banker += amount
    diff = abs(player - banker)
    if diff <= table.table_differential:
        return ()
    if unknown is not None:
        first = _dealt_at(coup, unknown)  # over the limit, where the coup is shown to have been dealt
    reduced = any(ch.reason == "table_differential" for ch in coup.changes)
    return (Breach(first if first >= 0 else None,
                   f"at the first card the Player's Hand had {table.money(player)} and the Banker's Hand "
                   f"{table.money(banker)}: a difference of {table.money(diff)}, over the table differential of "
                   f"{table.money(table.table_differential)}"
                   + ("; the reduction made did not bring it within the limit" if reduced else "")),)


def _dealt_at(coup: CoupState, unknown: Unknown) -> int:
    """Where a coup whose cards were not recorded was dealt: at its "Cards" call if one was recorded (-1: dealt,
    where not known: a call made, or its result announced); Unknown where nothing recorded shows it was dealt."""
    for lookup in (lambda: coup.calls, lambda: [] if coup.result is None else [("result", -1)]):
        try:
            found = lookup()
        except Unknown:
            continue
        if found:
            return next((at for call, at in found if call == "cards"), -1)
    raise unknown


class ReductionParams(Params):
    unit: Decimal = Field(default=Decimal(1), gt=0)
    """the currency unit a reduced wager is rounded to"""


def _unit_choices(exact: Fraction, unit: Decimal) -> tuple[Decimal, Decimal]:
    """The multiples of ``unit`` just below and just above ``exact`` (the same where it is one)."""
    units = exact / Fraction(unit)
    down = units.numerator // units.denominator
    up = -(-units.numerator // units.denominator)
    return Decimal(down) * unit, Decimal(up) * unit


@check("wager.improper-reduction", "wager.improper-reduction", ReductionParams, needs=("wagers",))
def improper_reduction(coup: CoupState, params: ReductionParams, table):
    """Wagers reduced for the table differential are reduced before the first card, only on the side that
    exceeded it, and pro rata: every wager on that side by the same proportion (to the currency unit),
    just enough to bring the difference within the table differential."""
    cuts = [ch for ch in coup.changes if ch.kind == "wager_adjust" and ch.reason == "table_differential"]
    if not cuts:
        return ()
    out = []
    late = [ch for ch in cuts if ch.after_first_card]
    if late:
        out.append(Breach(late[0].at, f"{describe_bettor(late[0].bettor)} {late[0].spot} wager was reduced for the "
                                      "table differential after the first card"))
        cuts = [ch for ch in cuts if not ch.after_first_card]
        if not cuts:
            return out
    before = coup.stakes_before(cuts[0].at)
    totals = side_totals(before, table.spots)
    limit = table.table_differential
    diff = _differential(totals)
    if limit is None or diff <= limit:
        why = "the table has no table differential" if limit is None else \
            f"the difference of {table.money(diff)} was within the table differential of {table.money(limit)}"
        out.append(Breach(cuts[0].at, f"wagers were reduced for the table differential, but {why}"))
        return out
    side = PLAYER if totals[PLAYER] > totals[BANKER] else BANKER
    other = BANKER if side == PLAYER else PLAYER
    wrong = [ch for ch in cuts if table.spots[ch.spot].differential != side]
    if wrong:
        out.append(Breach(wrong[0].at, f"{describe_bettor(wrong[0].bettor)} {wrong[0].spot} wager was reduced, but "
                                       f"the {HAND[side]} exceeded the table differential "
                                       f"({table.money(totals[side])} against {table.money(totals[other])})"))
        return out
    target = totals[other] + limit
    ratio = Fraction(target) / Fraction(totals[side])  # exact: a wager's share is never rounded before its unit
    now = coup.stakes_before(cuts[-1].at + 1)
    last_cut = {(ch.bettor, ch.spot): ch.at for ch in cuts}
    for key in sorted((k for k in before if table.spots[k[1]].differential == side), key=lambda k: last_cut.get(k, cuts[0].at)):
        old = before[key]
        new = now.get(key, ZERO)
        exact = Fraction(old) * ratio
        choices = _unit_choices(exact, params.unit)
        if new in choices:
            continue
        want = table.money(choices[0]) if choices[0] == choices[1] else f"{table.money(choices[0])} or {table.money(choices[1])}"
        out.append(Breach(last_cut.get(key, cuts[0].at),
                          f"{describe_bettor(key[0])} {side} wager of {table.money(old)} was "
                          + (f"reduced to {table.money(new)}" if key in last_cut else "not reduced")
                          + f"; pro rata it becomes {want} (the {side.capitalize()}'s total of "
                            f"{table.money(totals[side])} comes down to {table.money(target)})"))
    return out
