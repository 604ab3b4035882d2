"""What every game's transcript format shares: exact money, seat keys, vendor keys.

The transcript models of each game (``compliance.games.<game>.models``) are
built from these; :mod:`compliance.transcript.codec` derives the msgspec
structs of the hot path from those models.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Annotated, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, model_validator

from compliance.evidence import DECLARABLE
from compliance.figures import fine_figure, money_figure


def commission_figure(value):
    """A commission rate or rounding unit (of a table header, or of a game's ruleset section), as
    :func:`compliance.figures.fine_figure` bounds it."""
    return fine_figure(value, "commission figures", f"commission figures of {value:E}")


# strict=False: a JSON number (or a numeric string, as msgspec accepts) becomes an exact Decimal; bounded so that
# the money a run adds up stays exact (figures.money_figure)
Money = Annotated[Decimal, Field(ge=0, allow_inf_nan=False, strict=False), AfterValidator(money_figure)]
# a commission rate of a table header: below 1, exact to at most 28 decimal places (1e-999999999 is no table's)
Rate = Annotated[Decimal, Field(ge=0, lt=1, allow_inf_nan=False, strict=False), AfterValidator(commission_figure)]
# a seat number as a JSON object key ("seated"): digits, no sign, no leading zero; the fast
# decoder (codec.py) reads such keys straight into int
SeatKey = Annotated[str, Field(pattern=r"^(0|[1-9][0-9]*)$")]
# the JSON Schema of a seated map says exactly what the readers take: seat keys, x- keys, nothing else
SEATED_SCHEMA = {"patternProperties": {r"^(0|[1-9][0-9]*)$": {"type": "string"}, "^x-": {}},
                 "additionalProperties": False}


class SpecModel(BaseModel):
    """Base of every transcript object: unknown keys are errors, ``x-`` keys are dropped."""

    # strict: no "7" for 7, no 1.0 for 1, no 1 for true, exactly as the msgspec decoder of codec.py
    # the JSON Schema says what the readers do: x- keys allowed on every object, any other unknown key refused
    # defer_build: the validators are built when first used (the schema, a test), not at import:
    # the check decodes transcripts with msgspec and never validates through these models
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True, defer_build=True,
                              json_schema_extra={"patternProperties": {"^x-": {}}})

    @model_validator(mode="before")
    @classmethod
    def _drop_vendor_extensions(cls, data):
        return strip_vendor_keys(data) if isinstance(data, dict) else data


def strip_vendor_keys(obj):
    """Drop ``x-`` keys at every depth of a decoded JSON value (also inside maps such as ``seated``)."""
    if isinstance(obj, dict):
        return {k: strip_vendor_keys(v) for k, v in obj.items() if not (isinstance(k, str) and k.startswith("x-"))}
    if isinstance(obj, list):
        return [strip_vendor_keys(v) for v in obj]
    return obj


# ---------------------------------------------------------------- format 1.1: what was recorded, and by whom

#: a piece of evidence a recording states it holds (``recorded``): see compliance.evidence
Evidence = Literal[DECLARABLE]  # type: ignore[valid-type]

RECORDED_DESCRIPTION = (
    "what the recording holds (format 1.1): " + ", ".join(DECLARABLE) + ". It explains what is absent and never "
    "exempts what is present: what a coup's events hold is judged whatever it says (a declaration they contradict "
    "is a record.declaration error); a rule needing evidence neither listed nor shown is not judged, and the "
    "report says so. Absent: everything a version 1 transcript records (all but `coups`)")


class Staff(SpecModel):
    """Who ran the table during a coup (format 1.1): each optional, ids or names as the casino writes them."""

    dealer: str | None = None
    inspector: str | None = None
    supervisor: str | None = None


class StaffStretch(Staff):
    """The staff of a stretch of coups: from coup ``from_coup`` to ``to_coup`` (default: to the next stretch, or
    the end). A coup's own ``staff`` overrides it."""

    from_coup: Annotated[int, Field(ge=0)]
    to_coup: Annotated[int, Field(ge=0)] | None = None


# ---------------------------------------------------------------- format 1.1: what an import could not use

#: the recorder's faults an import finds in a coup's rows (each reported by the check as ``record.<fault>``)
FAULTS = ("card-sequence", "logs-disagree", "duplicate-row", "contradiction")


class RejectedRow(SpecModel):
    """A row of a recorder's log that the import could not use (format 1.1, header ``rejected_rows``): kept
    with its place and the reason, so that every row read is accounted for (``record.rejected-row``)."""

    log: str = Field(description="the log file, as the import was given it")
    line: Annotated[int, Field(ge=1)] = Field(description="the row's line in the log (its first, for a row of "
                                                          "several lines)")
    reason: str = Field(description="why the import could not use it (unreadable, of another table, ...)")
    coup: Annotated[int, Field(ge=0)] | None = Field(default=None, description="the coup the row is of, as the "
                                                     "transcript numbers it, where its cells tell it")
    table: str | None = Field(default=None, description="a row of another table than the transcript's: that "
                                                        "table (absent: a row of the transcript's own table, or of "
                                                        "no table the row tells)")
    repeats: str | None = Field(default=None, description="a row captured twice: the row (log:line) it repeats, "
                                                          "which was imported (nothing of it is lost)")
    cells: list[str] | None = Field(default=None, description="the row's cells as read (absent: the row could "
                                                              "not be split into cells)")
    count: Annotated[int, Field(ge=1)] | None = Field(default=None, description="how many rows this entry stands "
                                                      "for (absent: one): beyond the first 1,000 of a log, rows are "
                                                      "counted from `line` on, not kept one by one")


class RecordFault(SpecModel):
    """A fault of the recorder the import found in a coup's rows (format 1.1, coup ``record_faults``): reported
    by the check as ``record.<fault>``; what it makes doubtful is not judged (the coup's ``recorded``)."""

    fault: Literal[FAULTS]  # type: ignore[valid-type]
    rows: list[str] = Field(description="the rows involved, as log:line")
    message: str = Field(description="what is wrong, in words")
    key: dict[str, str | int] | None = Field(
        default=None, description="duplicate-row of a row that stands alone (a wager): what tells it apart, the same "
        "in both rows (`{\"seat\": 2, \"spot\": \"player\"}`); only those rows are set aside, and what depends "
        "on every row of the coup (its wagers' totals) is not judged")
