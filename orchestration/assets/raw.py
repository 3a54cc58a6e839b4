"""dlt sources as Dagster assets, keyed `[<dataset>, <table>]` so dbt sources connect to them."""

from collections.abc import Callable

import dagster as dg
from dagster import AssetExecutionContext
from dagster_dlt import DagsterDltResource, DagsterDltTranslator, dlt_assets
from dagster_dlt.translator import DltResourceTranslatorData
from dlt.extract.source import DltSource

from ingestion.arxiv import arxiv_source
from ingestion.git_history import git_history_source
from ingestion.github import github_source
from ingestion.pipelines import DATASETS, make_pipeline
from ingestion.tech_reports import tech_reports_source
from orchestration.warehouse import write_lock

WRITER_POOL = "duckdb_writer"
SOURCE_DESCRIPTIONS = {
    "arxiv": "arXiv API (Atom) papers of the study's categories and window",
    "git_history": "framework git histories mined with git log and pydriller",
    "github": "GitHub REST issues, pull requests and comments",
    "tech_reports": "technical reports of large open-weight models",
}


class RawTableTranslator(DagsterDltTranslator):
    def get_asset_spec(self, data: DltResourceTranslatorData) -> dg.AssetSpec:
        spec = super().get_asset_spec(data)
        dataset = data.pipeline.dataset_name if data.pipeline else "raw"
        return spec.replace_attributes(
            key=dg.AssetKey([dataset, data.resource.name]),
            deps=[],
            group_name=dataset,
            description=f"`{dataset}.{data.resource.name}`, loaded by dlt from the "
            f"{SOURCE_DESCRIPTIONS.get(data.pipeline.pipeline_name.removeprefix('rltrack_'), 'source')}.",
            owners=["team:data-platform"],
        ).merge_attributes(kinds={"dlt", "duckdb"})


def raw_assets(source_name: str, make_source: Callable[[], DltSource]) -> dg.AssetsDefinition:
    @dlt_assets(
        dlt_source=make_source(),
        dlt_pipeline=make_pipeline(source_name),
        name=f"load_{source_name}",
        dagster_dlt_translator=RawTableTranslator(),
        pool=WRITER_POOL,
    )
    def _load(context: AssetExecutionContext, dlt: DagsterDltResource):
        # A fresh source and pipeline per run pick up the current mode and warehouse path.
        with write_lock():
            yield from dlt.run(
                context=context,
                dlt_source=make_source(),
                dlt_pipeline=make_pipeline(source_name),
            )

    return _load


arxiv_raw = raw_assets("arxiv", arxiv_source)
git_raw = raw_assets("git_history", git_history_source)
github_raw = raw_assets("github", github_source)
tech_reports_raw = raw_assets("tech_reports", tech_reports_source)

RAW_ASSETS = [arxiv_raw, git_raw, github_raw, tech_reports_raw]
