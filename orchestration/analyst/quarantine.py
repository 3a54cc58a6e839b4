"""`rltrack quarantine`: what every source set aside (and why), read from the published snapshot.

Each source keeps the input it could not load in its own raw table; this lists them in one shape:
source, the item (an arXiv entry, a git file or commit, a GitHub object or the part of a thread not
read yet, a technical report), the framework or repository it belongs to, the reason and when it was
seen (first and last). A table a source never created (it quarantined nothing yet) lists nothing.
Beside them, what a load could not read at all (an arXiv window, a repository, a GitHub listing:
`orchestration/source_health.py`) and asks again on the next run, with its first and last failure.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import duckdb

COLUMNS = ("source", "item", "where", "reason", "seen_at", "first_seen_at")
NOT_LOADED = "not loaded, asked again next run"

# source -> (table, SQL giving the COLUMNS after `source` for open items, newest first)
QUARANTINE_TABLES = {
    "arxiv": ("raw_arxiv.papers_quarantine",
              "select entry_key, 'arXiv', reason, fetched_at from {t} order by fetched_at desc, entry_key"),
    "git_history": ("raw_git.git_quarantine",
                    "select left(sha, 12) || ' ' || coalesce(nullif(path, ''), '(whole commit)'), framework_id, "
                    "reason, noted_at from {t} order by framework_id, sha, path"),
    "github": ("raw_github.github_quarantine",
               "select resource || ' ' || item_key, repo, reason, fetched_at from {t} "
               "order by repo, resource, item_key"),
    "tech_reports": ("raw_reports.reports_quarantine",
                     "select arxiv_id || ' ' || problem, model, reason, noted_at from {t} "
                     "where resolved_at is null order by arxiv_id, problem"),
    # a thread read in part (a reviews page missing) until a later refresh reads the part again
    "github_thread_parts": ("raw_github.thread_gaps",
                            "select '#' || number || ' ' || part, repo, reason, state_at from {t} "
                            "where state = 'open' order by repo, number, part"),
    # a page arXiv would not serve, or one with no readable front matter (no HTML at all is no fault)
    "arxiv_front_matter": ("raw_arxiv.paper_front_matter",
                           "select arxiv_id || ' ' || status, 'arXiv HTML', problem, fetched_at from {t} "
                           "where status in ('fetch_failed', 'no_front_matter') order by arxiv_id"),
}


def table_exists(con: duckdb.DuckDBPyConnection, table: str) -> bool:
    schema, name = table.split(".")
    return bool(con.execute("select count(*) from information_schema.tables where table_schema = ? "
                            "and table_name = ?", [schema, name]).fetchone()[0])


def quarantined(con: duckdb.DuckDBPyConnection, sources: list[str] | None = None) -> list[tuple]:
    """Rows of COLUMNS for every source (or those named), tech reports' resolved problems left out."""
    from orchestration.source_health import FAILURES_TABLE

    out: list[tuple] = []
    for source, (table, sql) in QUARANTINE_TABLES.items():
        if sources and source not in sources:
            continue
        if table_exists(con, FAILURES_TABLE):
            out += [_text(row) for row in con.execute(
                f"select source, item, ?, reason, last_failed_at, first_failed_at from {FAILURES_TABLE} "
                "where source = ? and resolved_at is null order by first_failed_at, item", [NOT_LOADED, source]
            ).fetchall()]
        if table_exists(con, table):
            out += [_text((source, *row, row[-1])) for row in con.execute(sql.format(t=table)).fetchall()]
    return out


def _text(row: tuple) -> tuple:
    return tuple(str(v) if v is not None else "" for v in row)


def summary(rows: list[tuple]) -> str:
    """'N items: arxiv 0, git_history 32, ...' over every source."""
    counts = {s: 0 for s in QUARANTINE_TABLES}
    for row in rows:
        counts[row[0]] += 1
    return f"{len(rows)} quarantined item(s): " + ", ".join(f"{s} {n}" for s, n in counts.items())
