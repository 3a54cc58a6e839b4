"""Jobs and schedules. Every job writes the one DuckDB file: its runs carry the writer tag that
dagster.yaml limits to one run at a time, its write steps share the `duckdb_writer` pool (limit 1),
and each write step holds the file lock (warehouse.py) as the last line of defence.

- `refresh`: every source incrementally (dlt cursors/merge), then `dbt build`, checks, publish.
- `full_rebuild`: every source with dlt `refresh="drop_sources"` (tables and incremental state
  dropped, everything re-extracted: catches upstream deletions and parser changes), then
  `dbt build --full-refresh`. If a source fails midway, its checks/downstream models are not
  rebuilt and the published snapshot stays the last good one. The arXiv HTML front matter is the
  exception: it loads incrementally there too (dropped, it would take several runs at arXiv's pace
  to read back, and the marts would lose its evidence meanwhile); a new reader version
  (`arxiv_front_matter.READER_VERSION`) reads every page again, or run it with `full_refresh`.
- `refresh_<source>`: one source and everything downstream of it.
"""

import dagster as dg

from orchestration.assets.raw import RAW_ASSETS_BY_SOURCE, RawLoadConfig
from orchestration.assets.transform import DbtBuildConfig

INCREMENTAL_IN_FULL_REBUILD = {"arxiv_front_matter"}  # see the module docstring
WRITER_TAGS = {"rltrack/warehouse": "writer"}  # dagster.yaml: at most one such run at a time
MAX_RUNTIME = {"dagster/max_runtime": str(6 * 3600)}

refresh_job = dg.define_asset_job(
    "refresh",
    selection=dg.AssetSelection.all(),
    description="Load every source incrementally, rebuild the dbt models, run checks, publish the snapshot.",
    tags={**WRITER_TAGS, **MAX_RUNTIME},
)

full_rebuild_job = dg.define_asset_job(
    "full_rebuild",
    selection=dg.AssetSelection.all(),
    description="Drop and reload every raw source (dlt drop_sources), `dbt build --full-refresh`, checks, publish.",
    tags={**WRITER_TAGS, **MAX_RUNTIME},
    config=dg.RunConfig(ops={
        **{f"load_{source}": RawLoadConfig(full_refresh=True) for source in RAW_ASSETS_BY_SOURCE
           if source not in INCREMENTAL_IN_FULL_REBUILD},
        "dbt_warehouse": DbtBuildConfig(full_refresh=True),
    }),
)

source_jobs = [
    dg.define_asset_job(
        f"refresh_{source}",
        selection=dg.AssetSelection.assets(assets_def).downstream(),
        description=f"Load {source} incrementally and rebuild the models downstream of it.",
        tags={**WRITER_TAGS, **MAX_RUNTIME},
    )
    for source, assets_def in RAW_ASSETS_BY_SOURCE.items()
]

daily_refresh = dg.ScheduleDefinition(
    name="daily_refresh",
    job=refresh_job,
    cron_schedule="0 4 * * *",
    execution_timezone="UTC",
    description="Incremental refresh every day at 04:00 UTC.",
    default_status=dg.DefaultScheduleStatus.STOPPED,  # switched on in the UI or by the deployment
)

weekly_full_rebuild = dg.ScheduleDefinition(
    name="weekly_full_rebuild",
    job=full_rebuild_job,
    cron_schedule="0 2 * * 0",
    execution_timezone="UTC",
    description="Full rebuild every Sunday at 02:00 UTC (before that day's incremental refresh).",
    default_status=dg.DefaultScheduleStatus.STOPPED,
)

JOBS = [refresh_job, full_rebuild_job, *source_jobs]
SCHEDULES = [daily_refresh, weekly_full_rebuild]
