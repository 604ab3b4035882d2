"""The curator and the passing of the cards: who is offered the shoe or the Banker marker,
who may hold them, who turns each hand's cards, and how the cards are handled.

Seat geometry comes only from the table: ``seat_order`` lists the seats counter-clockwise
from the one nearest the dealer's right, so the regulations' "nearest the dealer's right"
and "next counter-clockwise" are positions in that list, and "lowest numbered seat" is the
seat number.  A tie between equal wagers is broken by the rule's ``tie_break``.  A record
holding no offer or passing of the cards is not reported for them, unless the rule says
the cards must be passed (``must_pass``).
"""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal
from typing import Literal

from compliance.checks import Breach, Params
from compliance.games.baccarat.checks.register import check
from compliance.games.baccarat.replay import BANKER, HAND, PLAYER, ZERO, CoupState
from compliance.games.baccarat.table import TableContext

TieBreak = Literal["seat_order", "lowest_number"]
ITEM = {"shoe": "shoe", "banker_marker": "Banker marker"}


# ------------------------------------------------------------------ shared helpers


def tie_key(table: TableContext, tie_break: str):
    """Sort key of a seat among equal wagers."""
    return table.rank if tie_break == "seat_order" else (lambda seat: seat)


def counter_clockwise_from(table: TableContext, seat: int, include: bool = True, among=None) -> Sequence[int]:
    """The seats of the table (or those ``among`` them) counter-clockwise, starting at ``seat`` (or just after it)."""
    return table.counter_clockwise(among, seat, include)


#: a message lists at most this many seats, then says how many more
LISTED = 20


def _listed(seats: Sequence[int], start: int = 0) -> str:
    """``seat 3, seat 5, ...``: the seats from position ``start``, at most LISTED of them."""
    shown = ", ".join(f"seat {s}" for s in seats[start:start + LISTED])
    more = len(seats) - start - LISTED
    return f"{shown} and {more:,} more" if more > 0 else shown


def seat_wagers(stakes: dict, spots) -> dict[int, Decimal]:
    """The largest amount each seat has on one of ``spots`` (standing patrons have no seat)."""
    out: dict[int, Decimal] = {}
    for (bettor, spot), amount in stakes.items():
        if isinstance(bettor, int) and spot in spots and amount > out.get(bettor, ZERO):
            out[bettor] = amount
    return out


def ranked_by_wager(wagers: dict[int, Decimal], table: TableContext, tie_break: str) -> list[int]:
    """Seats by wager, highest first; equal wagers by the tie-break."""
    key = tie_key(table, tie_break)
    return sorted(wagers, key=lambda s: (-wagers[s], key(s)))


def _wager_text(table: TableContext, wagers: dict[int, Decimal], seat: int) -> str:
    amount = wagers.get(seat)
    return f"seat {seat} (wager {table.money(amount)})" if amount is not None else f"seat {seat} (no wager on it)"


# ------------------------------------------------------------------ offers


class OfferParams(Params):
    item: Literal["shoe", "banker_marker"] = "shoe"
    """what is offered"""
    first: Literal["seat_number", "dealer_right", "lowest_numbered_wager", "highest_wager"] = "dealer_right"
    """who is offered first: a fixed seat number (``first_seat``), the seat nearest the dealer's right, the
    lowest-numbered seat with a wager, or the highest wager"""
    first_seat: int | None = None
    """for ``first: seat_number``"""
    first_applies: Literal["always", "first_of_shoe"] = "always"
    """``first_of_shoe``: the first offer is prescribed only when the item is first offered in a shoe
    (the beginning of play); later offer rounds are judged only for going on counter-clockwise"""
    after_holder: bool = False
    """when someone held the item before, the offers start with the seat after the last holder"""
    order: Literal["counter_clockwise", "highest_wager"] = "counter_clockwise"
    """after a refusal: the next occupied seat counter-clockwise, or the next highest wager"""
    candidates: Literal["seated", "seated_with_wager"] = "seated"
    """who may be offered: every seated patron, or only seated patrons with a wager"""
    wager_spots: list[Literal["player", "banker", "tie"]] = ["player", "banker", "tie"]
    """the spots a wager counts on, for ``seated_with_wager`` and ``highest_wager``"""
    tie_break: TieBreak = "lowest_number"
    every_coup: bool = False
    """the item is offered at the start of every coup"""
    move_on_banker_loss: bool = False
    """after a coup the Banker's Hand lost, the item is offered on"""


def _offer_rounds(coup: CoupState, item: str) -> list[list]:
    """The offers of one item, in rounds: a round ends with the offer that was accepted."""
    rounds, current = [], []
    for o in coup.offers:
        if o.item != item:
            continue
        current.append(o)
        if o.accepted:
            rounds.append(current)
            current = []
    if current:
        rounds.append(current)
    return rounds


def _expected_order(coup: CoupState, params: OfferParams, table: TableContext, at: int, holder: int | None,
                    prescribed_start: bool, first_offered: int) -> tuple[Sequence[int], dict[int, Decimal]]:
    """The seats in the order the rules offer them, for a round starting at event ``at``."""
    wagers = seat_wagers(coup.stakes_before(at), params.wager_spots)
    if not wagers and (params.candidates == "seated_with_wager" or params.order == "highest_wager"):
        wagers = seat_wagers(coup.whole_stakes(), params.wager_spots)  # offered before the wagers were recorded
    # who may be offered: the seated patrons; when the record does not say who is seated, every seat of the
    # table (None: never listed, the table's seats may be many)
    cands = set(coup.seated) if coup.seated else None
    if params.candidates == "seated_with_wager" or params.order == "highest_wager":
        cands = {s for s in wagers if (s in cands if cands is not None else table.has_seat(s))}
    if params.order == "highest_wager":
        return ranked_by_wager({s: wagers[s] for s in cands}, table, params.tie_break), wagers
    if params.after_holder and holder is not None:
        ring = counter_clockwise_from(table, holder, include=False, among=cands)
    elif not prescribed_start:
        ring = counter_clockwise_from(table, first_offered, among=cands)
    elif params.first == "seat_number" and params.first_seat is not None:
        ring = counter_clockwise_from(table, params.first_seat, among=cands)
    elif params.first == "lowest_numbered_wager":
        with_wager = [s for s in wagers if (s in cands if cands is not None else table.has_seat(s))]
        ring = counter_clockwise_from(table, min(with_wager), among=cands) if with_wager else table.counter_clockwise(cands)
    else:
        ring = table.counter_clockwise(cands)
    return ring, wagers


def _describe_first(params: OfferParams) -> str:
    if params.order == "highest_wager":
        return "the highest wager first, then the next highest" + (
            " (equal wagers: lowest-numbered seat first)" if params.tie_break == "lowest_number"
            else " (equal wagers: nearest the dealer's right first)")
    start = {"seat_number": f"seat {params.first_seat}", "dealer_right": "the seat nearest the dealer's right",
             "lowest_numbered_wager": "the lowest-numbered seat with a wager",
             "highest_wager": "the highest wager"}[params.first]
    return f"from {start}, then counter-clockwise"


@check("curator.offer-order", "curator.offer-order", OfferParams, needs=("offers", "stakes", "cards"))
def offer_order(coup: CoupState, params: OfferParams, table: TableContext):
    """The shoe (or the Banker marker) is offered in the order the rules give, seat after seat until one
    accepts: from the prescribed first seat, then counter-clockwise (or by wager), skipping no entitled
    patron and offering no one else; a round that ends with every offer declined must have reached
    every entitled patron."""
    out = []
    holder = coup.marker_at_start if params.item == "banker_marker" else coup.last_curator_at_start
    what = ITEM[params.item]
    rounds = _offer_rounds(coup, params.item)
    if params.move_on_banker_loss and not rounds and holder is not None and coup.first_card_at is not None:
        prev = coup.previous
        if prev is not None and prev.hands_complete and not prev.lacking and prev.void is None \
                and prev.winner() == PLAYER and prev.marker == holder:  # (not prev.lacking: no card of it unread)
            out.append(Breach(coup.first_card_at, f"the Banker's Hand lost in coup {prev.number} while seat {holder} held "
                                               f"the {what}, but the {what} was not offered on before this coup"))
    if params.every_coup and not rounds and coup.first_card_at is not None:
        wagers = seat_wagers(coup.whole_stakes(), params.wager_spots)
        if any(coup.occupied(s) for s in wagers):
            out.append(Breach(coup.first_card_at, f"the {what} was not offered at the start of the coup"))
    for n, rnd in enumerate(rounds):
        first_round_of_shoe = n == 0 and params.item not in coup.offered_before
        prescribed = params.first_applies == "always" or first_round_of_shoe
        before = coup.holder_at(params.item, rnd[0].at) if params.item == "banker_marker" else (
            holder if n == 0 else rounds[n - 1][-1].seat)
        order, wagers = _expected_order(coup, params, table, rnd[0].at, before if params.after_holder else None,
                                        prescribed, rnd[0].seat)
        rule = _describe_first(params) if prescribed or params.order == "highest_wager" else "counter-clockwise"
        for k, o in enumerate(rnd):
            expected = order[k] if k < len(order) else None
            if o.seat == expected:
                continue
            if expected is None:
                why = f"every entitled patron ({_listed(order) or 'none'}) had been offered it"
            else:
                why = f"seat {expected} was next ({rule})"
            out.append(Breach(o.at, f"the {what} was offered to seat {o.seat}; {why}"))
            break
        else:
            if not rnd[-1].accepted and len(rnd) < len(order):
                skipped = _listed(order, len(rnd))
                out.append(Breach(rnd[-1].at, f"after seat {rnd[-1].seat} declined the {what}, it was not offered "
                                              f"to {skipped} ({rule})"))
    return out


# ------------------------------------------------------------------ eligibility


class EligibleParams(Params):
    seated_only: bool = True
    """only a seated patron may hold the shoe or the Banker marker"""
    marker_holder_wagers_on: Literal["banker"] | None = None
    """the holder of the Banker marker must have a wager on this hand in every coup it holds it"""
    shoe_lost_when_wager_loses: bool = False
    """a curator whose wager lost gives up the shoe before the next coup"""


def _holders_at_play(coup: CoupState):
    """(item, seat, event) for every moment of the coup a patron acts with the shoe or the Banker marker:
    the shoe's holder as each card leaves the shoe, and each holder as a hand is passed or the first card
    dealt (the marker's holder plays the Banker's Hand of that coup)."""
    moments = sorted({card.at for _, card in coup.drawn if not card.carried_over}
                     | {ps.at for ps in coup.passes if ps.accepted})
    for at in moments:
        seat = coup.holder_at("shoe", at)
        if seat is not None:
            yield "shoe", seat, at
        seat = coup.holder_at("banker_marker", at)
        if seat is not None:
            yield "banker_marker", seat, at


@check("curator.not-eligible", "curator.not-eligible", EligibleParams, needs=("offers", "stakes", "cards"))
def not_eligible(coup: CoupState, params: EligibleParams, table: TableContext):
    """Only a patron allowed to do so holds the shoe or the Banker marker: a seated patron, with the
    wager the rules require of the holder, and not after the holder's wager lost where the rules take
    the shoe away then.  Being seated is judged in every coup the holder deals or plays a hand in, not
    only when the shoe or the marker is accepted: a holder who has left the seat (it is not among the
    coup's ``seated``) and goes on dealing is reported in each such coup."""
    out = []
    if params.seated_only:
        reported = set()
        for o in coup.offers:
            if o.accepted and not coup.occupied(o.seat):
                reported.add((o.item, o.seat))
                out.append(Breach(o.at, f"seat {o.seat} accepted the {ITEM[o.item]}, but no patron is seated there"))
        for item, seat, at in _holders_at_play(coup):
            if (item, seat) in reported or coup.occupied(seat):
                continue
            reported.add((item, seat))
            acts = "deals from it" if item == "shoe" else "plays the Banker's Hand"
            out.append(Breach(at, f"seat {seat} still holds the {ITEM[item]} and {acts}, but no patron is seated "
                                  f"there in this coup; only a seated patron may hold it"))
    if params.marker_holder_wagers_on and coup.first_card_at is not None:
        holder = coup.holder_at("banker_marker", coup.first_card_at)
        if params.seated_only and holder is not None and not coup.occupied(holder):
            holder = None  # a holder who is not seated is reported as such (one finding): it cannot wager there
        if holder is not None and not coup.whole_stakes().get((holder, params.marker_holder_wagers_on)):
            out.append(Breach(coup.first_card_at, f"seat {holder} holds the Banker marker but has no wager on the "
                                               f"{HAND[params.marker_holder_wagers_on]}"))
    if params.shoe_lost_when_wager_loses and coup.first_card_at is not None:
        prev = coup.previous
        if prev is not None and prev.curator is not None and prev.hands_complete and not prev.lacking \
                and prev.void is None:  # the previous coup's winner is known (no card of it unread)
            seat = prev.curator
            own = {spot: a for (b, spot), a in prev.whole_stakes().items() if b == seat and spot != "tie"}
            winner = prev.winner()
            if own and winner != "tie" and winner not in own and coup.holder_at("shoe", coup.first_card_at) == seat:
                out.append(Breach(coup.first_card_at, f"seat {seat}'s wager lost in coup {prev.number}, "
                                                   "yet it still holds the shoe"))
    return out


# ------------------------------------------------------------------ who turns the cards


Recipient = Literal["highest_wager", "curator", "marker", "dealer"]


class RecipientParams(Params):
    player: Recipient = "highest_wager"
    """who receives the Player's Hand: the highest wager on it, the curator, the Banker marker's holder,
    or no one (the dealer keeps it)"""
    banker: Recipient = "highest_wager"
    """who receives the Banker's Hand (same choices)"""
    tie_break: TieBreak = "seat_order"
    """among equal highest wagers, who comes first"""
    must_pass: bool = False
    """the hand must be passed to the entitled patron (the dealer may keep it only when no one is entitled
    or all refused); judged in coups that record passing the cards at all and are not void"""
    no_wager: Literal["dealer", "other_hand_bettor", "unjudged"] = "dealer"
    """with no wager on a hand: the dealer keeps it, or a patron with a wager on the other hand may turn it"""
    third_card: Literal["same_as_initial", "unjudged"] = "same_as_initial"
    """a third card goes to whoever accepted the hand's initial cards"""
    without_holder: Literal["dealer", "unjudged"] = "unjudged"
    """for a hand that goes to the curator or the marker's holder, when no one holds the shoe or marker:
    the dealer keeps the hand, or the record is not judged"""
    curator_plays: Literal["both", "one"] = "both"
    """where both hands name the curator: ``one``: the patron holding the shoe plays one of the two hands
    (either: which one may need an approval no transcript records) and the dealer plays the other, so a
    curator given the second hand too is a wrong recipient for it"""


def _first_wrong_pass(coup: CoupState, hand: str, who: str, params: RecipientParams, table: TableContext,
                      passes: list) -> tuple[Breach | None, int | None]:
    """Judge the passes of a hand's initial cards; (breach or None, seat that accepted)."""
    name = HAND[hand]
    if who == "dealer":
        if passes:
            return Breach(passes[0].at, f"the {name} was passed to seat {passes[0].seat}; "
                                        "under this dealing method the dealer keeps it"), None
        return None, None
    if who in ("curator", "marker"):
        item = "shoe" if who == "curator" else "banker_marker"
        for ps in passes:
            holder = coup.holder_at(item, ps.at)
            if holder is None:
                if params.without_holder == "dealer":
                    return Breach(ps.at, f"the {name} was passed to seat {ps.seat}, but no one holds the "
                                         f"{ITEM[item]}, so the dealer keeps it"), None
                return None, ps.seat if ps.accepted else None
            if ps.seat != holder:
                return Breach(ps.at, f"the {name} was passed to seat {ps.seat}; the {ITEM[item]} is held by "
                                     f"seat {holder}, who turns it"), None
            if ps.accepted:
                return None, ps.seat
        return None, None
    wagers = {s: a for s, a in seat_wagers(coup.whole_stakes(), (hand,)).items() if coup.occupied(s)}
    if not wagers:
        if not passes or params.no_wager == "unjudged":
            return None, next((ps.seat for ps in passes if ps.accepted), None)
        ps = passes[0]
        if params.no_wager == "dealer":
            return Breach(ps.at, f"no one has a wager on the {name}, so the dealer keeps it; "
                                 f"it was passed to seat {ps.seat}"), None
        other = BANKER if hand == PLAYER else PLAYER
        if not coup.whole_stakes().get((ps.seat, other)):
            # the house may let a bettor on the other hand turn it: a choice made wrongly is a warning
            return Breach(ps.at, f"no one has a wager on the {name}; the house may let only a patron with a wager "
                                 f"on the {HAND[other]} turn it, and seat {ps.seat} has none", "warning"), None
        return None, next((x.seat for x in passes if x.accepted), None)
    ranked = ranked_by_wager(wagers, table, params.tie_break)
    refused: list[int] = []
    for ps in passes:
        expected = next((s for s in ranked if s not in refused), None)
        if expected is None:
            return Breach(ps.at, f"every patron with a wager on the {name} had refused it, so the dealer keeps it; "
                                 f"it was passed to seat {ps.seat}"), None
        if ps.seat != expected:
            rank = "highest" if not refused else "next highest"
            tie = [s for s in ranked if wagers[s] == wagers[expected] and s != expected and s not in refused]
            why = f"{_wager_text(table, wagers, expected)} has the {rank} wager on it"
            if tie:
                why += (" and is nearest the dealer's right among the equal wagers" if params.tie_break == "seat_order"
                        else " and has the lowest seat number among the equal wagers")
            return Breach(ps.at, f"the {name} was passed to {_wager_text(table, wagers, ps.seat)}; {why}"), None
        if ps.accepted:
            return None, ps.seat
        refused.append(ps.seat)
    if params.must_pass and coup.passes and coup.void is None:
        expected = next((s for s in ranked if s not in refused), None)
        if expected is not None:
            at = passes[-1].at if passes else (coup.initial[-1][1].at if coup.initial else coup.first_card_at)
            return Breach(at, f"the dealer kept the {name}, but {_wager_text(table, wagers, expected)} was entitled "
                              "to turn it and had not refused"), None
    return None, None


def _curators_hand(coup: CoupState, params: RecipientParams) -> str | None:
    """Where the curator plays one hand only: the hand the curator took first (None if it took none)."""
    if params.curator_plays != "one" or params.player != "curator" or params.banker != "curator":
        return None
    for ps in coup.passes:
        if ps.cards == "initial" and ps.accepted and ps.seat == coup.holder_at("shoe", ps.at):
            return ps.hand
    return None


def _the_dealers_hand(coup: CoupState, hand: str, curators_hand: str,
                      passes: list) -> tuple[Breach | None, int | None]:
    """The hand the dealer plays, the curator having taken the other: passed to no one."""
    if not passes:
        return None, None
    ps = passes[0]
    curator = coup.holder_at("shoe", ps.at)
    if ps.seat == curator:
        why = (f"seat {ps.seat}, holding the shoe, already plays the {HAND[curators_hand]}; the patron with the "
               f"shoe plays one hand and the dealer the other")
    else:
        why = (f"the patron with the shoe plays the {HAND[curators_hand]} and the dealer plays this one")
    return Breach(ps.at, f"the {HAND[hand]} was passed to seat {ps.seat}; {why}"), None


@check("curator.wrong-recipient", "curator.wrong-recipient", RecipientParams,
       needs=("passes", "stakes", "cards"), when=("passes",))
def wrong_recipient(coup: CoupState, params: RecipientParams, table: TableContext):
    """Each hand's cards go to the patron entitled to turn them: the highest wager on that hand (equal
    wagers by the tie-break; after a refusal, the next entitled patron), or the curator or the marker's
    holder where the rules say so; with no wager on a hand, or after every refusal, the dealer keeps it
    (or, where the rules allow, a patron betting on the other hand turns it).  Where the patron holding the
    shoe plays one hand only, the dealer plays the other: passing it to anyone, the curator included, is a
    wrong recipient.  A third card goes to whoever accepted that hand's initial cards."""
    if coup.first_card_at is None or not coup.passes:
        return ()
    out = []
    curators_hand = _curators_hand(coup, params)
    for hand in (PLAYER, BANKER):
        initial = [ps for ps in coup.passes if ps.hand == hand and ps.cards == "initial"]
        who = getattr(params, hand)
        if curators_hand is not None and hand != curators_hand:
            breach, holder = _the_dealers_hand(coup, hand, curators_hand, initial)
        else:
            breach, holder = _first_wrong_pass(coup, hand, who, params, table, initial)
        if breach is not None:
            out.append(breach)
            continue
        if params.third_card == "unjudged":
            continue
        thirds = [x for x in coup.passes if x.hand == hand and x.cards == "third"]
        for ps in thirds:
            if ps.seat != holder:
                who = f"seat {holder}, who turned its initial cards" if holder is not None else \
                    "the dealer, who kept its initial cards"
                out.append(Breach(ps.at, f"the {HAND[hand]}'s third card was passed to seat {ps.seat}; "
                                         f"it goes to {who}"))
                break
        else:
            if params.must_pass and holder is not None and not thirds and coup.void is None:
                dealt = [x for x in coup.extra_cards(hand) if x.moved_from is None]
                if dealt:
                    out.append(Breach(dealt[0].at, f"the {HAND[hand]}'s third card {dealt[0].code} was kept by the "
                                                   f"dealer; it goes to seat {holder}, who turned its initial cards"))
    return out


# ------------------------------------------------------------------ handling


class HandlingParams(Params):
    one_hand_at_a_time: bool = False
    """only one hand's cards are out with the patrons at any time"""
    players_handle_cards: bool = True
    """false: no patron may be passed the cards (the dealer turns every card)"""
    shoe_to_players: bool = True
    """false: the dealer keeps the shoe; it is never offered to a patron"""
    instruction_call: Literal["cards"] | None = None
    """a curator deals only after this call of the dealer"""
    no_bet_coup_method: str | None = None
    """a no bet coup is dealt by this dealing method"""
    allowed_methods: list[str] | None = None
    """the dealing methods a coup may be dealt by (a coup that records none is not judged)"""
    player_hand_first: bool = False
    """where both hands are passed, the Player's Hand goes out before the Banker's"""


@check("curator.handling", "curator.handling", HandlingParams, needs=("passes", "offers", "calls", "cards"))
def handling(coup: CoupState, params: HandlingParams, table: TableContext):
    """Cards are handled as the dealing method allows: one hand out at a time where the rules say so;
    no patron touches the cards under a dealer-only method; the shoe stays with the dealer where the
    method says so; a curator deals only on the dealer's instruction; the Player's Hand goes out before
    the Banker's where the rules order them; a coup is dealt only by a method the rules allow, and a no
    bet coup by the method the rules prescribe for it."""
    out = []
    if params.allowed_methods is not None and coup.method is not None and coup.method not in params.allowed_methods:
        out.append(Breach(coup.first_card_at, f"the coup was dealt by method {coup.method}; the rules allow "
                                           f"{', '.join(params.allowed_methods)}"))
    if not coup.passes and not coup.offers and not coup.no_bet and coup.curator_at_start is None:
        return out
    if not params.players_handle_cards and coup.passes:
        ps = coup.passes[0]
        out.append(Breach(ps.at, f"the {HAND[ps.hand]} was passed to seat {ps.seat}; under dealing method "
                                 f"{coup.method} no patron handles the cards"))
    shoe_offers = [o for o in coup.offers if o.item == "shoe"]
    if not params.shoe_to_players and shoe_offers:
        o = shoe_offers[0]
        out.append(Breach(o.at, f"the shoe was offered to seat {o.seat}; under dealing method {coup.method} "
                                "the dealer keeps the shoe"))
    elif not params.shoe_to_players and coup.first_card_at is not None:
        # held since an earlier coup (dealt by a method that lets a patron hold it) and never given back
        curator = coup.holder_at("shoe", coup.first_card_at)
        if curator is not None:
            out.append(Breach(coup.first_card_at, f"seat {curator} still holds the shoe, given to it in an earlier "
                                               f"coup; under dealing method {coup.method} the dealer keeps the shoe"))
    if params.one_hand_at_a_time and params.players_handle_cards:
        out_with: dict[str, int] = {}
        returns = sorted(coup.returns)
        ri = 0
        for ps in coup.passes:
            while ri < len(returns) and returns[ri][0] < ps.at:
                out_with.pop(returns[ri][1], None)
                ri += 1
            if not ps.accepted:
                continue
            other = BANKER if ps.hand == PLAYER else PLAYER
            if other in out_with:
                out.append(Breach(ps.at, f"the {HAND[ps.hand]} was passed to seat {ps.seat} while the "
                                         f"{HAND[other]} was still out with seat {out_with[other]}"))
                break
            out_with[ps.hand] = ps.seat
    if params.player_hand_first and coup.passes:
        first = {}
        for ps in coup.passes:
            if ps.cards == "initial":
                first.setdefault(ps.hand, ps)
        if PLAYER in first and BANKER in first and first[BANKER].at < first[PLAYER].at:
            ps = first[BANKER]
            out.append(Breach(ps.at, f"the Banker's Hand was passed to seat {ps.seat} before the Player's Hand; "
                                     "the Player's Hand goes out first"))
    if params.instruction_call and coup.first_card_at is not None:
        curator = coup.holder_at("shoe", coup.first_card_at)
        if curator is not None and not any(call == params.instruction_call and at < coup.first_card_at
                                           for call, at in coup.calls):
            out.append(Breach(coup.first_card_at, f"seat {curator}, holding the shoe, dealt the first card "
                                               "before the dealer's instruction (\"Cards\")"))
    if params.no_bet_coup_method and coup.no_bet and coup.method != params.no_bet_coup_method:
        out.append(Breach(coup.first_card_at, f"this no bet coup was dealt by method {coup.method or '(none recorded)'}; "
                                           f"a no bet coup is dealt by method {params.no_bet_coup_method}"))
    return out
