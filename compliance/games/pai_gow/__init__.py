"""Pai gow poker (68 IAC 10-9): the second game on the shared engine.

What is pai gow's own lives here: its hands (:mod:`.hands`), its transcript
format (:mod:`.models`, decoded by a :class:`~compliance.transcript.codec.Codec`
derived from them), its table context, its replay and its check kinds.
Reading, the replay driver, findings, reports, waivers and baselines are the
engine's, shared with baccarat.
"""

from __future__ import annotations

from compliance.games.common import fingerprint
from compliance.games.pai_gow import models
from compliance.games.pai_gow.replay import PaiGowReplayer
from compliance.games.pai_gow.table import PaiGowTable
from compliance.transcript.codec import Codec


class PaiGow:
    """Pai gow poker as the engine sees it (:class:`compliance.games.Game`)."""

    kind = "pai_gow_poker"
    title = "pai gow poker"
    table_games = ("pai_gow_poker",)
    codec = Codec(models.Header, models.Round,
                  card_words="rank (A 2-9 T J Q K) then suit (S H D C), or JK for the joker",
                  prefix="pai_gow_")
    transcript_model = models.Transcript
    section = None  # no `game` section: its payouts are its rules' parameters
    lint = None
    importer = None  # its recorders' logs cannot be imported yet
    integrity = None  # no rule of whole shoes

    def build_table(self, header, ruleset, where: str) -> PaiGowTable:
        return PaiGowTable.build(header, ruleset, where)

    def replayer(self, table: PaiGowTable) -> PaiGowReplayer:
        return PaiGowReplayer(table)

    def replay_key(self, replayer: PaiGowReplayer) -> str:
        return fingerprint((replayer.last_number, replayer.last_line))  # all it carries to the next round

    def __repr__(self) -> str:
        return "<game pai gow poker>"


GAME = PaiGow()
