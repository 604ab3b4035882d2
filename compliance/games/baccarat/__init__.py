"""Baccarat (punto banco, mini baccarat, even-money and EZ tables, side wagers): the first game on the shared engine.

What is baccarat's own lives here: its transcript format, version 1 and its
compatible revision 1.1 (:mod:`.models`, decoded by a
:class:`~compliance.transcript.codec.Codec` derived from them),
its table context (:mod:`.table`), its replay (:mod:`.replay`), its check
kinds (:mod:`.checks`), its simulator (:mod:`.simulate`), the exact
analysis of its wagers (:mod:`.analyze`) and its shoe and table integrity
stage (:mod:`.integrity`).  Reading, the check driver,
findings, reports, waivers and baselines are the engine's, shared with every game.
"""

from __future__ import annotations

import typing

from compliance.games import BACCARAT, Game, LazyModule
from compliance.games.baccarat import integrity, models
from compliance.games.baccarat.replay import Replayer
from compliance.games.baccarat.table import TableContext
from compliance.ruleset.models import BaccaratGame
from compliance.transcript.codec import Codec

GAME = Game(
    kind=BACCARAT,
    title="baccarat",
    table_games=typing.get_args(BaccaratGame),
    codec=Codec(models.Header, models.Coup, frozen=(models.HeaderV1, models.CoupV1)),
    build_table=TableContext.build,
    replayer=Replayer,
    transcript_model=models.Transcript,
    lint=LazyModule("compliance.games.baccarat.lint"),
    importer=LazyModule("compliance.games.baccarat.importing"),
    integrity=integrity,
)
