"""The last step of a refresh: publish a read-only snapshot and report the headline figures."""

import dagster as dg
from dagster import AssetExecutionContext
import duckdb

from ingestion import config
from orchestration import warehouse

MARTS = ["fct_method_adoptions", "fct_cohort_adoption", "rpt_headline", "dim_papers", "dim_frameworks"]


def headline_rows(con: duckdb.DuckDBPyConnection) -> list[tuple]:
    return con.execute(
        "select metric, our_value, study_value from marts.rpt_headline order by sort_order"
    ).fetchall()


@dg.asset(
    key=["published", "warehouse_snapshot"],
    deps=[*(dg.AssetKey(["marts", m]) for m in MARTS), dg.AssetKey(["analysis", "factor_model"])],
    group_name="published",
    kinds={"duckdb"},
    owners=["team:data-platform"],
    description="Read-only copy of the warehouse that analysts query; swapped in atomically after a refresh.",
    pool="duckdb_writer",
)
def warehouse_snapshot(context: AssetExecutionContext) -> dg.MaterializeResult:
    target = warehouse.publish(config.warehouse_path())
    con = warehouse.connect_read_only(target)
    try:
        rows = headline_rows(con)
        counts = {m: con.execute(f"select count(*) from marts.{m}").fetchone()[0] for m in MARTS}
    finally:
        con.close()
    table = "| metric | ours | study |\n|---|---|---|\n" + "\n".join(f"| {m} | {o} | {s} |" for m, o, s in rows)
    context.log.info("published %s", target)
    return dg.MaterializeResult(
        metadata={
            "path": dg.MetadataValue.path(str(target)),
            "previous_snapshot": dg.MetadataValue.path(str(warehouse.previous_path(config.warehouse_path()))),
            "headline": dg.MetadataValue.md(table),
            **{f"rows_{m}": c for m, c in counts.items()},
        }
    )
