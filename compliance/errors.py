"""Errors a user can cause: one clear message with its place, exit status 2."""

from __future__ import annotations


class Where(str):
    """A place in a file, ``file:line:column``, that keeps its parts (no parsing the text back)."""

    file: str
    line: int
    column: int

    def __new__(cls, file: str, line: int, column: int = 1):
        self = super().__new__(cls, f"{file}:{line}:{column}")
        self.file, self.line, self.column = file, line, column
        return self


class UserError(Exception):
    """Something in the user's input or arguments stops the run (exit 2).

    ``where`` is the place in the input: ``file``, ``file:line`` or
    ``file:line:column``, or a JSON path; the message never needs a traceback.
    """

    def __init__(self, message: str, where: str | None = None):
        super().__init__(message)
        self.message = message
        self.where = where

    def __str__(self) -> str:
        return f"{self.where}: {self.message}" if self.where else self.message
