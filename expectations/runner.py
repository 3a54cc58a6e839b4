"""Run a suite over the warehouse: each batch's SQL in DuckDB, its rows validated by GX in chunks."""

from __future__ import annotations

import json
import logging
import os
from dataclasses import dataclass, field
from pathlib import Path

import duckdb
import great_expectations as gx
import pandas as pd
from great_expectations.data_context.types.base import ProgressBarsConfig

from expectations.suites import SUITES, Batch, Suite

CHUNK_ROWS = 100_000
DUCKDB_VECTOR = 2048  # rows per DuckDB data chunk (fetch_df_chunk counts in these)

os.environ.setdefault("GX_ANALYTICS_ENABLED", "false")
logging.getLogger("great_expectations").setLevel(logging.WARNING)


@dataclass
class SuiteOutcome:
    suite: str
    success: bool
    rows: int  # rows validated across the suite's batches
    failures: list[dict] = field(default_factory=list)  # batch, expectation, column, unexpected count
    since_load: float | None = None  # incremental batches covered loads after this one (None: all rows)
    through_load: float | None = None  # ... up to this one (dlt load ids are Unix timestamps)


class Watermarks:
    """The newest dlt load id each suite's incremental batches have passed, one small JSON file
    per suite (checks run in parallel processes). Written only after a passing run, so rows of a
    failing load are validated again next time. A full rebuild reloads every row under new load
    ids, so everything is validated again; deleting the folder does the same."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder

    def _path(self, suite: str) -> Path:
        return self.folder / f"{suite}.json"

    def get(self, suite: str) -> float | None:
        try:
            return float(json.loads(self._path(suite).read_text())["through_load"])
        except (OSError, ValueError, KeyError, TypeError):
            return None

    def set(self, suite: str, load_id: float) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        tmp = self._path(suite).with_suffix(".tmp")
        tmp.write_text(json.dumps({"through_load": load_id}))
        tmp.replace(self._path(suite))


def _context():
    context = gx.get_context(mode="ephemeral")
    context.variables.progress_bars = ProgressBarsConfig(globally=False)  # no tqdm bars in run logs
    return context


def _batch_validation(context, suite: Suite, batch: Batch):
    name = f"{suite.name}:{batch.label}"
    batch_def = (
        context.data_sources.add_pandas(f"warehouse:{name}")
        .add_dataframe_asset(name=name)
        .add_batch_definition_whole_dataframe("chunk")
    )
    gx_suite = context.suites.add(gx.ExpectationSuite(name=name))
    for expectation in batch.expectations():
        gx_suite.add_expectation(expectation)
    return batch_def, gx_suite


def _failures(batch: Batch, result) -> list[dict]:
    out = []
    for r in result.results:
        if r.success:
            continue
        kwargs = r.expectation_config.kwargs
        column = kwargs.get("column") or (
            f"{kwargs.get('column_A')}>{kwargs.get('column_B')}" if "column_A" in kwargs else None)
        details = r.result or {}
        out.append({
            "batch": batch.label,
            "expectation": r.expectation_config.type,
            "column": column,
            "unexpected": details.get("unexpected_count", details.get("observed_value")),
            "examples": [str(v) for v in (details.get("partial_unexpected_list") or [])[:5]],
        })
    return out


def validate_frame(suite: Suite, frame: pd.DataFrame, batch_index: int = 0) -> SuiteOutcome:
    """Validate one batch of a suite against a given DataFrame (tests, ad-hoc checks)."""
    batch = suite.batches[batch_index]
    batch_def, gx_suite = _batch_validation(_context(), suite, batch)
    result = batch_def.get_batch(batch_parameters={"dataframe": frame}).validate(gx_suite)
    return SuiteOutcome(suite.name, bool(result.success), len(frame), _failures(batch, result))


def _newest_load(con: duckdb.DuckDBPyConnection, suite: Suite) -> float | None:
    columns = {b.incremental_on for b in suite.batches if b.incremental_on}
    if not columns:
        return None
    (column,) = columns
    schema, table = suite.table.split(".")
    has_column = con.execute("select count(*) from information_schema.columns where table_schema = ? "
                             "and table_name = ? and column_name = ?", [schema, table, column]).fetchone()[0]
    if not has_column:  # a table not written by dlt: validate every row
        return None
    return con.execute(f"select max(cast({column} as double)) from {suite.table}").fetchone()[0]


def _batch_relation(suite: Suite, batch: Batch, since: float | None, through: float | None) -> str:
    """The table a batch reads: the whole table, or only the rows of loads in (since, through]."""
    if batch.incremental_on is None or through is None:
        return suite.table
    value = f"cast({batch.incremental_on} as double)"  # dlt load ids are decimal Unix timestamps
    lower = f"{value} > {since!r} and " if since is not None else ""
    return f"(select * from {suite.table} where {lower}{value} <= {through!r}) as rows_in_scope"


def run_suite(con: duckdb.DuckDBPyConnection, suite_name: str, watermarks: Watermarks | None = None) -> SuiteOutcome:
    """Validate every batch of a suite; the suite fails if any chunk of any batch fails.
    A batch always validates at least one (possibly empty) frame, so emptiness checks run.
    With `watermarks`, incremental batches read only rows of loads newer than the last pass;
    set-wide batches (uniqueness, sums) always read the whole table."""
    suite = SUITES[suite_name]
    context = _context()
    outcome = SuiteOutcome(suite.name, True, 0)
    if watermarks is not None:
        outcome.through_load = _newest_load(con, suite)
        outcome.since_load = watermarks.get(suite.name) if outcome.through_load is not None else None
    for batch in suite.batches:
        batch_def, gx_suite = _batch_validation(context, suite, batch)
        relation = _batch_relation(suite, batch, outcome.since_load, outcome.through_load)
        reader = con.execute(batch.sql.format(table=relation))
        first = True
        while True:
            chunk = reader.fetch_df_chunk(max(CHUNK_ROWS // DUCKDB_VECTOR, 1))
            if chunk.empty and not first:
                break
            first = False
            result = batch_def.get_batch(batch_parameters={"dataframe": chunk}).validate(gx_suite)
            outcome.rows += len(chunk)
            if not result.success:
                outcome.success = False
                outcome.failures.extend(_failures(batch, result))
            if chunk.empty:
                break
    if watermarks is not None and outcome.success and outcome.through_load is not None:
        watermarks.set(suite.name, outcome.through_load)
    return outcome
