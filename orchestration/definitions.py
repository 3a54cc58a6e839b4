"""The Dagster code location: dlt raw assets -> dbt models -> published snapshot -> tracker site, with checks,
jobs, schedules and the automation sensor."""

from __future__ import annotations

import dagster as dg
from dagster_dlt import DagsterDltResource

from orchestration.dbt_project import dbt_resource, parse_manifest
from orchestration.instance import quick_run_history

quick_run_history()  # runs of these definitions store their events without an fsync each
parse_manifest()  # dagster-dbt builds its assets from target/manifest.json

from orchestration.assets.factor_model import factor_model  # noqa: E402
from orchestration.assets.health import source_status_check  # noqa: E402
from orchestration.assets.publish import warehouse_snapshot  # noqa: E402
from orchestration.assets.raw import RAW_ASSETS  # noqa: E402
from orchestration.assets.site import tracker_site  # noqa: E402
from orchestration.assets.transform import dbt_warehouse  # noqa: E402
from orchestration.checks import GX_CHECKS  # noqa: E402
from orchestration.jobs import JOBS, SCHEDULES  # noqa: E402
from orchestration.sensors import EAGER, SENSORS  # noqa: E402

defs = dg.Definitions(
    assets=[
        *RAW_ASSETS,
        source_status_check,
        dbt_warehouse,
        factor_model.with_attributes(automation_condition=EAGER),
        warehouse_snapshot.with_attributes(automation_condition=EAGER),
        tracker_site.with_attributes(automation_condition=EAGER),
    ],
    asset_checks=GX_CHECKS,
    jobs=JOBS,
    schedules=SCHEDULES,
    sensors=SENSORS,
    resources={"dlt": DagsterDltResource(), "dbt": dbt_resource()},
    # Every step reads or writes the one DuckDB file under the `duckdb_writer` pool (limit 1), so
    # steps run one at a time anyway; one process per run saves a start-up per step (~2.5 s to
    # load these definitions, ~2.7 s more to import Great Expectations in each check step).
    executor=dg.in_process_executor,
)
