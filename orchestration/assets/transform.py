"""dbt models, seeds and tests as Dagster assets and asset checks.

The dbt build holds the warehouse write lock; its events are buffered and re-emitted once dbt has
exited, each model's materialisation carrying its row count, the change since the last run and (for
marts) a preview, read from a read-only connection while the lock is still held. dagster-dbt's
`fetch_row_counts()` would open the file from this process while the dbt subprocess holds DuckDB's
single writer lock, so it is not used.
"""

import os
from collections.abc import Iterator, Mapping
from typing import Any

import dagster as dg
import duckdb
from dagster import AssetExecutionContext
from dagster_dbt import DagsterDbtTranslator, DagsterDbtTranslatorSettings, DbtCliResource, dbt_assets

from ingestion import config as rl_config
from orchestration.assets.raw import WRITER_POOL
from orchestration.build_inputs import built_digest, inputs_digest, store_digest
from orchestration.dbt_project import (
    DBT_ASSETS_NAME,
    DBT_PROJECT_DIR,
    MANIFEST_PATH,
    REFRESH_BUILD_ARGS,
    dbt_env,
    dbt_project,
    prune_build_targets,
)
from orchestration.warehouse import published_path, write_lock

OWNER = "team:analytics-engineering"
PREVIEW_ROWS = 10


class LayeredTranslator(DagsterDbtTranslator):
    """Models keyed `[<layer schema>, <model>]` and grouped by layer; sources keep their meta key.
    Every model updates eagerly when something upstream changed (declarative automation)."""

    def get_asset_key(self, dbt_resource_props: Mapping[str, Any]) -> dg.AssetKey:
        if dbt_resource_props["resource_type"] == "source":
            return super().get_asset_key(dbt_resource_props)
        schema = dbt_resource_props.get("config", {}).get("schema") or "main"
        return dg.AssetKey([schema, dbt_resource_props["name"]])

    def get_group_name(self, dbt_resource_props: Mapping[str, Any]) -> str | None:
        return dbt_resource_props.get("config", {}).get("schema") or "dbt"

    def get_owners(self, dbt_resource_props: Mapping[str, Any]):
        return [OWNER]

    def get_tags(self, dbt_resource_props: Mapping[str, Any]) -> Mapping[str, str]:
        layer = dbt_resource_props.get("config", {}).get("schema") or "dbt"
        return {**super().get_tags(dbt_resource_props), "layer": layer}

    def get_automation_condition(self, dbt_resource_props: Mapping[str, Any]) -> dg.AutomationCondition | None:
        return dg.AutomationCondition.eager()


translator = LayeredTranslator(settings=DagsterDbtTranslatorSettings(enable_asset_checks=True))


class DbtBuildConfig(dg.Config):
    full_refresh: bool = False  # `dbt build --full-refresh`: rebuild incremental models and seeds from scratch


def _relation(key: dg.AssetKey) -> str:
    return ".".join(f'"{part}"' for part in key.path)


def model_metadata(con: duckdb.DuckDBPyConnection, key: dg.AssetKey, previous: int | None) -> dict[str, Any]:
    """Row count, change since the last materialisation and, for marts, a preview table."""
    rows = con.execute(f"select count(*) from {_relation(key)}").fetchone()[0]
    meta: dict[str, Any] = {"dagster/row_count": rows}
    if previous is not None:
        meta["row_change"] = rows - previous
    if key.path[0] == "marts":
        frame = con.execute(f"select * from {_relation(key)} limit {PREVIEW_ROWS}").fetch_df()
        meta["preview"] = dg.MetadataValue.md(frame.to_markdown(index=False) if _has_tabulate()
                                              else _markdown(frame))
    return meta


def _has_tabulate() -> bool:
    try:
        import tabulate  # noqa: F401
    except ImportError:
        return False
    return True


def _markdown(frame) -> str:
    cols = [str(c) for c in frame.columns]
    lines = ["| " + " | ".join(cols) + " |", "|" + "---|" * len(cols)]
    for row in frame.itertuples(index=False):
        lines.append("| " + " | ".join("" if v is None else str(v).replace("|", "/")[:60] for v in row) + " |")
    return "\n".join(lines)


def _previous_counts(context: AssetExecutionContext, keys: list[dg.AssetKey]) -> dict[dg.AssetKey, int | None]:
    """Each key's row count at its last materialisation (one event-log query for all of them)."""
    out: dict[dg.AssetKey, int | None] = {}
    for key, event in context.instance.get_latest_materialization_events(keys).items():
        value = event.asset_materialization.metadata.get("dagster/row_count") \
            if event is not None and event.asset_materialization is not None else None
        out[key] = getattr(value, "value", None)
    return out


def with_row_counts(context: AssetExecutionContext, events: list) -> Iterator[Any]:
    """Re-emit dbt's events, adding metadata to each model's Output. Called under the write lock."""
    outputs = [e for e in events if isinstance(e, dg.Output)]
    con = None
    if outputs:
        try:
            con = duckdb.connect(str(rl_config.warehouse_path()), read_only=True)
        except duckdb.Error as exc:  # never fail a good build over metadata
            context.log.warning("row counts unavailable: %s", exc)
    previous = _previous_counts(context, [context.asset_key_for_output(e.output_name) for e in outputs]) \
        if con is not None else {}
    try:
        for event in events:
            if con is not None and isinstance(event, dg.Output):
                key = context.asset_key_for_output(event.output_name)
                try:
                    event = event.with_metadata({**event.metadata, **model_metadata(con, key, previous.get(key))})
                except duckdb.Error as exc:
                    context.log.warning("no row count for %s: %s", key.to_user_string(), exc)
            yield event
    finally:
        if con is not None:
            con.close()


@dbt_assets(
    manifest=MANIFEST_PATH,
    project=dbt_project,
    dagster_dbt_translator=translator,
    pool=WRITER_POOL,
    name=DBT_ASSETS_NAME,
)
def dbt_warehouse(context: AssetExecutionContext, dbt: DbtCliResource, config: DbtBuildConfig):
    """`dbt build` of the selected models (seeds, models and their data tests); a refresh of every
    model skips it when nothing it reads changed since the published build (`build_inputs`)."""
    os.environ.update(dbt_env())  # the dbt subprocess reads the absolute warehouse path
    args = [*REFRESH_BUILD_ARGS, *(["--full-refresh"] if config.full_refresh else [])]
    with write_lock():
        digest = None
        if not context.is_subset:  # a whole build: its inputs' digest is kept with it
            with duckdb.connect(str(rl_config.warehouse_path()), read_only=True) as con:
                digest = inputs_digest(con, DBT_PROJECT_DIR)
            if not config.full_refresh and digest == built_digest(published_path()):
                context.log.info("dbt build skipped: the raw tables and the dbt project are as the build of "
                                 "the published snapshot read them (orchestration/build_inputs.py)")
                return
        invocation = dbt.cli(args, context=context, raise_on_error=False)
        events = list(invocation.stream())
        if digest and invocation.is_successful():
            with duckdb.connect(str(rl_config.warehouse_path())) as con:
                store_digest(con, digest)
        # counted under the lock, yielded after it: an error Dagster raises on an event (it refused one)
        # must not leave this step suspended holding the writer lock the later steps wait for
        events = list(with_row_counts(context, events))
    prune_build_targets()
    yield from events
    if not invocation.is_successful():
        raise dg.Failure(f"dbt build failed: {invocation.get_error()}")
