"""dbt models, seeds and tests as Dagster assets and asset checks."""

import os
from collections.abc import Mapping
from typing import Any

import dagster as dg
from dagster import AssetExecutionContext
from dagster_dbt import DagsterDbtTranslator, DagsterDbtTranslatorSettings, DbtCliResource, dbt_assets

from orchestration.assets.raw import WRITER_POOL
from orchestration.dbt_project import MANIFEST_PATH, dbt_env, dbt_project
from orchestration.warehouse import write_lock

class LayeredTranslator(DagsterDbtTranslator):
    """Models keyed `[<layer schema>, <model>]` and grouped by layer; sources keep their meta key."""

    def get_asset_key(self, dbt_resource_props: Mapping[str, Any]) -> dg.AssetKey:
        if dbt_resource_props["resource_type"] == "source":
            return super().get_asset_key(dbt_resource_props)
        schema = dbt_resource_props.get("config", {}).get("schema") or "main"
        return dg.AssetKey([schema, dbt_resource_props["name"]])

    def get_group_name(self, dbt_resource_props: Mapping[str, Any]) -> str | None:
        return dbt_resource_props.get("config", {}).get("schema") or "dbt"

    def get_owners(self, dbt_resource_props: Mapping[str, Any]):
        return ["team:analytics-engineering"]


translator = LayeredTranslator(settings=DagsterDbtTranslatorSettings(enable_asset_checks=True))


@dbt_assets(
    manifest=MANIFEST_PATH,
    project=dbt_project,
    dagster_dbt_translator=translator,
    pool=WRITER_POOL,
    name="dbt_warehouse",
)
def dbt_warehouse(context: AssetExecutionContext, dbt: DbtCliResource):
    os.environ.update(dbt_env())  # the dbt subprocess reads the absolute warehouse path
    with write_lock():
        invocation = dbt.cli(["build"], context=context, raise_on_error=False)
        yield from invocation.stream()
        if not invocation.is_successful():
            raise dg.Failure(f"dbt build failed: {invocation.get_error()}")
