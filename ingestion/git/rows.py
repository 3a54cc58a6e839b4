"""The `raw_git` rows of mined commits: column hints, dict rows, and the same rows as Arrow tables.

The big tables (commits, commit_files, commit_mentions) reach dlt as Arrow tables: dlt writes them
to parquet as they are and skips its per-row normaliser (the slow part of loading ~1M mention rows
as dicts). `*_row(s)` give the same rows as dicts (tests, benches). No dlt import here: this module
also runs in the mining worker processes.
"""

from __future__ import annotations

import hashlib
import importlib.metadata
import json
from collections.abc import Iterable, Iterator
from functools import cache
from pathlib import Path

import pyarrow as pa

from ingestion import config
from ingestion.git.mining import MinedCommit
from ingestion.git.mentions import CONTEXT_RANK
from ingestion.text import word_zipf

# What decides the rows a commit gives: a change to any of these files is a new miner version.
MINER_FILES = ("mentions.py", "mining.py", "rows.py")


@cache
def miner_version() -> str:
    """The version of the rows this code mines: a digest of the miner's files and of the word
    frequencies `word_zipf` reads. Rows carry it; a framework mined by another version is mined again."""
    digest = hashlib.sha256(importlib.metadata.version("wordfreq").encode())
    for name in MINER_FILES:
        digest.update((Path(__file__).parent / name).read_bytes())
    return digest.hexdigest()[:12]


_DELETED = {"deleted": {"name": "deleted", "data_type": "bool", "hard_delete": True}}
_ARROW_TYPES = {"text": pa.string(), "bigint": pa.int64(), "double": pa.float64(), "bool": pa.bool_(),
                "timestamp": pa.timestamp("us", tz="UTC")}


def _columns(text: str = "", bigint: str = "", bool_: str = "", timestamp: str = "", double: str = "") -> dict:
    """Column hints (names by type), so a table exists with its columns before any row arrives."""
    types = {"text": text, "bigint": bigint, "bool": bool_, "timestamp": timestamp, "double": double}
    return {name: {"data_type": t, **({"timezone": True} if t == "timestamp" else {})}
            for t, names in types.items() for name in names.split()}


_KEY = "framework_id repo sha"
COMMIT_COLUMNS = {**_columns(f"{_KEY} parents author_name author_domain message branch miner_version",
                             "insertions deletions files_changed", "is_merge on_default_branch",
                             "authored_at committed_at"), **_DELETED}
FILE_COLUMNS = {**_columns(f"{_KEY} path old_path change_type", "added_lines deleted_lines",
                           "is_binary is_submodule scan_truncated"), **_DELETED}
MENTION_COLUMNS = {**_columns(f"{_KEY} path kind value location context miner_version", double="word_zipf"), **_DELETED}
# path '' is a whole commit; sha and path '' a whole repository that could not be read
QUARANTINE_COLUMNS = _columns(f"{_KEY} path object_id reason", timestamp="noted_at resolved_at")
HEAD_FILE_COLUMNS = {**_columns("framework_id repo head_sha path kind content", "size_bytes"), **_DELETED}


# merge keys (dlt makes them NOT NULL; the Arrow schema says so too)
COMMIT_KEY = ("repo", "sha")
FILE_KEY = ("repo", "sha", "path")
MENTION_KEY = ("repo", "sha", "path", "kind", "value", "location")


def arrow_schema(columns: dict, key: tuple[str, ...]) -> pa.Schema:
    return pa.schema([pa.field(name, _ARROW_TYPES[col["data_type"]], nullable=name not in key)
                      for name, col in columns.items()])


def commit_row(fw: config.Framework, branch: str, c: MinedCommit, deleted: bool = False,
               repo: str | None = None) -> dict:
    return {
        "framework_id": fw.framework_id, "repo": repo or fw.repo, "sha": c.sha,
        "parents": json.dumps(c.parents), "is_merge": c.is_merge,
        "author_name": c.author_name, "author_domain": c.author_domain,
        "authored_at": c.authored_at, "committed_at": c.committed_at, "message": c.message,
        "insertions": sum(f.added_lines or 0 for f in c.files),
        "deletions": sum(f.deleted_lines or 0 for f in c.files),
        "files_changed": len(c.files), "branch": branch, "on_default_branch": True,
        "miner_version": miner_version(), "deleted": deleted,
    }


def file_rows(fw: config.Framework, c: MinedCommit, deleted: bool = False,
              repo: str | None = None) -> Iterator[dict]:
    for f in c.files:
        yield {
            "framework_id": fw.framework_id, "repo": repo or fw.repo, "sha": c.sha, "path": f.path,
            "old_path": f.old_path, "change_type": f.change_type, "added_lines": f.added_lines,
            "deleted_lines": f.deleted_lines, "is_binary": f.is_binary,
            "is_submodule": f.is_submodule, "scan_truncated": f.scan_truncated, "deleted": deleted,
        }


def best_mentions(c: MinedCommit) -> dict[tuple[str, str, str, str], str]:
    """(path, location, kind, value) -> the strongest context it was seen in (a path listed twice
    keeps one row: the merge key must stay unique)."""
    best: dict[tuple[str, str, str, str], str] = {}
    for g in c.mention_groups:
        for kind, value, context in g.items:
            key = (g.path, g.location, kind, value)
            if key not in best or CONTEXT_RANK[context] < CONTEXT_RANK[best[key]]:
                best[key] = context
    return best


def mention_rows(fw: config.Framework, c: MinedCommit, deleted: bool = False,
                 repo: str | None = None) -> Iterator[dict]:
    """One row per (path, location, kind, value), with the strongest context it was seen in."""
    base = {"framework_id": fw.framework_id, "repo": repo or fw.repo, "sha": c.sha}
    for (path, location, kind, value), context in best_mentions(c).items():
        yield {**base, "path": path, "kind": kind, "value": value, "location": location, "context": context,
               "word_zipf": word_zipf(value) if kind == "token" else None, "miner_version": miner_version(),
               "deleted": deleted}


def mention_table(fw: config.Framework, commits: Iterable[tuple[MinedCommit, bool, str | None]]) -> pa.Table:
    """`mention_rows` of many (commit, deleted, repo) as one Arrow table, built column by column."""
    cols: dict[str, list] = {name: [] for name in MENTION_COLUMNS}
    for c, deleted, repo in commits:
        best = best_mentions(c)
        if not best:
            continue
        n = len(best)
        paths, locations, kinds, values = zip(*best)
        cols["framework_id"] += [fw.framework_id] * n
        cols["repo"] += [repo or fw.repo] * n
        cols["sha"] += [c.sha] * n
        cols["deleted"] += [deleted] * n
        cols["path"] += paths
        cols["kind"] += kinds
        cols["value"] += values
        cols["location"] += locations
        cols["context"] += best.values()
        cols["word_zipf"] += [word_zipf(v) if k == "token" else None for k, v in zip(kinds, values)]
        cols["miner_version"] += [miner_version()] * n
    return pa.table(cols, schema=arrow_schema(MENTION_COLUMNS, MENTION_KEY))


def rows_table(rows: Iterable[dict], columns: dict, key: tuple[str, ...]) -> pa.Table:
    return pa.Table.from_pylist(list(rows), schema=arrow_schema(columns, key))
