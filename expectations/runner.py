"""Run a suite over the warehouse: each batch's SQL in DuckDB, its rows validated by GX in chunks."""

from __future__ import annotations

import logging
import os
from dataclasses import dataclass, field

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


def run_suite(con: duckdb.DuckDBPyConnection, suite_name: str) -> SuiteOutcome:
    """Validate every batch of a suite; the suite fails if any chunk of any batch fails.
    A batch always validates at least one (possibly empty) frame, so emptiness checks run."""
    suite = SUITES[suite_name]
    context = _context()
    outcome = SuiteOutcome(suite.name, True, 0)
    for batch in suite.batches:
        batch_def, gx_suite = _batch_validation(context, suite, batch)
        reader = con.execute(batch.sql.format(table=suite.table))
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
    return outcome
