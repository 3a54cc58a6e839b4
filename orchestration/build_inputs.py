"""Does the dbt build have anything to do? A digest of everything it reads, kept with what it built.

The models read nothing but the raw tables, the dbt project (models, macros, seeds, vars), the
framework registry file and dbt itself: no model reads the clock. So when none of these changed since the build of the published
snapshot, building again would give the same tables, and a refresh may skip it (and with it the
checks, publish and site steps that follow, which then have nothing new either).

The digest covers the content of every raw table (all columns but dlt's load bookkeeping and the
times a row was last seen, `OBSERVED_AT`, which no model reads: rows a load merges again unchanged do
not count), every file of the dbt project and the installed dbt
packages' versions. A successful build stores it in the warehouse (`BUILD_TABLE`), so the published
snapshot carries the digest of the build it holds; a failed build or a failed publish leaves the
snapshot's digest behind and the next refresh builds again.
"""

from __future__ import annotations

import hashlib
from importlib.metadata import version
from pathlib import Path

import duckdb

from ingestion import config
from ingestion.pipelines import DATASETS
from orchestration.dbt_project import project_files
from orchestration.source_health import duckdb_runner, status_fingerprint

BUILD_TABLE = "rltrack_meta.dbt_build_inputs"
DLT_COLUMNS = ("_dlt_load_id", "_dlt_id")
OBSERVED_AT = ("fetched_at", "noted_at")  # when a source last saw a row, not what it says (no model reads them)


def project_digest(project_dir: Path) -> str:
    """Every file of the dbt project (paths and bytes) and the dbt packages' versions."""
    h = hashlib.sha256(f"dbt-core {version('dbt-core')} dbt-duckdb {version('dbt-duckdb')}".encode())
    for path in sorted(project_files(project_dir)):
        h.update(path.relative_to(project_dir).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    return h.hexdigest()


def raw_digest(con: duckdb.DuckDBPyConnection) -> str:
    """Row count and an order-independent sum of row hashes of every raw table (dlt's tables and
    bookkeeping columns, and OBSERVED_AT, left out)."""
    schemas = sorted(DATASETS.values())
    tables = con.execute(
        "select table_schema, table_name, list(column_name order by column_name) from information_schema.columns "
        "where table_schema in (select unnest(?::varchar[])) and table_name not like '\\_dlt\\_%' escape '\\' "
        "group by all order by all", [schemas]).fetchall()
    h = hashlib.sha256()
    for schema, table, columns in tables:
        kept = [c for c in columns if c not in DLT_COLUMNS + OBSERVED_AT]
        if not kept:
            continue
        cols = ", ".join(f'"{c}"' for c in kept)
        count, total = con.execute(
            f'select count(*), coalesce(sum(hash({cols})::hugeint), 0) from "{schema}"."{table}"').fetchone()
        h.update(f"{schema}.{table}({','.join(kept)}) {count} {total}\n".encode())
    return h.hexdigest()


def inputs_digest(con: duckdb.DuckDBPyConnection, project_dir: Path) -> str:
    """The project, the raw tables, the framework registry (stg_registry__frameworks reads it) and the
    sources' open failures: a snapshot must say which sources it lacks, so a failure that opens or
    closes publishes again."""
    status = status_fingerprint(duckdb_runner(con))
    registry = hashlib.sha256(config.frameworks_csv().read_bytes()).hexdigest()
    return hashlib.sha256(f"{project_digest(project_dir)} {raw_digest(con)} {registry} {status}".encode()).hexdigest()


def built_digest(path: Path) -> str | None:
    """The digest stored with the build in the DuckDB file at `path` (None: none, or no such file)."""
    if not path.exists():
        return None
    try:
        con = duckdb.connect(str(path), read_only=True)
    except duckdb.Error:
        return None
    try:
        row = con.execute(f"select digest from {BUILD_TABLE}").fetchone()
        return row[0] if row else None
    except duckdb.Error:  # built before digests were kept
        return None
    finally:
        con.close()


def store_digest(con: duckdb.DuckDBPyConnection, digest: str) -> None:
    """Keep `digest` with the build just made (one row)."""
    schema = BUILD_TABLE.split(".")[0]
    con.execute(f"create schema if not exists {schema}")
    con.execute(f"create or replace table {BUILD_TABLE} as select ?::varchar as digest, now() as built_at", [digest])
