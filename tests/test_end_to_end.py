"""A full refresh on the sample world, asserted against what the world says happened."""

from __future__ import annotations

import dagster as dg
import duckdb

from worlds.sample.world import WINDOW_END, WINDOW_START, build_world
from tests.conftest import run_refresh

RAW_TABLES = ["raw_arxiv.papers", "raw_git.commits", "raw_git.commit_files", "raw_git.commit_mentions",
              "raw_github.issues", "raw_github.pull_requests", "raw_github.comments",
              "raw_reports.reports", "raw_reports.report_mentions"]
MARTS = ["marts.dim_papers", "marts.fct_method_adoptions", "marts.fct_cohort_adoption", "marts.rpt_headline"]


def expected_first_adoptions() -> dict[tuple[str, str], str]:
    world = build_world()
    in_window = {p.arxiv_id for p in world.papers if WINDOW_START <= p.published.date() <= WINDOW_END}
    first: dict[tuple[str, str], str] = {}
    for a in sorted(world.adoptions, key=lambda a: a.committed_at):
        if a.arxiv_id in in_window:
            first.setdefault((a.arxiv_id, a.framework), a.committed_at.date().isoformat())
    return first


def test_refresh_prints_headline(sample_refresh):
    _, result = sample_refresh
    out = result.stdout
    for label in ("Screened arXiv papers", "general RL training method", "included in at least one framework"):
        assert label in out
    assert "included <=180d" in out


def test_adoptions_match_the_world(published):
    rows = published.execute(
        "select arxiv_id, framework_id, cast(adopted_on as varchar) from marts.fct_method_adoptions"
    ).fetchall()
    found = {(a, f): d for a, f, d in rows}
    assert found == expected_first_adoptions()


def test_named_adoptions_and_decoys(published):
    def adoption(arxiv_id, fw):
        return published.execute(
            "select cast(adopted_on as varchar), first_evidence, days_from_paper from marts.fct_method_adoptions "
            "where arxiv_id = ? and framework_id = ?", [arxiv_id, fw]).fetchone()

    assert adoption("2503.14476", "verl") == ("2025-03-20", "arxiv_id", 2)  # DAPO in verl
    assert adoption("2507.18071", "trl")[:2] == ("2025-07-29", "arxiv_id")  # GSPO in TRL
    assert adoption("2503.20783", "verl")[1] == "docs"  # Dr. GRPO documented in verl
    assert adoption("2507.20673", "verl")[2] > 180  # GMPO: adopted after the 180-day horizon
    assert adoption("2504.02546", "trl") is None  # 'gpg' signing step is not the GPG paper
    assert adoption("2504.05118", "openrlhf") is None  # a VAPO line that was deleted


def test_cohorts_are_consistent(published):
    cohorts = published.execute(
        "select papers, included_within_horizon, ever_included, horizon_fully_observed "
        "from marts.fct_cohort_adoption order by cohort_quarter").fetchall()
    assert len(cohorts) == 6  # 2025-Q1 .. 2026-Q2
    assert all(p >= e >= w for p, w, e, _ in cohorts)
    assert [c[3] for c in cohorts][:3] == [True, True, True]
    assert cohorts[-1][3] is False  # 2026-Q2 + 180 days lies past the observation end
    total_general = published.execute(
        "select count(*) from marts.dim_papers where is_general_method").fetchone()[0]
    assert sum(c[0] for c in cohorts) == total_general


def test_second_refresh_changes_no_row_counts(sample_refresh):
    data_dir, _ = sample_refresh

    def counts():
        con = duckdb.connect(str(data_dir / "published" / "warehouse.duckdb"), read_only=True)
        try:
            return {t: con.execute(f"select count(*) from {t}").fetchone()[0] for t in RAW_TABLES + MARTS}
        finally:
            con.close()

    def latest(instance, mart):
        return instance.get_latest_materialization_event(dg.AssetKey(["marts", mart]))

    before = counts()
    assert all(before[t] > 0 for t in RAW_TABLES + MARTS), before
    with dg.DagsterInstance.from_config(str(data_dir / "dagster_home")) as instance:
        built = {mart: latest(instance, mart).run_id for mart in ("fct_method_adoptions", "dim_papers")}
    again = run_refresh(data_dir)
    assert again.returncode == 0, again.stderr[-3000:]
    assert counts() == before
    # nothing the models read changed (the sources merged some rows again, unchanged): dbt did not
    # build again, so the marts' last materialisations are the first refresh's
    assert "dbt build skipped" in again.stdout + again.stderr
    with dg.DagsterInstance.from_config(str(data_dir / "dagster_home")) as instance:
        for mart, run_id in built.items():
            event = latest(instance, mart)
            assert event.run_id == run_id, mart
            assert event.asset_materialization.metadata["dagster/row_count"].value == before[f"marts.{mart}"]
