"""Shoe and table integrity: the shoes, tables, dealers, patrons and the run judged as a whole.

A stage after the replay: while the engine replays a transcript, a :class:`~.collect.Collector` keeps a
few bytes of each coup; each unit of work works out what each of its shoes gives on its own
(:func:`~.judge.prepare`); once the run is read, :func:`~.judge.judge` runs the rules of ``scope="run"``
kinds over every shoe, table, dealer, patron and the run, adds their findings and leaves each shoe's
view for the reports.

Why these tests, how each works and its false-alarm rate: docs/integrity.md ("How it runs", then a
section a test).
"""

from compliance.games.baccarat.integrity.collect import Collector, IntegrityData
from compliance.games.baccarat.integrity.judge import KINDS, judge, prepare

__all__ = ["KINDS", "Collector", "IntegrityData", "judge", "prepare"]
