"""Dagster definitions: load and validate, lineage and ownership, jobs, automation, blocking checks,
GitHub rate-limit surfacing and the metadata of the session's sample refresh."""

from __future__ import annotations

import os

import dagster as dg
import duckdb
import pytest

from orchestration.dbt_project import manifest_is_stale, prune_build_targets
from orchestration.definitions import defs

RAW_GROUPS = {"raw_arxiv", "raw_git", "raw_github", "raw_reports"}


@pytest.fixture(scope="module")
def graph():
    return defs.resolve_asset_graph()


def key(path: str) -> dg.AssetKey:
    return dg.AssetKey(path.split("/"))


def test_definitions_load_and_validate():
    dg.Definitions.validate_loadable(defs)


def test_every_asset_has_group_owner_kind_description(graph):
    for k in graph.get_all_asset_keys():
        node = graph.get(k)
        assert node.group_name, k
        assert node.owners, k
        assert node.kinds & {"dlt", "dbt", "duckdb"}, k
        assert (node.description or "").strip(), k
    groups = {graph.get(k).group_name for k in graph.get_all_asset_keys()}
    assert RAW_GROUPS | {"staging", "intermediate", "marts", "seeds", "published"} <= groups


def test_dlt_assets_feed_dbt_sources(graph):
    """The dbt sources resolve to the dlt assets: raw -> staging -> marts -> published is connected."""
    assert key("raw_arxiv/papers") in graph.get(key("staging/stg_arxiv__papers")).parent_keys
    assert key("raw_github/issues") in graph.get(key("staging/stg_github__issues")).parent_keys
    ancestors = dg.AssetSelection.assets(key("published/warehouse_snapshot")).upstream().resolve(graph)
    assert {key("raw_arxiv/papers"), key("raw_git/commits"), key("raw_github/comments")} <= ancestors
    for k in graph.get_all_asset_keys():  # no dangling external keys: every dependency is defined
        for parent in graph.get(k).parent_keys:
            assert graph.has(parent) and graph.get(parent).is_materializable, (k, parent)


def test_checks_cover_every_layer(graph):
    checks = {(c.asset_key.to_user_string(), c.name) for c in graph.asset_check_keys}
    gx = {a for a, n in checks if n.startswith("gx_")}
    assert {"raw_arxiv/papers", "raw_git/commits", "staging/stg_arxiv__papers",
            "marts/fct_method_adoptions", "marts/fct_cohort_adoption"} <= gx
    assert any(not n.startswith("gx_") for _, n in checks), "dbt tests are asset checks too"


def test_jobs_schedules_and_automation():
    names = {j.name for j in defs.resolve_all_job_defs()}
    assert {"refresh", "full_rebuild", "refresh_arxiv", "refresh_git_history", "refresh_github",
            "refresh_tech_reports"} <= names
    assert defs.resolve_job_def("refresh").tags["rltrack/warehouse"] == "writer"
    assert defs.resolve_schedule_def("daily_refresh").cron_schedule == "0 4 * * *"
    assert defs.resolve_schedule_def("weekly_full_rebuild").job_name == "full_rebuild"
    assert defs.resolve_schedule_def("weekly_full_rebuild").cron_schedule == "0 2 * * 0"
    sensor = defs.resolve_sensor_def("rebuild_downstream")
    assert sensor.default_status == dg.DefaultSensorStatus.RUNNING
    # steps queue on one writer pool anyway: one process per run, not one per step
    assert {j.executor_def.name for j in defs.resolve_all_job_defs()} == {"in_process"}


def test_dbt_resource_skips_the_version_probe_and_the_in_process_adapter():
    """The two private hooks we override must still be what dagster-dbt's `cli` calls; if a new
    dagster-dbt renames them, the ~2 s saving is silently gone, so this test says so."""
    import inspect

    from dagster_dbt import DbtCliResource

    from orchestration.dbt_project import dbt_resource

    cli_source = inspect.getsource(DbtCliResource.cli)
    assert "self._cli_version" in cli_source and "self._initialize_dbt_core_adapter(" in cli_source
    resource = dbt_resource()
    assert resource._initialize_dbt_core_adapter(["build"]) is None
    assert resource._cli_version.major == 1  # dbt-core 1.11, read from the installed package


def test_old_dbt_build_folders_are_pruned(tmp_path):
    folders = [tmp_path / f"dbt_warehouse-run{i}-abc" for i in range(7)]
    for age, folder in enumerate(folders):  # folders[0] is the newest
        (folder / "compiled").mkdir(parents=True)
        os.utime(folder, (10_000 - age, 10_000 - age))
    (tmp_path / "manifest.json").write_text("{}")
    deleted = prune_build_targets(keep=5, target=tmp_path)
    assert sorted(deleted) == sorted(folders[5:])
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([f.name for f in folders[:5]] + ["manifest.json"])


def test_manifest_is_parsed_again_only_when_a_project_file_changed(tmp_path):
    project = tmp_path / "dbt_project"
    (project / "models").mkdir(parents=True)
    (project / "target").mkdir()
    model = project / "models" / "m.sql"
    model.write_text("select 1 as x")
    assert manifest_is_stale(project)  # never parsed
    manifest = project / "target" / "manifest.json"
    manifest.write_text("{}")
    os.utime(model, (1_000, 1_000))
    os.utime(manifest, (2_000, 2_000))
    assert not manifest_is_stale(project)
    (project / "target" / "run_results.json").write_text("{}")  # dbt's own output does not count
    (project / "logs").mkdir()
    (project / "logs" / "dbt.log").write_text("")
    assert not manifest_is_stale(project)
    os.utime(model, (3_000, 3_000))  # a model edited after the parse
    assert manifest_is_stale(project)


def test_per_source_job_selects_source_and_its_downstream_only():
    job = defs.resolve_job_def("refresh_github")
    selected = job.asset_layer.executable_asset_keys if hasattr(job.asset_layer, "executable_asset_keys") \
        else job.asset_layer.selected_asset_keys
    paths = {k.to_user_string() for k in selected}
    assert {"raw_github/issues", "staging/stg_github__issues", "marts/fct_method_proposals",
            "published/warehouse_snapshot"} <= paths
    assert "raw_arxiv/papers" not in paths and "staging/stg_arxiv__papers" not in paths


def test_full_rebuild_config_drops_sources_and_full_refreshes_dbt():
    from orchestration.jobs import full_rebuild_job

    ops = full_rebuild_job.config["ops"]
    assert {name for name, op in ops.items() if op["config"]["full_refresh"]} == {
        "load_arxiv", "load_git_history", "load_github", "load_tech_reports", "dbt_warehouse"}


def test_new_raw_data_requests_downstream_models_only(graph):
    """Declarative automation: after raw_github/issues changes, its downstream models are requested."""
    instance = dg.DagsterInstance.ephemeral()
    for k in graph.get_all_asset_keys():
        instance.report_runless_asset_event(dg.AssetMaterialization(k))
    first = dg.evaluate_automation_conditions(defs=defs, instance=instance)
    instance.report_runless_asset_event(dg.AssetMaterialization(key("raw_github/issues")))
    result = dg.evaluate_automation_conditions(defs=defs, instance=instance, cursor=first.cursor)
    requested = {k.to_user_string() for k in graph.get_all_asset_keys() if result.get_num_requested(k)}
    assert "staging/stg_github__issues" in requested
    assert "intermediate/int_threads__unified" in requested
    assert "published/warehouse_snapshot" in requested
    assert "staging/stg_arxiv__papers" not in requested
    assert not any(r.startswith("raw_") for r in requested)


# --- blocking checks ---------------------------------------------------------------------------
@pytest.fixture()
def tmp_warehouse(tmp_path, monkeypatch):
    warehouse = tmp_path / "warehouse.duckdb"
    monkeypatch.setenv("RLTRACK_WAREHOUSE", str(warehouse))
    monkeypatch.setenv("RLTRACK_DATA_DIR", str(tmp_path))
    monkeypatch.setenv("RLTRACK_LOCK_TIMEOUT_S", "30")
    return warehouse


def _raw_papers_stub(arxiv_id: str) -> dg.AssetsDefinition:
    @dg.asset(key=["raw_arxiv", "papers"], group_name="raw_arxiv")
    def papers() -> None:
        from ingestion import config

        con = duckdb.connect(str(config.warehouse_path()))
        con.execute("create schema if not exists raw_arxiv")
        con.execute("create or replace table raw_arxiv.papers as select ? as arxiv_id, "
                    "timestamp '2025-03-18' as published_at, 'DAPO' as title, 1 as latest_version", [arxiv_id])
        con.close()

    return papers


def _gx_check(name: str) -> dg.AssetChecksDefinition:
    from orchestration.checks import GX_CHECKS

    return next(c for c in GX_CHECKS if any(k.name == name for k in c.check_keys))


def test_failing_expectation_blocks_dbt_models_downstream(tmp_warehouse):
    """A bad arXiv id fails the blocking GX check on raw_arxiv.papers; the dbt model on top is skipped."""
    from orchestration.assets.transform import dbt_warehouse

    stub = _raw_papers_stub("2503.14476v2")  # versioned id: breaks the raw contract
    blocked_defs = dg.Definitions(assets=[stub, dbt_warehouse], asset_checks=[_gx_check("gx_raw_arxiv_papers")],
                                  resources=defs.resources)
    job = blocked_defs.resolve_implicit_global_asset_job_def()
    result = job.execute_in_process(
        asset_selection=[key("raw_arxiv/papers"), key("staging/stg_arxiv__papers")], raise_on_error=False)
    assert not result.success
    evaluations = result.get_asset_check_evaluations()
    assert [(e.check_name, e.passed) for e in evaluations] == [("gx_raw_arxiv_papers", False)]
    materialised = {e.asset_key for e in result.get_asset_materialization_events()}
    assert materialised == {key("raw_arxiv/papers")}  # stg_arxiv__papers was not built
    assert "dbt_warehouse" not in {e.step_key for e in result.get_step_success_events()}


def test_passing_expectation_lets_downstream_run(tmp_warehouse):
    """The control: the same graph with a good row materialises the downstream asset."""

    @dg.asset(key=["staging", "stg_arxiv__papers"], deps=[key("raw_arxiv/papers")])
    def downstream() -> None:
        pass

    ok_defs = dg.Definitions(assets=[_raw_papers_stub("2503.14476"), downstream],
                             asset_checks=[_gx_check("gx_raw_arxiv_papers")])
    result = ok_defs.resolve_implicit_global_asset_job_def().execute_in_process()
    assert result.success
    assert {e.asset_key for e in result.get_asset_materialization_events()} == {
        key("raw_arxiv/papers"), key("staging/stg_arxiv__papers")}


# --- GitHub rate limits ------------------------------------------------------------------------
def test_github_rate_limit_without_reset_loads_what_was_fetched_and_fails_the_run_after(tmp_warehouse, monkeypatch):
    """The budget is used up and the answer has no X-RateLimit-Reset: the load keeps what it fetched,
    notes the rest as not read, and materialises (so the build could go on); the run's source
    status step then fails it."""
    from orchestration.assets.health import source_status_check
    from orchestration.assets.raw import github_raw
    from orchestration.world import serving
    from worlds.sample.serve import serving_sample_github

    gh_defs = dg.Definitions(assets=[github_raw, source_status_check], resources=defs.resources)
    job = gh_defs.resolve_implicit_global_asset_job_def()
    with serving_sample_github(rate_limit_at_call=6, rate_limit_reset_in_s=3600,
                               rate_limit_reset_header=False) as world, serving(world):
        result = job.execute_in_process(raise_on_error=False, run_config={
            "ops": {"load_github": {"config": {"max_rate_wait_s": 0.0}}}})
    assert not result.success
    failed = [e.step_key for e in result.all_events if e.event_type_value == "STEP_FAILURE"]
    assert failed == ["rltrack_meta__source_status"]  # the load step itself succeeded
    materialised = result.get_asset_materialization_events()
    assert materialised, "what was fetched before the limit is loaded and reported"
    meta = materialised[0].materialization.metadata
    assert meta["complete"].value is False and "rate limit" in meta["stop_reason"].value.lower()
    assert [f["item"] for f in meta["open_failures"].value] == ["stopped early (the listings not reached)"]


# --- the session's sample refresh --------------------------------------------------------------
def test_sample_refresh_materialisations_carry_counts_and_previews(sample_refresh, monkeypatch):
    data_dir, _ = sample_refresh
    monkeypatch.setenv("DAGSTER_HOME", str(data_dir / "dagster_home"))
    with dg.DagsterInstance.get() as instance:
        def meta(path: str) -> dict:
            event = instance.get_latest_materialization_event(key(path))
            assert event is not None, path
            return event.asset_materialization.metadata

        commits = meta("raw_git/commits")
        assert commits["dagster/row_count"].value > 0
        assert "new_or_updated_rows" in commits
        assert meta("marts/fct_method_adoptions")["dagster/row_count"].value > 0
        assert "|" in meta("marts/rpt_headline")["preview"].value
        snapshot = meta("published/warehouse_snapshot")
        assert "headline" in snapshot
        records = instance.fetch_materializations(key("raw_github/issues"), limit=1).records
        assert records[0].asset_materialization.metadata["complete"].value is True
        # (a later refresh with nothing new skips the check: its latest execution may be a skipped one)
        history = instance.event_log_storage.get_asset_check_execution_history(
            dg.AssetCheckKey(key("marts/fct_method_adoptions"), "gx_fct_method_adoptions"), limit=5)
        assert "SUCCEEDED" in [record.status.value for record in history]


def test_github_per_framework_load_then_full_refresh(tmp_warehouse, monkeypatch):
    """`frameworks` loads one repository's threads and leaves the rest; `full_refresh` reloads all."""
    from ingestion import config
    from orchestration.assets.raw import github_raw

    monkeypatch.setenv("RLTRACK_MODE", "sample")
    sample_ids = sorted(f.framework_id for f in config.frameworks() if f.in_sample)
    job = dg.Definitions(assets=[github_raw], resources=defs.resources).resolve_implicit_global_asset_job_def()
    instance = dg.DagsterInstance.ephemeral()

    def run(cfg: dict) -> dict[str, dict]:
        result = job.execute_in_process(instance=instance, run_config={"ops": {"load_github": {"config": cfg}}})
        assert result.success
        return {e.asset_key.path[-1]: e.materialization.metadata for e in result.get_asset_materialization_events()}

    run({"frameworks": [sample_ids[0]]})
    con = duckdb.connect(str(tmp_warehouse), read_only=True)
    assert {r[0] for r in con.execute("select distinct framework_id from raw_github.issues").fetchall()} == {
        sample_ids[0]}
    con.close()
    meta = run({"full_refresh": True})
    issues = meta["issues"]
    assert issues["new_or_updated_rows"].value == issues["dagster/row_count"].value > 0
    con = duckdb.connect(str(tmp_warehouse), read_only=True)
    loaded = {r[0] for r in con.execute("select distinct framework_id from raw_github.issues").fetchall()}
    con.close()
    assert sample_ids[0] in loaded and len(loaded) > 1 and loaded <= set(sample_ids)
