"""Shoe and table integrity: the shoes, tables, dealers and the run judged as a whole (docs/integrity.md).

The per-coup rules catch a dealer's mistakes one coup at a time; the costliest
failures look legal coup by coup and show only across coups: a pack dealt
unshuffled (the Golden Nugget, 30 April 2012; the Trump Taj Mahal, 10
December 2011), a shoe whose outcomes no fair shoe gives, a table whose
wrong payouts all go one way.  This is a stage after the replay:

* while the engine replays a transcript, a :class:`~.collect.Collector` keeps
  a few bytes of each coup (its cards, its outcome, its wrong settlements);
* once the run is read, :func:`~.judge.judge` runs the three tests of the
  rules of kinds ``integrity.unshuffled`` (:mod:`.order`),
  ``integrity.outcomes`` (:mod:`.outcomes`) and ``integrity.settlement-drift``
  (:mod:`.drift`) over every shoe, table, dealer and the run, adds their
  findings and leaves each shoe's view for the reports.

Under ``-j`` each chunk of a file gathers its own :class:`~.collect.IntegrityData`
and works out, in its worker, what each of its shoes gives on its own
(:func:`~.judge.prepare`: chunks are cut at shoe boundaries); the parent joins
them (a shoe cut between chunks joined again) and judges what spans shoes.
"""

from compliance.games.baccarat.integrity.collect import Collector, IntegrityData
from compliance.games.baccarat.integrity.judge import KINDS, judge, prepare

__all__ = ["KINDS", "Collector", "IntegrityData", "judge", "prepare"]
