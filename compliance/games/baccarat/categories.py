"""Baccarat's own finding categories (its deal, drawing tableau, curators, differential and outcomes), each
listed after the category it follows in the transcript spec."""

from compliance.categories import Category

CATEGORIES = (
    Category("deal.initial-order", "the initial four cards were not dealt Player, Banker, Player, Banker (and not "
                                   "reconstructed)", None),
    Category("deal.extra-card", "more than two initial cards, or more than one additional card, to a hand",
             "deal.initial-order"),
    Category("third-card.player.illegal", "the Player's Hand drew when it had to stand", "deal.extra-card"),
    Category("third-card.player.missing", "the Player's Hand stood when it had to draw", "third-card.player.illegal"),
    Category("third-card.banker.illegal", "the Banker's Hand drew when it had to stand", "third-card.player.missing"),
    Category("third-card.banker.missing", "the Banker's Hand stood when it had to draw", "third-card.banker.illegal"),
    Category("third-card.no-legal-reading", "cards recorded in dealing order, without their hands, break the drawing "
                                            "rules whichever hand each additional card went to",
             "third-card.banker.missing"),
    Category("curator.offer-order", "the shoe or Banker marker was offered out of the required order",
             "third-card.no-legal-reading"),
    Category("curator.not-eligible", "a patron not allowed to hold the shoe or handle cards did so",
             "curator.offer-order"),
    Category("curator.wrong-recipient", "a hand was passed to someone other than the patron entitled to it",
             "curator.not-eligible"),
    Category("curator.handling", "cards handled in a way the dealing method forbids", "curator.wrong-recipient"),
    Category("wager.table-differential", "the Player/Banker differential exceeded the table differential at the "
                                         "first card", "wager.limits"),
    Category("integrity.outcomes", "the Banker, Player and Tie counts, naturals or streaks of a shoe, table, dealer or "
                                   "run are ones a fair shoe gives too rarely to be chance", "integrity.unshuffled"),
)
