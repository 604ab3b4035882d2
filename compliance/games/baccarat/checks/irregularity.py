"""Irregularities: an erroneous card, a card found face up, too few cards, a misdeal.

Each jurisdiction prescribes its own remedy; the remedy is a parameter, so the
same coup is right under one ruleset and wrong under another.  An
irregularity handled as the rules require is reported as ``info`` (the record
shows the irregularity and that it was put right); one handled otherwise is
reported at the rule's severity.  Where the irregularity is left uncorrected
altogether (the erroneous card stays in the Player's Hand, the deal is left out
of order), the drawing and dealing rules report it, not these.
"""

from __future__ import annotations

from typing import Literal

from compliance.checks import Breach, Params
from compliance.games.baccarat.checks.dealing import dealt_in_order, voided_for_misdeal
from compliance.games.baccarat.checks.drawing import banker_must_draw, is_natural, player_must_draw
from compliance.games.baccarat.checks.register import check
from compliance.games.baccarat.replay import BANKER, HAND, PLAYER, CoupState, describe_bettor
from compliance.games.baccarat.table import TableContext

INFO = "info"


# ------------------------------------------------------------------ erroneous Player third card


class ErroneousCardParams(Params):
    when_disclosed: Literal["no_bet_coup", "discard"] = "discard"
    """an erroneous card that was exposed, and that would have become the next coup's first card: it becomes
    the first card of a no bet coup, or it is discarded"""
    no_bet_method: str | None = None
    """the dealing method of that no bet coup"""
    excess_banker_card: bool = False
    """a Banker third card drawn in excess (none was authorised) is put right the same way: the next coup's
    first card if it was not exposed, discarded if it was"""


def _expected_destination(coup: CoupState, params: ErroneousCardParams, table: TableContext, disclosed: bool) -> tuple[str, str]:
    if not is_natural(coup, table) and table.tableau.banker_draws(coup.initial_total(BANKER), None):
        return BANKER, f"the Banker's Hand must draw on {coup.initial_total(BANKER)}, so it becomes the Banker's third card"
    if disclosed and params.when_disclosed == "discard":
        return "discard", "the Banker's Hand stands and the card was exposed, so it is discarded"
    if disclosed:
        return "next_coup", "the Banker's Hand stands, so it becomes the first card of a no bet coup"
    return "next_coup", "the Banker's Hand stands, so it becomes the first card of the next coup"


def _carried_into_this_coup(coup: CoupState, params: ErroneousCardParams):
    """The card the previous coup set aside must be this coup's first card (of a no bet coup if exposed)."""
    if not coup.expected_carry:
        return []
    out = []
    first = coup.initial[0][1] if coup.initial else None
    for code, disclosed in coup.expected_carry:
        if disclosed and params.when_disclosed == "discard":
            continue  # it should not have been set aside (reported in the previous coup): not using it is right
        at = coup.first_card_at
        if first is None or first.code != code:
            got = f"the first card was {first.code}" if first is not None else "no card was dealt"
            out.append(Breach(at, f"{code}, set aside by the previous coup, should be this coup's first card; {got}"))
            continue
        if disclosed and params.when_disclosed == "no_bet_coup":
            wrong = []
            if not coup.no_bet:
                wrong.append("the coup was not a no bet coup")
            if params.no_bet_method and coup.method != params.no_bet_method:
                wrong.append(f"it was dealt by method {coup.method or '(none recorded)'}, not {params.no_bet_method}")
            if wrong:
                out.append(Breach(at, f"{code} was exposed when it was set aside, so it is the first card of a no bet "
                                      f"coup{' dealt by method ' + params.no_bet_method if params.no_bet_method else ''}; "
                                      + " and ".join(wrong)))
    return out


@check("irregularity.erroneous-card", "irregularity.mishandled", ErroneousCardParams,
       needs=("hands", "values", "faces"), when=("moves", "expected_carry"))
def erroneous_card(coup: CoupState, params: ErroneousCardParams, table: TableContext):
    """A third card dealt to the Player's Hand when none was authorised becomes the Banker's third card if
    the Banker's Hand must draw (as for a Player's Hand that stood); otherwise it becomes the next coup's
    first card, or, if it was exposed, what the rules say of an exposed card (the first card of a no bet
    coup, or the discard holder).  The next coup is judged for receiving it."""
    if not coup.moves and not coup.expected_carry:
        return ()
    out = _carried_into_this_coup(coup, params)
    if not coup.hands_complete or coup.reconstruct_at is not None:
        return out
    if params.excess_banker_card:
        out += _excess_banker_card(coup, params, table)
    if len(coup.dealt_player) < 3:
        return out
    if player_must_draw(coup, table):
        return out  # the Player's third card was authorised
    card = coup.dealt_player[2]
    move = coup.move_of(card, PLAYER)
    if move is None:
        return out  # left in the Player's Hand: the drawing rules report it
    disclosed = card.exposed
    where, why = _expected_destination(coup, params, table, disclosed)
    banker_extra = coup.extra_cards(BANKER)
    if move.to != where:
        out.append(Breach(move.at, f"the Player's Hand received {card.code} when no third card was authorised; "
                                   f"{why}, but it was moved to {move.to.replace('_', ' ')}"))
    elif where == BANKER and [x.code for x in banker_extra] != [card.code]:
        out.append(Breach(move.at, f"{card.code}, dealt to the Player's Hand in error, is the Banker's only third card; "
                                   f"the Banker's Hand received {', '.join(x.code for x in banker_extra)}"))
    else:
        out.append(Breach(move.at, f"the Player's Hand received {card.code} when no third card was authorised; "
                                   f"handled as the rules require: {why}", INFO))
    return out


def _excess_banker_card(coup: CoupState, params: ErroneousCardParams, table: TableContext) -> list[Breach]:
    """A Banker third card drawn when none was authorised, then moved out of the hand."""
    if len(coup.dealt_banker) < 3:
        return []
    card = coup.dealt_banker[2]
    move = coup.move_of(card, BANKER)
    if move is None:
        return []  # left in the Banker's Hand: the drawing rules report it
    if banker_must_draw(coup, table):
        return []  # the Banker's third card was authorised
    disclosed = card.exposed
    where = "discard" if disclosed else "next_coup"
    why = "it was exposed, so it is discarded" if disclosed else "it was not exposed, so it is the next coup's first card"
    if move.to != where:
        return [Breach(move.at, f"{card.code} was drawn to the Banker's Hand in excess; {why}, but it was moved to "
                                f"{move.to.replace('_', ' ')}")]
    return [Breach(move.at, f"{card.code} was drawn to the Banker's Hand in excess; handled as the rules require: "
                            f"{why}", INFO)]


# ------------------------------------------------------------------ card found face up


class FaceUpParams(Params):
    after_first_card: Literal["play", "discard"] = "discard"
    """a card found face up once the coup's first card is out: played as if face down, or discarded"""
    before_first_card: Literal["no_bet_coup", "discard"] = "discard"
    """a card found face up that would be the coup's first card: the first card of a no bet coup, or discarded"""
    no_bet_method: str | None = None
    """the dealing method of that no bet coup"""


@check("irregularity.face-up-card", "irregularity.mishandled", FaceUpParams, needs=("cards", "faces"),
       when=("found_face_up",))
def face_up_card(coup: CoupState, params: FaceUpParams, table: TableContext):
    """A card found face up in the shoe is handled as the rules say: discarded, played as if face down, or
    made the first card of a no bet coup, according to the rules and to whether the coup's first card was
    already dealt."""
    if not coup.found_face_up:
        return ()
    out = []
    for to, card in coup.drawn:
        if not card.found_face_up:
            continue
        first = coup.first_card_at is None or card.at <= coup.first_card_at
        how = params.before_first_card if first else params.after_first_card
        when = "before the coup's first card was dealt" if first else "after the coup's first card"
        moved = coup.move_of(card)
        final = moved.to if moved is not None else to
        if how == "discard":
            ok, want = final == "discard", "is discarded"
        elif how == "play":
            ok, want = final in (PLAYER, BANKER), "is played as if it were face down"
        else:
            ok = final in (PLAYER, BANKER) and card.at == coup.first_card_at and coup.no_bet and (
                params.no_bet_method is None or coup.method == params.no_bet_method)
            want = "is the first card of a no bet coup" + (f" dealt by method {params.no_bet_method}"
                                                          if params.no_bet_method else "")
            if final == "next_coup":
                continue  # set aside for the next coup; judged there by the erroneous-card rule
        verdict = "handled as the rules require" if ok else f"it went to {final.replace('_', ' ')}" + (
            "" if final != PLAYER or how != "no_bet_coup" else " in a coup that was not a no bet coup of that method")
        msg = f"{card.code} was found face up in the shoe {when}; it {want}: {verdict}"
        out.append(Breach(card.at, msg, INFO if ok else None))
    return out


# ------------------------------------------------------------------ too few cards


class InsufficientParams(Params):
    new_shoe_after: bool = False
    """after such a void, play goes on only with the cards replaced or reshuffled (a new shoe)"""


def _needs_cards(coup: CoupState, table: TableContext) -> bool:
    """The hands as they stand are not finished: an initial card or a required third card is missing."""
    if not coup.hands_complete:
        return True
    if not coup.extra_cards(PLAYER) and player_must_draw(coup, table):
        return True
    return not coup.extra_cards(BANKER) and banker_must_draw(coup, table)


@check("irregularity.insufficient-cards", "irregularity.mishandled", InsufficientParams,
       needs=("hands", "values", "results"))
def insufficient_cards(coup: CoupState, params: InsufficientParams, table: TableContext):
    """When the shoe has too few cards to finish the coup, the coup is void (every wager returned); a coup
    whose hands were already finished is not voided for it; where the rules say so, play resumes only
    with a new shoe."""
    out = []
    prev = coup.previous
    if params.new_shoe_after and prev is not None and prev.void is not None \
            and prev.void.reason == "insufficient_cards" and prev.shoe == coup.shoe and coup.first_card_at is not None:
        out.append(Breach(coup.first_card_at, f"coup {prev.number} was void for want of cards, yet this coup is dealt "
                                           f"from the same shoe {coup.shoe!r}; play resumes with the cards replaced "
                                           "or reshuffled"))
    if coup.void is None or coup.void.reason != "insufficient_cards":
        return out
    if _needs_cards(coup, table):
        out.append(Breach(coup.void_at, "the shoe ran out before the hands were finished; the coup was declared void, "
                                     "as the rules require", INFO))
    else:
        out.append(Breach(coup.void_at, "the coup was declared void for want of cards, but its hands were already "
                                     "finished"))
    return out


# ------------------------------------------------------------------ misdeal


class MisdealParams(Params):
    withdrawal_after_reconstruction: bool = False
    """after a reconstruction, and before any card is exposed or play resumes, a patron may take a wager
    down (whole, not in part); a wager taken down is not put back, no other wager is raised or lowered,
    and if every wager is taken down the coup is void"""
    void_for: Literal["initial_deal", "any_misdeal"] = "initial_deal"
    """the misdeals that voiding the coup puts right: only an initial deal out of sequence (or with more
    than two cards to a hand), or also a hand misdealt its additional cards"""


@check("irregularity.misdeal", "irregularity.mishandled", MisdealParams, needs=("hands", "order"),
       when=("reconstructed", "void"))
def misdeal(coup: CoupState, params: MisdealParams, table: TableContext):
    """Cards dealt out of the Player, Banker, Player, Banker order are reconstructed into that order (the
    first and third cards the Player's, the second and fourth the Banker's), or, if they cannot be, the
    coup is void; where the rules say so, a hand misdealt its additional cards may be put right by voiding
    the coup too (elsewhere only the initial deal is).  Where the rules allow patrons to withdraw after a
    reconstruction, a wager may only be taken down whole, before any card is exposed and before play
    resumes; a wager taken down is not put back, no other wager changes, and if every wager is taken down
    the coup is void."""
    out = []
    if coup.reconstructed is not None:
        dealt = [card.code for to, card in coup.drawn if to in (PLAYER, BANKER)][:4]
        want_p, want_b = tuple(dealt[0:4:2]), tuple(dealt[1:4:2])
        got_p, got_b = coup.reconstructed[0][:2], coup.reconstructed[1][:2]
        shown = f"Player {' '.join(got_p) or '-'}, Banker {' '.join(got_b) or '-'}"
        if len(dealt) == 4 and (got_p, got_b) == (want_p, want_b):
            if not dealt_in_order(coup):
                out.append(Breach(coup.reconstruct_at, f"misdeal reconstructed to the dealing order ({shown})", INFO))
        else:
            out.append(Breach(coup.reconstruct_at, f"the reconstruction gives {shown}; dealt in order the cards give "
                                                f"Player {' '.join(want_p)}, Banker {' '.join(want_b)}"))
        if params.withdrawal_after_reconstruction:
            out += _withdrawals(coup, table)
    elif voided_for_misdeal(coup):
        if not dealt_in_order(coup):
            out.append(Breach(coup.void_at, "misdealt cards not reconstructed: the coup was declared void", INFO))
        else:
            excess = [(hand, extra) for hand in (PLAYER, BANKER) if len(extra := coup.extra_cards(hand)) > 1]
            if excess:
                dealt = "; ".join(f"the {HAND[hand]} received {len(extra)} additional cards "
                                  f"({', '.join(x.code for x in extra)})" for hand, extra in excess)
                if params.void_for == "any_misdeal":
                    out.append(Breach(coup.void_at, f"misdeal not reconstructed: {dealt}; the coup was declared "
                                                 "void", INFO))
                else:
                    out.append(Breach(coup.void_at, f"misdeal of the additional cards: {dealt}; the coup was "
                                                 "declared void, but voiding puts right only an initial deal out "
                                                 "of sequence (later cards are reconstructed)"))
    return out


def _option_closed(coup: CoupState, index: int) -> tuple[int, str] | None:
    """What, before event ``index``, ended the patrons' option to take their wagers down after the
    reconstruction (the first such event, and what it was): a card of the coup exposed (dealt or found face
    up, or a hand passed to a patron to turn), play resumed (a card dealt after the reconstruction), or
    the result announced.  None while the option is open."""
    found = []
    for to, card in coup.drawn:
        if card.at >= index:
            break
        if to != PLAYER and to != BANKER:
            continue
        if card.exposed:
            found.append((card.at, f"{card.code} was exposed"))
        elif card.at > coup.reconstruct_at:
            found.append((card.at, f"play had resumed ({card.code} was dealt after the reconstruction)"))
    for ps in coup.passes:
        if ps.accepted and ps.at < index:
            found.append((ps.at, f"the {HAND[ps.hand]} had been passed to seat {ps.seat} to turn"))
            break
    if coup.result_at is not None and coup.result_at < index:
        found.append((coup.result_at, "the result had been announced"))
    return min(found) if found else None


def _withdrawals(coup: CoupState, table: TableContext) -> list[Breach]:
    """After a reconstruction a patron may take a wager down whole, before any card is exposed; nothing else
    may change, a wager taken down is not put back, and if every wager is taken down the coup is void."""
    out = []
    withdrew: set = set()  # bettors who took a wager down after the reconstruction
    for ch in coup.changes:
        if ch.at < coup.reconstruct_at or ch.reason == "table_differential":
            continue  # a reduction for the table differential is judged by the reduction rule
        who = describe_bettor(ch.bettor)
        if ch.kind == "wager_adjust" and not ch.after and ch.before:
            withdrew.add(ch.bettor)
            closed = _option_closed(coup, ch.at)
            if closed is not None:
                out.append(Breach(ch.at, f"{who} withdrew its {ch.spot} wager after the reconstruction, but "
                                         f"{closed[1]}: a wager may be withdrawn only before any card is exposed "
                                         "and before play resumes"))
        elif ch.kind == "wager_adjust" and 0 < ch.after < ch.before:
            out.append(Breach(ch.at, f"after the reconstruction a wager may only be withdrawn whole; "
                                     f"{who} {ch.spot} wager was reduced instead"))
        elif ch.kind == "wager" or ch.after > ch.before:
            what = f"placed {table.money(ch.after)}" if ch.kind == "wager" else \
                f"increased from {table.money(ch.before)} to {table.money(ch.after)}"
            if ch.bettor in withdrew:
                out.append(Breach(ch.at, f"{who} withdrew a wager after the reconstruction and may not replace it; "
                                         f"its {ch.spot} wager was {what}"))
            else:
                out.append(Breach(ch.at, f"after the reconstruction a wager may only be withdrawn whole, not "
                                         f"raised; {who} {ch.spot} wager was {what}"))
    if withdrew and not coup.stakes and coup.void is None:
        last = [ch for ch in coup.changes if ch.at > coup.reconstruct_at and ch.kind == "wager_adjust" and not ch.after]
        out.append(Breach(last[-1].at, "every wager was withdrawn after the reconstruction, so the coup is void; "
                                       "it was not declared void"))
    return out
