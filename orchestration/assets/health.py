"""The run's verdict on its sources: after every load step, the run fails when any source could not
load everything (what was loaded is built and published all the same; see `source_health`)."""

import dagster as dg
import duckdb
from dagster import AssetExecutionContext

from ingestion import config
from orchestration.assets.raw import RAW_ASSETS, RAW_SOURCE_NAMES, WRITER_POOL
from orchestration.source_health import LOADS_TABLE, duckdb_runner, source_status
from orchestration.warehouse import write_lock


@dg.asset(
    key=["rltrack_meta", "source_status"],
    deps=[key for assets_def in RAW_ASSETS for key in assets_def.keys],
    group_name="published",
    kinds={"duckdb"},
    owners=["team:data-platform"],
    description="Per source: last load, last complete load, rows, open failures, freshness "
                "(RLTRACK_FRESHNESS_HOURS). Fails the run when a load of this run was incomplete.",
    pool=WRITER_POOL,
)
def source_status_check(context: AssetExecutionContext) -> dg.MaterializeResult:
    with write_lock():
        con = duckdb.connect(str(config.warehouse_path()), read_only=True)
        try:
            run = duckdb_runner(con)
            statuses = source_status(run, list(RAW_SOURCE_NAMES))
            this_run = dict(run(f"select source, complete from {LOADS_TABLE} where run_id = ?", [context.run.run_id]))
        finally:
            con.close()
    metadata = {
        s.source: dg.MetadataValue.json({"last_load": s.last_load_at, "last_complete_load": s.last_complete_at,
                                         "rows": s.rows, "stale": s.stale, "open_failures": s.open_failures})
        for s in statuses}
    incomplete = sorted(source for source, complete in this_run.items() if not complete)
    if incomplete:
        raise dg.Failure(description=f"sources not loaded completely this run: {', '.join(incomplete)}; what "
                         "they did load is built and published, the rest is asked again next run "
                         "(`rltrack status`, `rltrack quarantine`)", metadata=metadata)
    return dg.MaterializeResult(metadata=metadata)
