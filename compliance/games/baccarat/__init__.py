"""Baccarat (punto banco, mini baccarat, even-money and EZ tables, side wagers): the first game on the shared engine.

What is baccarat's own lives here: its transcript format, version 1 and its
compatible revision 1.1 (:mod:`.models`, decoded by a
:class:`~compliance.transcript.codec.Codec` derived from them),
its table context (:mod:`.table`), its replay (:mod:`.replay`), its check
kinds (:mod:`.checks`), its simulator (:mod:`.simulate`), the exact
analysis of its wagers (:mod:`.analyze`), the lint of its rulesets' ``game``
section (:mod:`.lint`) and its shoe and table integrity
stage (:mod:`.integrity`).  Reading, the check driver,
findings, reports, waivers and baselines are the engine's, shared with every game.
"""

from __future__ import annotations

import typing

from compliance.games import LazyModule
from compliance.games.baccarat import integrity, models
from compliance.games.baccarat.categories import CATEGORIES
from compliance.games.baccarat.replay import Replayer
from compliance.games.baccarat.section import Section
from compliance.games.baccarat.table import TableContext
from compliance.games.common import CoupPicture, fingerprint
from compliance.registry import BACCARAT
from compliance.transcript.codec import Codec


class Baccarat:
    """Baccarat as the engine sees it (:class:`compliance.games.Game`)."""

    kind = BACCARAT
    title = "baccarat"
    categories = CATEGORIES
    schema_name = "transcript"
    table_games = typing.get_args(models.BaccaratGame)
    codec = Codec(models.Header, models.Coup, frozen=(models.HeaderV1, models.CoupV1))
    transcript_model = models.Transcript
    section = Section  # the drawing tableau and the wager spots
    lint = LazyModule("compliance.games.baccarat.lint")  # imported by `ruleset lint` alone
    importer = LazyModule("compliance.games.baccarat.importing")  # imported by `import` alone
    integrity = integrity
    # the house tables a procedure document may mark, compared with its submission (compliance.procedures)
    house_tables = LazyModule("compliance.games.baccarat.procedure")
    simulator = LazyModule("compliance.games.baccarat.simulation")  # imported by `simulate` and `analyze` alone
    analyser = simulator

    def build_table(self, header, ruleset, where: str) -> TableContext:
        return TableContext.build(header, ruleset, where)

    def replayer(self, table: TableContext) -> Replayer:
        return Replayer(table)

    def coup_view(self, state) -> CoupPicture:
        return state.picture()

    def transcript_schema(self) -> dict:
        doc = self.transcript_model.model_json_schema()
        doc["title"] = "baccarat transcript v1 and v1.1 (.json)"
        doc["description"] = ("Keys starting with x- are vendor extensions, accepted anywhere and ignored. "
                              "A .jsonl transcript holds the header (everything but coups) on line 1 and one coup a "
                              "line. Format 1.1 adds optional fields (recorded, staff, card codes recorded in part "
                              "such as 7?, 0?, ??): see docs/transcript.md.")
        return doc

    def replay_key(self, replayer: Replayer) -> str:
        return fingerprint(replayer.carried())

    def __repr__(self) -> str:
        return "<game baccarat>"


GAME = Baccarat()
