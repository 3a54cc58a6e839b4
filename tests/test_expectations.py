"""GX suites: they pass on good data and fail on each kind of bad row; set-wide checks run in SQL."""

from __future__ import annotations

import duckdb
import pandas as pd
import pytest

from expectations.runner import run_suite, validate_frame
from expectations.suites import SUITES


def adoptions(**overrides) -> pd.DataFrame:
    row = {"arxiv_id": "2503.14476", "confidence": 0.9, "days_from_paper": 2,
           "is_before_first_version": False, "first_evidence": "arxiv_id"}
    return pd.DataFrame([{**row, **overrides}])


def test_good_adoption_passes():
    assert validate_frame(SUITES["fct_method_adoptions"], adoptions()).success


@pytest.mark.parametrize("bad", [
    {"arxiv_id": "2503.14476v2"},  # version suffix is not an id
    {"confidence": 1.5},
    {"days_from_paper": -3},  # before the first version and not flagged
    {"first_evidence": "rumour"},
])
def test_bad_adoption_fails(bad):
    outcome = validate_frame(SUITES["fct_method_adoptions"], adoptions(**bad))
    assert not outcome.success
    assert outcome.failures and outcome.failures[0]["batch"] == "rows"


def test_flagged_early_adoption_passes():
    frame = adoptions(days_from_paper=-3, is_before_first_version=True)
    assert validate_frame(SUITES["fct_method_adoptions"], frame).success


def test_cohort_rates_outside_unit_interval_fail():
    frame = pd.DataFrame([{"cohort_quarter": "2025-01-01", "papers": 4, "ever_included": 5,
                           "included_within_horizon": 2, "included_within_horizon_rate": 0.5,
                           "ever_included_rate": 1.25}])
    failed = {f["expectation"] for f in validate_frame(SUITES["fct_cohort_adoption"], frame).failures}
    assert "expect_column_values_to_be_between" in failed
    assert "expect_column_pair_values_a_to_be_greater_than_b" in failed


@pytest.fixture()
def warehouse():
    con = duckdb.connect(":memory:")
    con.execute("create schema marts")
    con.execute("create table marts.dim_papers as select * from (values ('a', true), ('b', true), ('c', false)) "
                "t(arxiv_id, is_general_method)")
    con.execute("create table marts.fct_cohort_adoption (cohort_quarter date, papers int, ever_included int, "
                "included_within_horizon int, included_within_horizon_rate double, ever_included_rate double)")
    con.execute("insert into marts.fct_cohort_adoption values ('2025-01-01', 2, 1, 1, 0.5, 0.5)")
    con.execute("create schema raw_git")
    con.execute("create table raw_git.commits as select 'trl' framework_id, 'huggingface/trl' repo, "
                "repeat('a', 40) sha, now() committed_at")
    yield con
    con.close()


def test_cohort_suite_passes_then_catches_a_sum_gap_in_sql(warehouse):
    assert run_suite(warehouse, "fct_cohort_adoption").success
    warehouse.execute("insert into marts.dim_papers values ('d', true)")  # a general paper in no cohort
    outcome = run_suite(warehouse, "fct_cohort_adoption")
    assert not outcome.success
    assert [f["batch"] for f in outcome.failures] == ["sums consistent"]


def test_duplicates_are_found_in_sql(warehouse):
    assert run_suite(warehouse, "raw_git_commits").success
    warehouse.execute("insert into raw_git.commits select * from raw_git.commits")
    outcome = run_suite(warehouse, "raw_git_commits")
    assert not outcome.success
    assert outcome.failures[0]["batch"] == "unique repo, sha"
    assert outcome.rows == 2 + 1  # two commit rows, then one duplicated key (not the whole table)


def test_bad_sha_fails(warehouse):
    warehouse.execute("update raw_git.commits set sha = 'not-a-sha'")
    assert not run_suite(warehouse, "raw_git_commits").success


def test_freshness_warns_on_stale_loads(warehouse, monkeypatch):
    warehouse.execute("create schema raw_arxiv")
    warehouse.execute("create table raw_arxiv._dlt_loads as select 'x' load_id, 0 status, "
                      "now() - interval 3 day as inserted_at")
    monkeypatch.setenv("RLTRACK_FRESHNESS_HOURS", "100")
    assert run_suite(warehouse, "raw_arxiv_freshness").success
    monkeypatch.setenv("RLTRACK_FRESHNESS_HOURS", "48")
    assert not run_suite(warehouse, "raw_arxiv_freshness").success
    assert SUITES["raw_arxiv_freshness"].blocking is False


def test_every_suite_names_a_table_and_has_expectations():
    for suite in SUITES.values():
        assert suite.table.count(".") == 1 and suite.batches
        for batch in suite.batches:
            assert "{table}" in batch.sql or "_dlt_loads" in batch.sql
            assert batch.expectations()


def test_watermarks_validate_only_new_loads_and_hold_on_failure(warehouse, tmp_path):
    from expectations.runner import Watermarks

    warehouse.execute("alter table raw_git.commits add column _dlt_load_id varchar default '1764700000.5'")
    marks = Watermarks(tmp_path / "marks")
    first = run_suite(warehouse, "raw_git_commits", marks)
    assert first.success and first.since_load is None and first.rows == 1 + 0  # the row, no duplicate key
    again = run_suite(warehouse, "raw_git_commits", marks)
    assert again.success and again.since_load == 1764700000.5 and again.rows == 0  # nothing new
    warehouse.execute("insert into raw_git.commits values ('trl', 'huggingface/trl', 'not-a-sha', now(), "
                      "'1764790000.25')")
    assert not run_suite(warehouse, "raw_git_commits", marks).success
    assert marks.get("raw_git_commits") == 1764700000.5  # a failing load is validated again next time
    assert not run_suite(warehouse, "raw_git_commits", marks).success
    warehouse.execute("update raw_git.commits set sha = repeat('b', 40) where sha = 'not-a-sha'")
    fixed = run_suite(warehouse, "raw_git_commits", marks)
    assert fixed.success and fixed.rows == 1 and marks.get("raw_git_commits") == 1764790000.25
    # without a store every row is read, as before
    assert run_suite(warehouse, "raw_git_commits").rows == 2


def test_adoption_flag_allows_same_day_commits_before_the_paper(warehouse):
    warehouse.execute("create table marts.fct_method_adoptions (arxiv_id varchar, framework_id varchar, "
                      "confidence double, days_from_paper int, is_before_first_version boolean, first_evidence varchar)")
    warehouse.execute("insert into marts.fct_method_adoptions values ('2503.14476', 'trl', 0.9, 12, false, 'alias'), "
                      "('2603.01801', 'trl', 0.9, 0, true, 'alias')")  # committed hours before v1, same day
    assert run_suite(warehouse, "fct_method_adoptions").success
    warehouse.execute("insert into marts.fct_method_adoptions values ('2606.05104', 'trl', 0.9, -3, false, 'alias')")
    outcome = run_suite(warehouse, "fct_method_adoptions")
    assert not outcome.success and {f["batch"] for f in outcome.failures} >= {"flag matches dates"}


def test_front_matter_rows_explain_every_code_release(warehouse):
    warehouse.execute("create schema if not exists raw_arxiv")
    warehouse.execute("create table raw_arxiv.paper_front_matter (arxiv_id varchar, status varchar, "
                      "reader_version bigint, releases_code boolean, code_signal varchar)")
    warehouse.execute("insert into raw_arxiv.paper_front_matter values "
                      "('2504.10187', 'read', 1, true, 'footnote link: https://github.com/lab/drt'), "
                      "('2505.00001', 'no_html', 1, false, null)")
    assert run_suite(warehouse, "raw_arxiv_front_matter").success
    warehouse.execute("insert into raw_arxiv.paper_front_matter values ('2505.00002', 'read', 1, true, null), "
                      "('2505.00003', 'gone', 1, false, null)")
    outcome = run_suite(warehouse, "raw_arxiv_front_matter")
    assert not outcome.success
    assert {f["batch"] for f in outcome.failures} == {"rows", "code release keeps its signal"}
