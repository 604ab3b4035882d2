"""baccarat-audit: replay recorded baccarat coups against a jurisdiction's rules.

    transcript + ruleset --read--> validated models (compliance.reading, compliance.ruleset)
        --replay--> one coup state a coup (compliance.games.<game>.replay)
        --checks--> small pure functions of that state and a rule's params (compliance.games.<game>.checks)
        --findings--> sorted, located, waived, baselined (compliance.engine, compliance.report.model)
        --report--> renderers that only format (compliance.report)

Every game is a package of one shape under compliance/games/; the engine knows a
game only through compliance.games.Game.  The layers and where each kind of
change goes: docs/architecture.md.  The public API is compliance.api (one check
as a library call: docs/api.md); every other module is internal.
"""

__version__ = "0.1.0"
