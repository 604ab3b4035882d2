"""High card: a toy third game, one card to the player and one to the dealer, the higher card wins even money.

It exists to show what adding a game takes (tests/test_third_game.py): this package, of the shape every game
package has, and one line in the registry of games.  Nothing outside it names it.
"""

from __future__ import annotations

from compliance.games.common import CoupPicture, fingerprint
from compliance.transcript.codec import Codec
from high_card import models
from high_card.replay import HighCardReplayer
from high_card.table import HighCardTable


class HighCard:
    """High card as the engine sees it (:class:`compliance.games.Game`)."""

    kind = "high_card"
    title = "high card"
    categories = ()  # its findings fall in the shared categories
    schema_name = "high-card-transcript"
    table_games = ("high_card",)
    codec = Codec(models.Header, models.Coup, card_words="a rank: 2-9, T, J, Q, K or A", prefix="high_card_")
    transcript_model = models.Transcript
    section = None  # its rulesets have no `game` section: what a win pays is its settlement rule's parameter
    lint = None
    importer = None
    integrity = None
    simulator = None  # its transcripts are made by its tests (high_card.simulate)
    analyser = None

    def build_table(self, header, ruleset, where: str) -> HighCardTable:
        return HighCardTable.build(header, ruleset, where)

    def replayer(self, table: HighCardTable) -> HighCardReplayer:
        return HighCardReplayer(table)

    def coup_view(self, state) -> CoupPicture:
        return state.picture()

    def transcript_schema(self) -> dict:
        return {**self.transcript_model.model_json_schema(), "title": "high card transcript (.json)"}

    def replay_key(self, replayer: HighCardReplayer) -> str:
        return fingerprint((replayer.last, replayer.last_line))  # all it carries: the coup before's number and line


GAME = HighCard()
