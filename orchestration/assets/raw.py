"""dlt sources as Dagster assets, keyed `[<dataset>, <table>]` so dbt sources connect to them.

One multi-asset per source (`load_<source>`), one asset per dlt resource, grouped per source.
Run config (`RawLoadConfig`) selects frameworks for the git and GitHub sources (a per-repository
backfill without touching the rest) and turns on a full reload (`refresh="drop_sources"`).

Why no partitions: the dbt models downstream read every framework at once, so a per-framework
partition on the raw assets would force either a partitioned dbt layer (DuckDB builds each model
in one statement; partition-wise rebuilds buy nothing) or mixed jobs that need a partition key
for a refresh of everything. dlt already keeps incremental state per repository in these sources,
so the `frameworks` config gives the useful part (re-load one repository, leave the rest alone).
"""


import tempfile
from collections.abc import Callable, Iterator, Sequence
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import dagster as dg
import dlt
from dagster import AssetExecutionContext
from dagster_dlt import DagsterDltResource, DagsterDltTranslator, dlt_assets
from dagster_dlt.translator import DltResourceTranslatorData
from dlt.extract.source import DltSource

from ingestion import config as rl_config
from ingestion.arxiv.source import arxiv_source
from ingestion.arxiv.front_matter import TABLE, arxiv_front_matter_source, due
from ingestion.git.source import git_history_source
from ingestion.gaps import LoadGaps
from ingestion.github.source import GitHubClient, client_for, github_source
from ingestion.pipelines import DATASETS, create_declared_tables, make_pipeline
from ingestion.reports.source import tech_reports_source
from ingestion.world import World
from orchestration.source_health import (STATUS_FILE, dlt_runner, record_load, record_start, source_status,
                                          write_status_file)
from orchestration.warehouse import published_path, write_lock
from orchestration.world import run_world

WRITER_POOL = "duckdb_writer"
OWNER = "team:data-platform"
SOURCE_DESCRIPTIONS = {
    "arxiv": "arXiv API (Atom) papers of the study's categories and window",
    "git_history": "framework git histories mined with git log and pydriller",
    "github": "GitHub REST issues, pull requests and comments",
    "tech_reports": "technical reports of large open-weight models",
    "arxiv_front_matter": "front matter (authors' affiliations, footnote code links) of the general-method "
                          "papers' arXiv HTML renderings",
}
PER_FRAMEWORK_SOURCES = {"git_history", "github"}
GAP_SOURCES = {"arxiv", "git_history"}  # sources that note what they could not read in a LoadGaps
# sources that share a dataset: each declares the columns of the other's tables (raw_arxiv)
SHARED_DATASET_SOURCES = {"arxiv": arxiv_source, "arxiv_front_matter": arxiv_front_matter_source}


def sibling_sources(source_name: str) -> list[DltSource]:
    """The other sources that land in `source_name`'s dataset, built offline for their declared columns."""
    return [make(world=World.loopback("declared")) for name, make in SHARED_DATASET_SOURCES.items()
            if name != source_name and DATASETS[name] == DATASETS.get(source_name)]


class RawLoadConfig(dg.Config):
    """Run config of a raw load."""

    full_refresh: bool = False  # drop the source's tables and dlt state, reload everything
    frameworks: list[str] | None = None  # git_history / github only: load just these frameworks


class GitHubLoadConfig(RawLoadConfig):
    max_rate_wait_s: float = 900.0  # wait at most this long for a rate limit to lift, else stop


class FrontMatterLoadConfig(RawLoadConfig):
    max_papers: int = 400  # papers asked per run (live: 3 s each); a first load back-fills over a few runs


class RawTableTranslator(DagsterDltTranslator):
    def __init__(self, deps: Sequence[dg.AssetKey] = ()) -> None:
        super().__init__()
        self.deps = list(deps)  # assets the source reads its inputs from (lineage)

    def get_asset_spec(self, data: DltResourceTranslatorData) -> dg.AssetSpec:
        spec = super().get_asset_spec(data)
        dataset = data.pipeline.dataset_name if data.pipeline else "raw"
        source = data.pipeline.pipeline_name.removeprefix("rltrack_") if data.pipeline else "source"
        return spec.replace_attributes(
            key=dg.AssetKey([dataset, data.resource.name]),
            deps=self.deps,
            group_name=dataset,
            description=f"`{dataset}.{data.resource.name}`, loaded by dlt from the "
            f"{SOURCE_DESCRIPTIONS.get(source, 'source')}.",
            owners=[OWNER],
            tags={"layer": "raw", "source": source},
        ).merge_attributes(kinds={"dlt", "duckdb"})


def table_counts(pipeline, tables: list[str], load_ids: list[str]) -> dict[str, tuple[int, int]]:
    """(rows in the table, rows written by this run's loads) per table, via dlt's own connection."""
    out: dict[str, tuple[int, int]] = {}
    with pipeline.sql_client() as client:
        for table in tables:
            qualified = client.make_qualified_table_name(table)
            try:
                total, new = client.execute_sql(
                    f"select count(*), count(*) filter (where _dlt_load_id in "
                    f"(select unnest(?::varchar[]))) from {qualified}", load_ids)[0]
            except Exception:  # table not created yet (a resource that yielded nothing)
                continue
            out[table] = (int(total), int(new))
    return out


def quarantined_rows(pipeline, table: str, load_ids: list[str], limit: int = 20) -> list[dict]:
    """The first rows a quarantine table got from this run's loads (without dlt's columns)."""
    with pipeline.sql_client() as client:
        with client.execute_query(
                f"select * exclude (_dlt_load_id, _dlt_id) from {client.make_qualified_table_name(table)} "
                f"where _dlt_load_id in (select unnest(?::varchar[])) limit {limit}", load_ids) as cur:
            names = [d[0] for d in cur.description]
            return [{k: str(v) for k, v in zip(names, row)} for row in cur.fetchall()]


def _with_counts(results: list, pipeline, context: AssetExecutionContext | None = None
                 ) -> Iterator[dg.MaterializeResult]:
    """Row counts per table; a quarantine table that got rows this run is reported (log + metadata)."""
    trace = pipeline.last_trace
    load_ids = list(trace.last_load_info.loads_ids) if trace and trace.last_load_info else []
    counts = table_counts(pipeline, [r.asset_key.path[-1] for r in results], load_ids)
    for r in results:
        table = r.asset_key.path[-1]
        total, new = counts.get(table, (0, 0))
        extra: dict[str, Any] = {}
        if table.endswith("quarantine") and new:
            rows = quarantined_rows(pipeline, table, load_ids)
            if resolved := [row for row in rows if row.get("resolved_at", "None") != "None"]:
                extra["resolved_this_run"] = dg.MetadataValue.json(resolved)
                rows = [row for row in rows if row not in resolved]
            extra["quarantined_this_run"] = dg.MetadataValue.json(rows)
            if context is not None and rows:
                context.log.warning(f"{pipeline.dataset_name}.{table}: {new - len(resolved)} item(s) quarantined "
                                    "or noted again this run, "
                                    f"e.g. {rows[:3]}")
        yield dg.MaterializeResult(
            asset_key=r.asset_key,
            metadata={**(r.metadata or {}), "dagster/row_count": total, "new_or_updated_rows": new,
                      "dagster/table_name": f"{pipeline.dataset_name}.{table}", **extra},
        )


ONE_CURSOR_SOURCES = {"git_history"}
RAW_SOURCE_NAMES = tuple(SOURCE_DESCRIPTIONS)


def _check_config(context: AssetExecutionContext, source_name: str, cfg: RawLoadConfig) -> None:
    if source_name in ONE_CURSOR_SOURCES and context.is_subset:
        # the git tables share one cursor per branch: loading some of them would skip commits for the rest
        raise dg.Failure(f"{source_name} tables load together; select all of its tables")
    if cfg.full_refresh and context.is_subset:
        # drop_sources drops every table and the source-level state (arXiv, git keep cursors there)
        raise dg.Failure(f"full_refresh reloads the whole {source_name} source; select all of its tables")
    if cfg.frameworks and source_name not in PER_FRAMEWORK_SOURCES:
        raise dg.Failure(f"`frameworks` applies to git_history and github, not {source_name}")
    if cfg.frameworks and cfg.full_refresh:
        # drop_sources would wipe every framework's rows, then reload only the selected ones
        raise dg.Failure("full_refresh reloads every framework; do not combine it with `frameworks`")


def spec_pipeline(source_name: str) -> dlt.Pipeline:
    """The pipeline dagster-dlt reads names, dataset and destination from when the definitions load.

    It is made in a private temporary folder: a dlt pipeline created over a folder without saved
    state wipes that folder, and the shared one may hold the packages of a run loading right now
    (a first load, or any load while the webserver reloads the code). Runs make their own pipeline,
    under the write lock."""
    with tempfile.TemporaryDirectory(prefix="rltrack-dlt-spec-") as folder:
        return make_pipeline(source_name, pipelines_dir=Path(folder))


SourceInputs = Callable[[AssetExecutionContext, dlt.Pipeline, Any, RawLoadConfig], dict[str, Any]]


def raw_assets(source_name: str, make_source: Callable[..., DltSource], *, inputs: SourceInputs | None = None,
               config_type: type[RawLoadConfig] = RawLoadConfig,
               deps: Sequence[dg.AssetKey] = ()) -> dg.AssetsDefinition:
    """The multi-asset loading `source_name`. `inputs(context, pipeline, world, config)` gives more
    arguments for the source, read under the write lock (e.g. which papers to ask, from the
    warehouse); `deps` are the assets those inputs come from."""

    @dlt_assets(
        dlt_source=make_source(),
        dlt_pipeline=spec_pipeline(source_name),
        name=f"load_{source_name}",
        dagster_dlt_translator=RawTableTranslator(deps),
        pool=WRITER_POOL,
        op_tags={"source": source_name},
    )
    def _load(context: AssetExecutionContext, dlt: DagsterDltResource, config: config_type):  # type: ignore[valid-type]
        _check_config(context, source_name, config)
        kwargs: dict[str, Any] = {"frameworks": config.frameworks} if config.frameworks else {}
        run_kwargs = {"refresh": "drop_sources"} if config.full_refresh else {}
        # A fresh source and pipeline per run pick up the current world and warehouse path; the
        # pipeline's local folder is shared by runs, so it is only touched under the lock.
        gaps = LoadGaps()
        if source_name in GAP_SOURCES:
            kwargs["gaps"] = gaps
        with write_lock(), run_world() as world:
            pipeline = make_pipeline(source_name)

            def load() -> list:
                if inputs is not None:
                    kwargs.update(inputs(context, pipeline, world, config))
                source = make_source(world=world, **kwargs)
                results = list(dlt.run(context=context, dlt_source=source, dlt_pipeline=pipeline, **run_kwargs))
                create_declared_tables(pipeline, source, sibling_sources(source_name))
                return results

            yield from load_and_record(context, source_name, pipeline, load, gaps, resolve=not config.frameworks)

    _load.__doc__ = f"Load {SOURCE_DESCRIPTIONS[source_name]}."
    return _load


def load_and_record(context: AssetExecutionContext, source_name: str, pipeline: dlt.Pipeline,
                    load: Callable[[], list], gaps: LoadGaps, resolve: bool = True,
                    gap_items: Callable[[], dict[str, str]] = dict,
                    extra: Callable[[], dict[str, Any]] = dict) -> Iterator[dg.MaterializeResult]:
    """Run `load`; whatever it did, record the outcome (`source_health`) and materialise the tables
    with what they hold, so the build and publish go on with what loaded. A source that failed
    outright or could not read some items says so in its metadata (`complete`, `open_failures`); the
    `source_status` step fails the run afterwards. `gap_items` and `extra` (more metadata) are read
    after the load."""
    started, error = rl_config.now(), None
    with pipeline.sql_client() as client:  # a load killed from here on stays "did not finish"
        record_start(dlt_runner(client), source_name, context.run.run_id, started)
        _write_status(dlt_runner(client), context.run.run_id)
    try:
        results = load()
    except Exception as exc:  # noqa: BLE001 - one source's failure must not stop the others
        error = f"{type(exc).__name__}: {exc}"[:2000]
        context.log.error(f"{source_name} load failed; its tables keep what earlier loads gave them: {error}")
        results = [dg.MaterializeResult(asset_key=key) for key in context.selected_asset_keys]
    gaps.items.update(gap_items())
    materialized = list(_with_counts(results, pipeline, context))
    rows = sum(int(r.metadata.get("dagster/row_count", 0)) for r in materialized)
    new = sum(int(r.metadata.get("new_or_updated_rows", 0)) for r in materialized)
    with pipeline.sql_client() as client:
        run = dlt_runner(client)
        record_load(run, source_name, context.run.run_id, started, gaps.items, error, rows, new, resolve=resolve)
        statuses = _write_status(run, context.run.run_id)
    status = next(s for s in statuses if s.source == source_name)
    outcome = {**extra(), "complete": error is None and not gaps, "load_error": error or "",
               "open_failures": dg.MetadataValue.json(status.open_failures),
               "last_complete_load": status.last_complete_at or "never"}
    if gaps:
        context.log.warning(f"{source_name}: {len(gaps.items)} item(s) not read this run, asked again next run: "
                            + "; ".join(f"{k} ({v})" for k, v in list(gaps.items.items())[:5]))
    for r in materialized:
        yield dg.MaterializeResult(asset_key=r.asset_key, metadata={**r.metadata, **outcome})


def _write_status(run, run_id: str) -> list:
    """Every source's status, also as the file `rltrack status` reads beside the published snapshot."""
    statuses = source_status(run, list(RAW_SOURCE_NAMES))
    write_status_file(statuses, published_path().parent / STATUS_FILE, run_id)
    return statuses


def front_matter_inputs(context: AssetExecutionContext, pipeline: dlt.Pipeline, world: Any,
                        config: FrontMatterLoadConfig) -> dict[str, Any]:
    """The general-method papers whose front matter is due (never asked, or due again by
    `arxiv_front_matter.due`), at most `max_papers` of them, newest first."""
    candidates = front_matter_candidates(pipeline)
    now = datetime.now(timezone.utc)
    todo = [(aid, title) for aid, title, previous in candidates
            if config.full_refresh or due(previous, now, world)]
    chosen = todo[:max(0, config.max_papers)]
    context.log.info(f"front matter: {len(candidates)} general-method papers, {len(todo)} due, asking "
                     f"{len(chosen)} this run, {len(todo) - len(chosen)} left for later runs")
    return {"arxiv_ids": [aid for aid, _ in chosen], "titles": dict(chosen)}


def front_matter_candidates(pipeline: dlt.Pipeline) -> list[tuple[str, str, list | None]]:
    """(arxiv_id, title, [status, fetched_at, reader_version] of its front-matter row or None) of every
    paper screened general_method (latest paper_features row), newest id first; none before a load."""
    with pipeline.sql_client() as client:
        def table(name: str) -> str:
            return client.make_qualified_table_name(name)

        def exists(name: str) -> bool:
            return bool(client.execute_sql(
                "select 1 from information_schema.tables where table_schema = ? and table_name = ?",
                pipeline.dataset_name, name))

        if not (client.has_dataset() and exists("paper_features") and exists("papers")):
            return []
        front = (f"select distinct on (arxiv_id) arxiv_id, status, fetched_at, reader_version from {table(TABLE)} "
                 "order by arxiv_id, _dlt_load_id desc") if exists(TABLE) else (
                 "select null::varchar as arxiv_id, null::varchar as status, null::timestamptz as fetched_at, "
                 "null::bigint as reader_version where false")
        rows = client.execute_sql(f"""
            with features as (
                select distinct on (arxiv_id) arxiv_id, paper_kind from {table("paper_features")}
                order by arxiv_id, _dlt_load_id desc
            ),
            papers as (
                select distinct on (arxiv_id) arxiv_id, title from {table("papers")}
                order by arxiv_id, _dlt_load_id desc
            ),
            front as ({front})
            select f.arxiv_id, coalesce(p.title, ''), m.status, m.fetched_at, m.reader_version
            from features as f
            left join papers as p on f.arxiv_id = p.arxiv_id
            left join front as m on f.arxiv_id = m.arxiv_id
            where f.paper_kind = 'general_method'
            order by f.arxiv_id desc""")
    return [(aid, title, [status, at, version] if status else None) for aid, title, status, at, version in rows]


def github_assets() -> dg.AssetsDefinition:
    """GitHub with its run outcome surfaced: what was fetched before a rate-limit stop or a skipped
    listing is loaded (cursors saved, so the next run resumes there), and the rest is noted as not
    read (`github_gaps`)."""

    @dlt_assets(
        dlt_source=github_source(),
        dlt_pipeline=spec_pipeline("github"),
        name="load_github",
        dagster_dlt_translator=RawTableTranslator(),
        pool=WRITER_POOL,
        op_tags={"source": "github"},
    )
    def load_github(context: AssetExecutionContext, dlt: DagsterDltResource, config: GitHubLoadConfig):
        _check_config(context, "github", config)
        run_kwargs = {"refresh": "drop_sources"} if config.full_refresh else {}
        with write_lock(), run_world() as world:
            client = client_for(world, max_rate_wait_s=config.max_rate_wait_s)
            pipeline = make_pipeline("github")

            def load() -> list:
                source = github_source(world=world, client=client, frameworks=config.frameworks)
                results = list(dlt.run(context=context, dlt_source=source, dlt_pipeline=pipeline, **run_kwargs))
                create_declared_tables(pipeline, source)
                return results

            yield from load_and_record(context, "github", pipeline, load, LoadGaps(), resolve=not config.frameworks,
                                       gap_items=lambda: github_gaps(client), extra=lambda: github_outcome(client))

    return load_github


def github_gaps(client: GitHubClient) -> dict[str, str]:
    """What the GitHub load could not read: each skipped listing, and the rest when it stopped early
    (a rate limit it would not wait out, an outage); the cursors did not move past them."""
    gaps = dict(error.split(": ", 1) if ": " in error else (error, error) for error in client.errors)
    if client.stop_reason:
        gaps["stopped early (the listings not reached)"] = client.stop_reason
    return {f"listing {item}" if not item.startswith("stopped") else item: reason for item, reason in gaps.items()}


def github_outcome(client: GitHubClient) -> dict[str, Any]:
    return {
        "complete": client.stop_reason is None and not client.errors,
        "stop_reason": client.stop_reason or "",
        "skipped_repositories": dg.MetadataValue.json(list(client.errors)),
        "authenticated": client.authenticated,
    }


arxiv_raw = raw_assets("arxiv", arxiv_source)
git_raw = raw_assets("git_history", git_history_source)
github_raw = github_assets()
tech_reports_raw = raw_assets("tech_reports", tech_reports_source)
# reads which papers to ask from the warehouse: after the arXiv load, with paper_features as lineage
front_matter_raw = raw_assets("arxiv_front_matter", arxiv_front_matter_source, inputs=front_matter_inputs,
                              config_type=FrontMatterLoadConfig, deps=[dg.AssetKey(["raw_arxiv", "paper_features"])])

RAW_ASSETS = [arxiv_raw, git_raw, github_raw, tech_reports_raw, front_matter_raw]
RAW_ASSETS_BY_SOURCE = {"arxiv": arxiv_raw, "git_history": git_raw, "github": github_raw,
                        "tech_reports": tech_reports_raw, "arxiv_front_matter": front_matter_raw}
assert set(RAW_ASSETS_BY_SOURCE) == set(DATASETS) == set(RAW_SOURCE_NAMES)
