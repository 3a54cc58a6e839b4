"""Read-only SQL on the published snapshot: one query, or an interactive shell.

Writes are refused by DuckDB itself (the file is opened read-only); `run_query` turns DuckDB's
error into a `ReadOnlyRefused` with a message that says why and what to do instead.
"""

from __future__ import annotations

import csv
import io
import json
import sys
from dataclasses import dataclass
from datetime import date, datetime, time
from decimal import Decimal
from typing import IO, Any

import duckdb

FORMATS = ("table", "csv", "json")
TABLE_CELL_MAX = 80  # table output clips long cells (file contents, bodies); csv/json never do


class ReadOnlyRefused(RuntimeError):
    """A statement tried to change the published (read-only) warehouse."""


@dataclass
class QueryResult:
    headers: list[str]
    rows: list[tuple]

    @property
    def has_rows(self) -> bool:
        return bool(self.headers)


def _is_read_only_error(exc: Exception) -> bool:
    text = str(exc).lower()
    return "read-only" in text or "read only" in text


def run_query(con: duckdb.DuckDBPyConnection, sql: str) -> QueryResult:
    """Run `sql` (one or more statements; the last one's result is returned)."""
    try:
        cursor = con.execute(sql)
    except duckdb.Error as exc:
        if _is_read_only_error(exc):
            raise ReadOnlyRefused(
                "refused: the published warehouse is read-only, so statements that change it "
                "(INSERT, UPDATE, DELETE, CREATE, DROP, ALTER, ...) are not allowed. Tables change "
                "only through `rltrack refresh`; scratch tables work as `create temp table ...`."
                f"\n  (DuckDB said: {str(exc).splitlines()[0]})"
            ) from None
        raise
    if cursor.description is None:
        return QueryResult([], [])
    headers = [d[0] for d in cursor.description]
    return QueryResult(headers, cursor.fetchall())


# --- output formats -------------------------------------------------------------------------

def _plain(value: Any) -> Any:
    """A JSON-friendly version of a DuckDB value."""
    if isinstance(value, (datetime, date, time)):
        return value.isoformat()
    if isinstance(value, Decimal):
        return float(value)
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (bytes, bytearray)):
        return value.hex()
    return value


def _cell(value: Any, clip: int | None) -> str:
    if value is None:
        return ""
    text = value.isoformat(sep=" ") if isinstance(value, datetime) else str(value)
    text = text.replace("\r", "").replace("\n", "\\n")
    if clip and len(text) > clip:
        text = text[: clip - 1] + "…"
    return text


def format_table(headers: list[str], rows: list[tuple], clip: int | None = TABLE_CELL_MAX) -> str:
    cells = [[str(h) for h in headers]] + [[_cell(v, clip) for v in r] for r in rows]
    widths = [max(len(row[i]) for row in cells) for i in range(len(headers))]

    def line(row: list[str]) -> str:
        return "  ".join(v.ljust(w) for v, w in zip(row, widths)).rstrip()

    return "\n".join([line(cells[0]), line(["-" * w for w in widths]), *map(line, cells[1:])])


def format_result(result: QueryResult, fmt: str = "table") -> str:
    if not result.has_rows:
        return ""
    if fmt == "table":
        n = len(result.rows)
        return format_table(result.headers, result.rows) + f"\n({n} row{'s' if n != 1 else ''})"
    if fmt == "csv":
        buf = io.StringIO()
        writer = csv.writer(buf, lineterminator="\n")
        writer.writerow(result.headers)
        writer.writerows([["" if v is None else _plain(v) for v in r] for r in result.rows])
        return buf.getvalue().rstrip("\n")
    if fmt == "json":
        records = [dict(zip(result.headers, map(_plain, r))) for r in result.rows]
        return json.dumps(records, indent=2, ensure_ascii=False, default=str)
    raise ValueError(f"unknown format {fmt!r}; choose one of {FORMATS}")


# --- the interactive shell ------------------------------------------------------------------

SHELL_HELP = """Type SQL ending with ';' (it may span lines). The warehouse is read-only.
  .tables            list schemas and tables (marts, intermediate, staging, seeds, raw_*)
  .describe NAME     columns of a table, e.g. .describe marts.dim_papers
  .format FORMAT     table | csv | json
  .help              this text
  .quit              leave (Ctrl-D works too)"""

TABLES_SQL = """
select table_schema as schema, table_name as name, lower(table_type) as type
from information_schema.tables
where table_schema not like '%_staging' and table_name not like '\\_dlt%' escape '\\'
order by 1, 2
"""


class Shell:
    """A small REPL: SQL statements end with ';', dot-commands as in the DuckDB CLI."""

    def __init__(self, con: duckdb.DuckDBPyConnection, fmt: str = "table",
                 stdin: IO[str] | None = None, stdout: IO[str] | None = None) -> None:
        self.con = con
        self.fmt = fmt
        self.stdin = stdin or sys.stdin
        self.stdout = stdout or sys.stdout
        self.interactive = self.stdin.isatty()

    def _print(self, text: str) -> None:
        if text:
            print(text, file=self.stdout)

    def _read(self, prompt: str) -> str | None:
        if self.interactive:
            try:
                return input(prompt)
            except EOFError:
                return None
        line = self.stdin.readline()
        return None if line == "" else line.rstrip("\n")

    def execute(self, sql: str) -> bool:
        """Run one statement and print its result or error; True when it succeeded."""
        try:
            self._print(format_result(run_query(self.con, sql), self.fmt))
            return True
        except ReadOnlyRefused as exc:
            self._print(str(exc))
        except duckdb.Error as exc:
            self._print(f"error: {exc}")
        return False

    def command(self, line: str) -> bool:
        """Handle a dot-command; False means quit."""
        name, _, arg = line.strip().partition(" ")
        arg = arg.strip()
        if name in (".quit", ".exit"):
            return False
        if name == ".help":
            self._print(SHELL_HELP)
        elif name == ".tables":
            self.execute(TABLES_SQL)
        elif name == ".describe" and arg:
            self.execute(f"describe {arg}")
        elif name == ".format" and arg in FORMATS:
            self.fmt = arg
        else:
            self._print(f"unknown command {line.strip()!r}; .help lists them")
        return True

    def loop(self) -> int:
        if self.interactive:
            try:
                import readline  # noqa: F401  (line editing and history for input())
            except ImportError:
                pass
            self._print("rltrack sql shell on the published warehouse (read-only). .help for commands.\n"
                        "This session keeps reading the snapshot it opened; restart it to see a newer refresh.")
        buffer: list[str] = []
        while True:
            line = self._read("rltrack> " if not buffer else "    ...> ")
            if line is None:
                if buffer:
                    self.execute("\n".join(buffer))
                return 0
            if not buffer and line.strip().startswith("."):
                if not self.command(line):
                    return 0
                continue
            if not line.strip() and not buffer:
                continue
            buffer.append(line)
            if line.rstrip().endswith(";"):
                self.execute("\n".join(buffer))
                buffer = []
