"""Pai gow poker (68 IAC 10-9): the second game on the shared engine.

What is pai gow's own lives here: its hands (:mod:`.hands`), its transcript
format (:mod:`.models`, decoded by a :class:`~compliance.transcript.codec.Codec`
derived from them), its table context, its replay and its check kinds.
Reading, the replay driver, findings, reports, waivers and baselines are the
engine's, shared with baccarat.
"""

from __future__ import annotations

from compliance.games import LazyModule
from compliance.games.common import CoupPicture, fingerprint
from compliance.games.pai_gow import models
from compliance.games.pai_gow.replay import PaiGowReplayer, picture
from compliance.games.pai_gow.table import PaiGowTable
from compliance.transcript.codec import Codec


class PaiGow:
    """Pai gow poker as the engine sees it (:class:`compliance.games.Game`)."""

    kind = "pai_gow_poker"
    title = "pai gow poker"
    categories = ()  # its findings fall in the shared categories
    schema_name = "pai-gow-transcript"
    table_games = ("pai_gow_poker",)
    codec = Codec(models.Header, models.Round,
                  card_words="rank (A 2-9 T J Q K) then suit (S H D C), or JK for the joker",
                  prefix="pai_gow_")
    transcript_model = models.Transcript
    section = None  # no `game` section: its payouts are its rules' parameters
    lint = None
    importer = None  # its recorders' logs cannot be imported yet
    integrity = None  # no rule of whole shoes
    simulator = LazyModule("compliance.games.pai_gow.simulate")  # imported by `simulate` alone
    analyser = None  # no exact analysis yet

    def build_table(self, header, ruleset, where: str) -> PaiGowTable:
        return PaiGowTable.build(header, ruleset, where)

    def replayer(self, table: PaiGowTable) -> PaiGowReplayer:
        return PaiGowReplayer(table)

    def coup_view(self, state) -> CoupPicture:
        return picture(state)

    def transcript_schema(self) -> dict:
        doc = self.transcript_model.model_json_schema()
        doc["title"] = "pai gow poker transcript v1 (.json)"
        doc["description"] = ("Keys starting with x- are vendor extensions, accepted anywhere and ignored. "
                              "A .jsonl transcript holds the header (everything but coups) on line 1 and one round "
                              "(a coup object) a line. See docs/pai-gow-transcript.md.")
        return doc

    def replay_key(self, replayer: PaiGowReplayer) -> str:
        return fingerprint((replayer.last_number, replayer.last_line))  # all it carries to the next round

    def __repr__(self) -> str:
        return "<game pai gow poker>"


GAME = PaiGow()
