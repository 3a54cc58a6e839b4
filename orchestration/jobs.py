"""Jobs and schedules. Every job writes the one DuckDB file, so runs are serialised (see warehouse.py)."""

from __future__ import annotations

import dagster as dg

refresh_job = dg.define_asset_job(
    "refresh",
    selection=dg.AssetSelection.all(),
    description="Load every source incrementally, rebuild the dbt models, run checks, publish the snapshot.",
    tags={"dagster/max_runtime": str(6 * 3600)},
)

daily_refresh = dg.ScheduleDefinition(
    name="daily_refresh",
    job=refresh_job,
    cron_schedule="0 4 * * *",
    execution_timezone="UTC",
    default_status=dg.DefaultScheduleStatus.STOPPED,
)

JOBS = [refresh_job]
SCHEDULES = [daily_refresh]
