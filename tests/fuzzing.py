"""What the fuzzers share: their time budget and the byte-level mutation of a valid input.

``make test`` runs each fuzzer briefly (a few seconds for each kind of file);
``make fuzz`` runs them all again with ``FUZZ_SCALE`` times as many examples.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

#: examples run, times the number each fuzzer asks for (``make fuzz`` sets it)
SCALE = max(1, int(os.environ.get("FUZZ_SCALE", "1")))


def budget(examples: int) -> settings:
    """Hypothesis settings for a fuzzer: ``examples`` (times SCALE), no deadline, no example database."""
    return settings(max_examples=examples * SCALE, deadline=None, suppress_health_check=list(HealthCheck),
                    database=None)


@st.composite
def mutated(draw, data: bytes, tokens: list[bytes], edits: int = 6, span: int = 40) -> bytes:
    """``data`` with a few random edits: a byte flipped, bytes inserted, a span deleted or repeated,
    the rest cut off, or one of ``tokens`` (pieces of the format's syntax) inserted."""
    buf = bytearray(data)
    for _ in range(draw(st.integers(1, edits))):
        if not buf:
            break
        at = draw(st.integers(0, len(buf) - 1))
        op = draw(st.integers(0, 5))
        if op == 0:
            buf[at] = draw(st.integers(0, 255))
        elif op == 1:
            buf[at:at] = draw(st.binary(min_size=1, max_size=8))
        elif op == 2:
            del buf[at:at + draw(st.integers(1, span))]
        elif op == 3:
            buf[at:at] = buf[at:at + draw(st.integers(1, 2 * span))] * draw(st.integers(1, 3))
        elif op == 4:
            del buf[at:]
        else:
            buf[at:at] = draw(st.sampled_from(tokens))
    return bytes(buf)
