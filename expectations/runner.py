"""Run a suite over a warehouse table, chunk by chunk, and summarise the result."""

from __future__ import annotations

import logging
from dataclasses import dataclass, field

import duckdb
import great_expectations as gx
import pandas as pd

from expectations.suites import SUITES, Suite

CHUNK_ROWS = 200_000
logging.getLogger("great_expectations").setLevel(logging.WARNING)


@dataclass
class SuiteOutcome:
    suite: str
    success: bool
    rows: int
    failures: list[dict] = field(default_factory=list)  # expectation type, column, unexpected count


def _validator(suite: Suite):
    context = gx.get_context(mode="ephemeral")
    batch_def = (
        context.data_sources.add_pandas("warehouse")
        .add_dataframe_asset(name=suite.name)
        .add_batch_definition_whole_dataframe("chunk")
    )
    gx_suite = context.suites.add(gx.ExpectationSuite(name=suite.name))
    for expectation in suite.expectations():
        gx_suite.add_expectation(expectation)
    return batch_def, gx_suite


def validate_frame(suite: Suite, frame: pd.DataFrame) -> SuiteOutcome:
    batch_def, gx_suite = _validator(suite)
    result = batch_def.get_batch(batch_parameters={"dataframe": frame}).validate(gx_suite)
    return _outcome(suite.name, result, len(frame))


def _outcome(name: str, result, rows: int) -> SuiteOutcome:
    failures = [
        {
            "expectation": r.expectation_config.type,
            "column": r.expectation_config.kwargs.get("column")
            or f"{r.expectation_config.kwargs.get('column_A')}>{r.expectation_config.kwargs.get('column_B')}",
            "unexpected": (r.result or {}).get("unexpected_count"),
        }
        for r in result.results
        if not r.success
    ]
    return SuiteOutcome(name, bool(result.success), rows, failures)


def run_suite(con: duckdb.DuckDBPyConnection, suite_name: str) -> SuiteOutcome:
    """Validate a warehouse table in chunks; the suite fails if any chunk fails."""
    suite = SUITES[suite_name]
    cols = ", ".join(suite.columns)
    reader = con.execute(f"select {cols} from {suite.table}")
    batch_def, gx_suite = _validator(suite)
    rows, failures, success = 0, [], True
    while True:
        chunk = reader.fetch_df_chunk(CHUNK_ROWS // 2048 or 1)
        if chunk.empty:
            break
        rows += len(chunk)
        outcome = _outcome(suite.name, batch_def.get_batch(batch_parameters={"dataframe": chunk}).validate(gx_suite), len(chunk))
        success &= outcome.success
        failures.extend(outcome.failures)
    return SuiteOutcome(suite.name, success, rows, failures)
