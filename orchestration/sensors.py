"""Declarative automation: models (and the published snapshot) rebuild when something upstream changed.

Every dbt model and the snapshot carry `AutomationCondition.eager()`; raw assets carry none (they
are loaded by jobs and schedules). So after e.g. `refresh_github` loads new threads, or someone
materialises one raw table in the UI, this sensor requests the models downstream of it and the
snapshot; models whose upstream is missing or still running wait.
"""

import dagster as dg

from orchestration.jobs import WRITER_TAGS

EAGER = dg.AutomationCondition.eager()

downstream_automation = dg.AutomationConditionSensorDefinition(
    "rebuild_downstream",
    target=dg.AssetSelection.all() - dg.AssetSelection.groups("raw_arxiv", "raw_git", "raw_github", "raw_reports"),
    run_tags=WRITER_TAGS,
    default_status=dg.DefaultSensorStatus.RUNNING,
    minimum_interval_seconds=60,
    description="Rebuild dbt models and the published snapshot when their upstream assets change.",
)

SENSORS = [downstream_automation]
