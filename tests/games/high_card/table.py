"""What a high card transcript's header fixes for every coup."""

from __future__ import annotations

from dataclasses import dataclass

from compliance.games.common import money


@dataclass(frozen=True)
class HighCardTable:
    table_id: str
    ruleset: object

    money = staticmethod(money)

    @classmethod
    def build(cls, header, ruleset, where: str) -> HighCardTable:
        return cls(header.table.id, ruleset)
