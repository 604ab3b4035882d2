"""Coups with the procedure recorded: offers of the shoe or marker, hands passed to patrons, calls.

Built on :mod:`tests.builders` (the cards are dealt by the rules and every wager
settled by them unless a test says otherwise), so a procedure test changes one
thing and the rest of the coup is correct.
"""

from __future__ import annotations

from decimal import Decimal

from builders import payout, result_event


def wager(seat: int, spot: str, amount) -> dict:
    return {"type": "wager", "seat": seat, "spot": spot, "amount": Decimal(str(amount))}


def offer(seat: int, accepted: bool, item: str = "shoe") -> dict:
    return {"type": "offer", "item": item, "seat": seat, "accepted": accepted}


def card(code: str, to: str, face: str = "down", **more) -> dict:
    return {"type": "card", "card": code, "to": to, "face": face, **more}


def hand_pass(hand: str, seat: int, accepted: bool = True, cards: str = "initial") -> list[dict]:
    ev = {"type": "hand_pass", "hand": hand, "seat": seat, "accepted": accepted}
    if cards != "initial":
        ev["cards"] = cards
    return [ev, {"type": "hand_return", "hand": hand}] if accepted else [ev]


def procedure_coup(number: int, player: list[str], banker: list[str], wagers=(), *, seated=None, method=None,
                   before_calls=(), calls=("no_more_bets", "cards"), passes=None, third_passes=None,
                   face="down", no_bet=False, shoe="S1", settle=True) -> dict:
    """One coup dealt by the rules.

    ``wagers``: (seat, spot, amount); ``before_calls``: events after the wagers and before the calls
    (offers, reductions); ``passes``: hand -> [(seat, accepted), ...] for the initial cards, each accepted
    pass followed by the hand's return; third cards go to whoever accepted the hand, unless
    ``third_passes`` (hand -> seat) says otherwise.
    """
    passes = passes or {}
    third_passes = third_passes or {}
    wagers = [(s, spot, Decimal(str(a))) for s, spot, a in wagers]
    events = [wager(s, spot, a) for s, spot, a in wagers] + list(before_calls)
    events += [{"type": "announce", "call": c} for c in calls]
    order = [("player", player[0]), ("banker", banker[0]), ("player", player[1]), ("banker", banker[1])]
    events += [card(c, to, face) for to, c in order]
    holder = {}
    for hand in ("player", "banker"):
        for seat, accepted in passes.get(hand, ()):
            events += hand_pass(hand, seat, accepted)
            if accepted:
                holder[hand] = seat
    for hand, cards in (("player", player[2:]), ("banker", banker[2:])):
        for c in cards:
            events.append(card(c, hand, face))
            to = third_passes.get(hand, holder.get(hand))
            if to is not None:
                events += hand_pass(hand, to, True, "third")
    events.append(result_event(player, banker))
    stakes = {}
    for s, spot, a in wagers:
        stakes[(s, spot)] = stakes.get((s, spot), Decimal(0)) + a
    for ev in before_calls:
        if ev["type"] == "wager_adjust":
            key = (ev["seat"], ev["spot"])
            stakes[key] = Decimal(str(ev["amount"]))
    if settle:
        for (s, spot), a in stakes.items():
            if a:
                outcome, paid = payout(spot, a, player, banker)
                events.append({"type": "settle", "seat": s, "spot": spot, "outcome": outcome, "amount": paid})
    if seated is None:
        seated = sorted({s for s, _, _ in wagers})
    out = {"coup": number, "shoe": shoe, "seated": {str(s): f"P-{s}" for s in seated}, "events": events}
    if method is not None:
        out["dealing_method"] = method
    if no_bet:
        out["no_bet"] = True
    return out
