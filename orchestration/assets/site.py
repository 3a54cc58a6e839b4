"""The tracker site, rebuilt from each published snapshot (`rltrack site` writes the same files)."""

import dagster as dg
from dagster import AssetExecutionContext

from ingestion import config
from orchestration import warehouse
from orchestration.analyst.site import render_site
from orchestration.assets.publish import warehouse_snapshot
from orchestration.world import world_spec


@dg.asset(
    key=["published", "tracker_site"],
    deps=[warehouse_snapshot],
    group_name="published",
    kinds={"duckdb", "html"},  # reads the snapshot, writes HTML
    owners=["team:data-platform"],
    description="Static tracker site (matrix, method and framework pages, search) in <data dir>/site; "
                "reads the published snapshot only, so it needs no writer slot.",
)
def tracker_site(context: AssetExecutionContext) -> dg.MaterializeResult:
    snapshot = warehouse.published_path(config.warehouse_path())
    con = warehouse.connect_read_only(snapshot)
    try:
        index = render_site(con, config.data_dir() / "site", sample=world_spec() == "sample")
    finally:
        con.close()
    context.log.info("tracker site written to %s", index.parent)
    return dg.MaterializeResult(metadata={
        "index": dg.MetadataValue.path(str(index)),
        "method_pages": len(list((index.parent / "methods").glob("*.html"))),
        "framework_pages": len(list((index.parent / "frameworks").glob("*.html"))),
    })
