"""Great Expectations suites as Dagster asset checks (one per suite in `expectations.suites`).

Row-level batches of raw and staging tables validate only rows of loads newer than the suite's
last passing run (`expectations.runner.Watermarks`); set-wide batches read whole tables.
Blocking suites fail with ERROR severity and stop the assets downstream of the checked table in
the same run; non-blocking ones (freshness) only warn. dbt tests are asset checks too (transform.py).
"""

import dagster as dg
import duckdb

from expectations.suites import SUITES, Suite
from ingestion import config
from orchestration.warehouse import write_lock


def check_watermarks():
    """Where each suite remembers the newest dlt load it has validated (see `Watermarks`)."""
    from expectations.runner import Watermarks

    return Watermarks(config.data_dir() / "check_watermarks")


def gx_check(suite: Suite) -> dg.AssetChecksDefinition:
    schema, table = suite.table.split(".")
    severity = dg.AssetCheckSeverity.ERROR if suite.blocking else dg.AssetCheckSeverity.WARN

    @dg.asset_check(
        asset=dg.AssetKey([schema, table]),
        name=f"gx_{suite.name}",
        description=f"Great Expectations suite `{suite.name}`: {suite.description}",
        blocking=suite.blocking,
        pool="duckdb_writer",
    )
    def _check() -> dg.AssetCheckResult:
        from expectations.runner import run_suite  # imports GX (slow) only when a check runs

        with write_lock():  # no writer may hold the file while we read it
            con = duckdb.connect(str(config.warehouse_path()), read_only=True)
            try:
                outcome = run_suite(con, suite.name, check_watermarks())
            finally:
                con.close()
        return dg.AssetCheckResult(
            passed=outcome.success,
            severity=severity,
            description=None if outcome.success else
            "; ".join(f"{f['batch']}: {f['expectation']} on {f['column']} ({f['unexpected']})"
                      for f in outcome.failures)[:1000],
            metadata={
                "rows_validated": outcome.rows,
                "validated_loads_after": outcome.since_load,  # None: every row
                "validated_loads_through": outcome.through_load,
                "batches": len(suite.batches),
                "failed_expectations": len(outcome.failures),
                "failures": dg.MetadataValue.json(outcome.failures),
            },
        )

    return _check


GX_CHECKS = [gx_check(suite) for suite in SUITES.values()]
