"""``baccarat-audit import``: recorders' logs (CSV) turned into a transcript, through declarative mappings.

    baccarat-audit import shoe-log=shoe.csv hand-log=hands.csv wager-log=wagers.csv \\
        --table BAC-07 --jurisdiction au-nsw -o night.jsonl

Each log is named with its mapping (a bundled mapping's name, or a mapping
file).  Rows that cannot be read are reported at ``file:line`` and every
other row is imported; the counts of rows read, imported and rejected are
printed.  Exit status: 0 every row imported, 1 some rows rejected (the
transcript is written all the same), 2 nothing could be done (a broken
mapping, no such log).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import typer

from compliance.cli.app import BUNDLED, app
from compliance.errors import UserError
from compliance.printable import printable


def _specs(logs: list[str]) -> list[tuple[str, str]]:
    out = []
    for spec in logs:
        mapping, sep, path = spec.partition("=")
        if not sep or not mapping or not path:
            raise UserError(f"{spec!r}: name each log with its mapping, MAPPING=FILE (e.g. shoe-log=shoe.csv)")
        out.append((mapping, path))
    return out


def _header(path: Path | None) -> dict:
    from compliance import figures, fileread  # inside the command: not at start-up

    if path is None:
        return {}
    text = fileread.read_text(path, "mapping", str(path), missing="no such header file")  # bounded, UTF-8
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise UserError(f"not valid JSON: {e.msg} at line {e.lineno}, column {e.colno}", str(path)) from None
    except RecursionError:
        raise UserError("not valid JSON here: nested too deeply", str(path)) from None
    except ValueError as e:  # a number of more than figures.MAX_INT_DIGITS digits
        raise UserError(f"not valid JSON here: {figures.value_error(e)}", str(path)) from None
    if not isinstance(data, dict):
        raise UserError("the header file must be a JSON object (a transcript header: table, shoes)", str(path))
    if not isinstance(data.get("table", {}), dict):
        raise UserError("`table` must be a JSON object (id, jurisdiction, seats, limits...)", str(path))
    if not isinstance(data.get("shoes", []), list) or not all(isinstance(s, dict) for s in data.get("shoes", [])):
        raise UserError("`shoes` must be a list of objects (id, decks)", str(path))
    return data


@app.command("import")
def import_(
    logs: list[str] = typer.Argument(None, metavar="MAPPING=FILE", show_default=False,
                                     help="The logs, each as MAPPING=FILE: a bundled mapping (shoe-log, hand-log, "
                                          "wager-log) or a mapping file, and the log it reads."),
    output: Path = typer.Option(None, "--output", "-o", metavar="FILE", show_default=False,
                                help="The transcript to write (.jsonl, or .json) [default: standard output, as JSON "
                                     "Lines]."),
    table: str = typer.Option(None, "--table", metavar="ID", show_default=False,
                              help="The table to import (rows of other tables are left out) [default: the one table "
                                   "the logs name]."),
    header_file: Path = typer.Option(None, "--header", metavar="FILE", show_default=False,
                                     help="A JSON object of transcript header fields (table: jurisdiction, seats, "
                                          "limits, commission...; shoes with their decks)."),
    jurisdiction: str = typer.Option(None, "--jurisdiction", metavar="ID", show_default=False,
                                     help="table.jurisdiction of the transcript."),
    game: str = typer.Option(None, "--game", metavar="GAME", show_default=False,
                             help="table.game: a game of the jurisdiction's ruleset (punto_banco, mini_baccarat, "
                                  "even_money, ez_baccarat ...) [default: punto_banco]."),
    seats: int = typer.Option(None, "--seats", min=1, metavar="N", show_default=False,
                              help="table.seats [default: 7, or the highest seat a wager names]."),
    decks: int = typer.Option(8, "--decks", min=1, max=16, metavar="N",
                              help="Decks in each shoe the header file does not list."),
    ruleset: str = typer.Option(None, "--ruleset", "-r", metavar="ID|FILE", show_default=False,
                                help=f"The ruleset whose tableau settles what the logs leave open: an id ({BUNDLED}) "
                                     "or YAML path [default: the jurisdiction's; else the standard tableau]."),
    list_mappings: bool = typer.Option(False, "--list-mappings", help="List the bundled mappings and exit."),
):
    """Turn recorders' logs (CSV) into one transcript: rows become coups through YAML mappings, logs of one
    table are merged by shoe and coup; exit 0 every row imported, 1 rows rejected, 2 could not import."""
    from compliance.importing.mapping import bundled_names, load_mapping

    if list_mappings:
        for name in bundled_names():
            m = load_mapping(name)
            typer.echo(f"{name}  [{m.rows} rows; records {', '.join(sorted(m.evidence))}]  {m.title}")
        raise typer.Exit(0)
    from compliance.games.common import encode
    from compliance.importing.mapping import bundled_dir
    from compliance.importing.merge import import_logs
    from compliance.outputs import refuse_overwriting
    from compliance.outputs import resolve as resolve_output
    from compliance.outputs import write as write_output
    from compliance.ruleset.loader import load_jurisdiction, load_ruleset

    specs = _specs(logs or [])
    target = resolve_output(output) if output is not None else None  # a path never written to: stop before reading
    header = _header(header_file)
    head_table = dict(header.get("table") or {})
    for key, value in (("jurisdiction", jurisdiction), ("game", game), ("seats", seats)):
        if value is not None:
            head_table[key] = value
    if head_table:
        header["table"] = head_table
    # the tableau that settles what the logs leave open: --ruleset (a ruleset id or file), else the jurisdiction,
    # which names a bundled ruleset and never a file (as a transcript's table.jurisdiction)
    jurisdiction = head_table.get("jurisdiction")
    for m, _ in specs:  # a broken mapping is said first, at its place
        load_mapping(m)
    if not jurisdiction:  # said now, not by the check of a transcript that could never be judged
        raise UserError("the table's jurisdiction is not given: name it with --jurisdiction ID (or table.jurisdiction "
                        "in --header); the transcript is judged by that jurisdiction's ruleset")
    rules = load_ruleset(ruleset) if ruleset else (
        load_jurisdiction(jurisdiction) if isinstance(jurisdiction, str) and jurisdiction else None)
    if target is not None:
        reads = {path: "a log" for _, path in specs} | {
            m: "a mapping file" for m, _ in specs if not (bundled_dir() / f"{m}.yaml").is_file()}
        reads |= {str(header_file): "the header file"} if header_file is not None else {}
        reads |= {f: "a ruleset file" for f in (rules.files if rules is not None else ())}
        refuse_overwriting([target], reads)
        _refuse_the_installation(target)
    imported = import_logs(specs, table=table, ruleset=rules, header=header, decks=decks)
    check_coup = _validate(imported)
    for log in imported.logs:  # what the logs hold is quoted: made printable, never obeyed by the terminal
        for r in log.rejected:
            typer.echo(f"baccarat-audit: {printable(str(r))}", err=True)
        if log.more_rejected:
            typer.echo(f"baccarat-audit: {printable(log.first_more['rejected'])}: and {log.more_rejected:,} more rows "
                       "rejected from this line on (counted in the transcript's rejected_rows)", err=True)
        for r in log.notes:
            typer.echo(f"baccarat-audit: note: {printable(str(r))}", err=True)
    one_json = output is not None and output.suffix.lower() == ".json"

    def transcript(f) -> None:  # each coup written as it is built: the coups are never all held
        head = encode(imported.header)
        f.write(head[:-1] + b',"coups":[\n' if one_json else head + b"\n")
        for n, coup in enumerate(imported.coups):
            line = encode(coup)
            check_coup(coup, line)
            f.write((b",\n" if one_json and n else b"") + line + (b"" if one_json else b"\n"))
        if one_json:
            f.write(b"\n]}\n")

    if output is None:
        transcript(sys.stdout.buffer)
        sys.stdout.flush()
    else:
        write_output(output, transcript, "cannot write the transcript")
    for note in imported.notes:
        typer.echo(f"baccarat-audit: note: {printable(note)}", err=True)
    for log in imported.logs:
        other = f", {log.other_count:,} of other tables" if log.other_count else ""
        typer.echo(f"{printable(log.path)}: {_plural(log.read, 'row')} read, {log.read - log.rejected_count - log.other_count:,} "
                   f"imported, {log.rejected_count:,} rejected{other}", err=True)
    where = printable(str(output)) if output is not None else "standard output"
    extra = []
    if imported.partial:
        extra.append(f"{imported.partial:,} hold less than the header says (their own `recorded`)")
    if imported.settled:
        extra.append(f"{imported.settled:,} settled by the tableau or the hand log (x-import)")
    typer.echo(f"wrote {where}: {_plural(imported.count, 'coup')} of table "
               f"{printable(str(imported.header['table']['id']))}; "
               f"recorded: {', '.join(imported.header['recorded'])}" + (f"; {'; '.join(extra)}" if extra else ""),
               err=True)
    raise typer.Exit(1 if imported.rejected else 0)


def _refuse_the_installation(target) -> None:
    """An output never overwrites a file of the installation (a bundled mapping, a ruleset): the next run would
    read what this one wrote."""
    import compliance

    if target.kind != "file":
        return
    home = Path(compliance.__file__).resolve().parent
    if home == Path(target.path).resolve() or home in Path(target.path).resolve().parents:
        raise UserError("is a file of the installation (under compliance/): write the transcript elsewhere",
                        str(target.path))


def _plural(n: int, word: str) -> str:
    return f"{n:,} {word}{'' if n == 1 else 's'}"


def _validate(imported):
    """The transcript written is read back by the transcript's own decoders: a header the options make invalid
    is the user's to fix (exit 2).  Returns the check of a coup (the coup, its encoding), made as it is
    written."""
    from compliance import registry
    from compliance.games.common import encode
    from compliance.reading.reader import decode_coup
    from compliance.transcript.fields import strip_vendor_keys

    game = registry.for_table_game(imported.header["table"].get("game"))
    try:
        game.codec.header_decoder.decode(encode(strip_vendor_keys(imported.header)))
    except Exception as e:  # msgspec.ValidationError: the header options or file
        raise UserError(f"the transcript header would not be valid: {e} (see --header, --table, --seats)") from None

    def check_coup(coup: dict, line: bytes) -> None:
        record = decode_coup(line, 1, 1, "$", game.codec)
        if record.error is not None:
            raise AssertionError(f"coup {coup.get('coup')}: the import built a coup the reader refuses: {record.error}")

    return check_coup
