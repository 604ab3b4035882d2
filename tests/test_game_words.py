"""No shared layer names a game's hands or spots: what a game calls its hands, its spots and its outcomes is its
own package's to say (``compliance/games/<game>/``), and a report, a command or the engine asks the game.

The words are the hands and spots of the registered games (baccarat's spots as its bundled rulesets name
them, pai gow poker's hands), looked for in the code of every module outside a game's package: its names and
its strings, docstrings and comments left aside (they may give an example in a game's words).
"""

from __future__ import annotations

import io
import re
import tokenize
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "compliance"

#: the hands and spots of the registered games, as a word of a name or a string would spell them
WORDS = re.compile(r"(?<![a-z])(players?|bankers?|ties|tie|dragons?|pandas?|naturals?|perfect.pairs?|house.money|"
                   r"high.hands?|low.hands?|fouls?|fouled|jokers?)(?![a-z])", re.IGNORECASE)

#: (module, word) a shared module may name, each with the reason
ALLOWED: dict[tuple[str, str], str] = {
    ("transcript/fields.py", "player"): "the JSON report's schema describes a duplicate row's key by an example",
}


def _shared_modules() -> list[Path]:
    games = PACKAGE / "games"
    return sorted(p for p in PACKAGE.rglob("*.py")
                  if not (p.parent != games and games in p.parents))  # games/__init__, common, integrity are shared


def _words(path: Path) -> list[tuple[int, str]]:
    """The game words in ``path``'s names and strings (not its docstrings or comments), with their lines."""
    source = path.read_text()
    out = []
    previous = tokenize.NEWLINE
    for tok in tokenize.generate_tokens(io.StringIO(source).readline):
        if tok.type == tokenize.STRING and previous in (tokenize.NEWLINE, tokenize.NL, tokenize.INDENT,
                                                        tokenize.DEDENT, tokenize.COLON):
            pass  # a docstring (a string standing as a statement)
        elif tok.type in (tokenize.NAME, tokenize.STRING) or tok.type == getattr(tokenize, "FSTRING_MIDDLE", -1):
            text = tok.string.replace("_", " ")
            out += [(tok.start[0], m.group(1).lower()) for m in WORDS.finditer(text)]
        if tok.type not in (tokenize.COMMENT, tokenize.NL):
            previous = tok.type if tok.type != tokenize.OP or tok.string != ":" else tokenize.COLON
    return out


def test_the_scan_finds_a_hand_named_in_code_and_leaves_prose_alone(tmp_path):
    module = tmp_path / "m.py"
    module.write_text('"""The Player\'s Hand, in prose."""\n# the banker, in a comment\n'
                      'def f(x):\n    """Docstring: a tie."""\n    return x.player_total + len("Banker")\n')
    assert _words(module) == [(5, "player"), (5, "banker")]


@pytest.mark.parametrize("path", _shared_modules(), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_a_shared_layer_names_no_games_hands_or_spots(path):
    where = str(path.relative_to(PACKAGE))
    named = [(line, word) for line, word in _words(path) if (where, word) not in ALLOWED]
    assert named == [], f"{where} names a game's hands or spots: ask the game (Game.coup_view, Game.categories)"
