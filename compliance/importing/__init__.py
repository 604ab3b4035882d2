"""``baccarat-audit import``: recorders' logs into transcripts, through declarative mappings.

A casino's evidence is rarely a transcript: a card-reading shoe logs the
cards, a table system the wagers, a hand log each coup's hands and result.
A *mapping* (YAML: :mod:`.mapping`) says how one such log reads: what one
row holds, which column holds which field, how values are spelled, how
times are written, which column holds the shoe and the coup.  The logs of
one table and shift are read (:mod:`.logs`) and merged by shoe and coup
(:mod:`.merge`); the game builds each coup's events from its rows
(``compliance.games.<game>.importing``).  No vendor has code of its own:
a new layout is a new mapping.
"""
