"""Great Expectations suites as Dagster asset checks. Blocking checks stop downstream assets."""

import dagster as dg
import duckdb

from expectations.runner import run_suite
from expectations.suites import SUITES
from ingestion import config
from orchestration.warehouse import write_lock


def _gx_check(suite_name: str, blocking: bool) -> dg.AssetChecksDefinition:
    suite = SUITES[suite_name]
    schema, table = suite.table.split(".")

    @dg.asset_check(
        asset=dg.AssetKey([schema, table]),
        name=f"gx_{suite_name}",
        description=f"Great Expectations suite `{suite_name}` over `{suite.table}`.",
        blocking=blocking,
        pool="duckdb_writer",
    )
    def _check() -> dg.AssetCheckResult:
        with write_lock():  # no writer may hold the file while we read it
            con = duckdb.connect(str(config.warehouse_path()), read_only=True)
            try:
                outcome = run_suite(con, suite_name)
            finally:
                con.close()
        return dg.AssetCheckResult(
            passed=outcome.success,
            severity=dg.AssetCheckSeverity.ERROR,
            metadata={
                "rows_validated": outcome.rows,
                "failed_expectations": len(outcome.failures),
                "failures": dg.MetadataValue.json(outcome.failures),
            },
        )

    return _check


GX_CHECKS = [
    _gx_check("raw_arxiv_papers", blocking=True),
    _gx_check("fct_method_adoptions", blocking=True),
    _gx_check("fct_cohort_adoption", blocking=True),
]
