"""Expectation suites, built in code, for the raw, staging and mart layers.

A suite validates one warehouse table (the Dagster asset its check is attached to) through one or
more *batches*. Each batch is a SQL query whose result GX validates as a DataFrame:
- row-level batches select the columns to check and are read in chunks;
- set-wide batches (uniqueness, sums, freshness) are computed in DuckDB and return a handful of
  rows (e.g. the duplicated keys), so large tables never travel into pandas whole.
GX's SQL datasources do not support DuckDB, hence the DataFrame route.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ingestion.config import freshness_hours



class _LazyExpectations:
    """`great_expectations.expectations`, imported on first use: GX takes ~10 s to import and the
    Dagster code location only needs the suites' names and tables to load."""

    def __getattr__(self, name: str):
        import great_expectations.expectations as module

        return getattr(module, name)


gxe = _LazyExpectations()

# new-style ids (2503.14476, 0704.0001) or old-style archive ids (math/0501001, hep-th/9901001)
ARXIV_ID_PATTERN = r"^(?:\d{4}\.\d{4,5}|[a-z\-]+(?:\.[A-Z]{2})?/\d{7})$"
SHA_PATTERN = r"^[0-9a-f]{40}$"
REPO_PATTERN = r"^[A-Za-z0-9_.\-]+/[A-Za-z0-9_.\-]+$"
Expectations = Callable[[], list]  # -> list of great_expectations Expectation


@dataclass(frozen=True)
class Batch:
    label: str
    sql: str  # `{table}` is replaced by the suite's table
    expectations: Expectations
    # Row-level batches of tables whose rows carry their dlt load id name that column here: with a
    # watermark store, a run validates only rows of loads newer than the last passing run.
    incremental_on: str | None = None


@dataclass(frozen=True)
class Suite:
    name: str
    table: str  # schema.table in the warehouse = the asset key the check belongs to
    batches: tuple[Batch, ...]
    blocking: bool = True  # a failure stops downstream assets
    description: str = ""


def _not_flagged_early():
    from great_expectations.expectations.row_conditions import Column

    return Column("is_before_first_version") == False  # noqa: E712 (builds a GX condition)


def no_duplicates(key: str) -> Batch:
    """Set-wide uniqueness in SQL: the batch holds only the duplicated keys, and must be empty."""
    return Batch(f"unique {key}",
                 f"select {key}, count(*) as n from {{table}} group by all having count(*) > 1",
                 lambda: [gxe.ExpectTableRowCountToEqual(value=0)])


def loaded_recently(dataset: str) -> Batch:
    """Freshness: the newest successful dlt load of the dataset is younger than the limit."""
    return Batch(
        "freshness",
        f"select date_diff('minute', max(inserted_at), now()) / 60.0 as hours_since_load "
        f"from {dataset}._dlt_loads where status = 0",
        lambda: [gxe.ExpectColumnValuesToNotBeNull(column="hours_since_load"),
                 gxe.ExpectColumnValuesToBeBetween(column="hours_since_load", max_value=freshness_hours())],
    )


# --- raw ------------------------------------------------------------------------------------------
RAW_PAPERS = Suite(
    "raw_arxiv_papers", "raw_arxiv.papers",
    (
        Batch("rows", "select arxiv_id, published_at, title, latest_version from {table}", lambda: [
            gxe.ExpectColumnValuesToNotBeNull(column="arxiv_id"),
            gxe.ExpectColumnValuesToMatchRegex(column="arxiv_id", regex=ARXIV_ID_PATTERN),
            gxe.ExpectColumnValuesToNotBeNull(column="published_at"),
            gxe.ExpectColumnValuesToNotBeNull(column="title"),
            gxe.ExpectColumnValuesToBeBetween(column="latest_version", min_value=1),
        ], incremental_on="_dlt_load_id"),
        no_duplicates("arxiv_id"),
    ),
    description="arXiv ids well formed (no version suffix), one row per paper, required fields present.",
)

RAW_COMMITS = Suite(
    "raw_git_commits", "raw_git.commits",
    (
        Batch("rows", "select framework_id, repo, sha, committed_at from {table}", lambda: [
            gxe.ExpectColumnValuesToNotBeNull(column="framework_id"),
            gxe.ExpectColumnValuesToMatchRegex(column="sha", regex=SHA_PATTERN),
            gxe.ExpectColumnValuesToMatchRegex(column="repo", regex=REPO_PATTERN),
            gxe.ExpectColumnValuesToNotBeNull(column="committed_at"),
        ], incremental_on="_dlt_load_id"),
        no_duplicates("repo, sha"),
    ),
    description="Commit shas are 40 hex digits, repos are owner/name, one row per (repo, sha).",
)

RAW_GITHUB_PRS = Suite(
    "raw_github_pull_requests", "raw_github.pull_requests",
    (
        Batch("rows", "select framework_id, repo, number, state, created_at, merged_at from {table}", lambda: [
            gxe.ExpectColumnValuesToNotBeNull(column="framework_id"),
            gxe.ExpectColumnValuesToBeBetween(column="number", min_value=1),
            gxe.ExpectColumnValuesToBeInSet(column="state", value_set=["open", "closed"]),
            gxe.ExpectColumnValuesToMatchRegex(column="repo", regex=REPO_PATTERN),
        ], incremental_on="_dlt_load_id"),
        Batch("merged after created",
              "select count(*) filter (where merged_at < created_at) as merged_before_created from {table}",
              lambda: [gxe.ExpectColumnValuesToBeBetween(column="merged_before_created", max_value=0)]),
        no_duplicates("framework_id, number"),
    ),
    description="PR numbers positive and unique per framework, states known, merges after creation.",
)

RAW_FRONT_MATTER = Suite(
    "raw_arxiv_front_matter", "raw_arxiv.paper_front_matter",
    (
        Batch("rows", "select arxiv_id, status, reader_version, releases_code, code_signal from {table}", lambda: [
            gxe.ExpectColumnValuesToMatchRegex(column="arxiv_id", regex=ARXIV_ID_PATTERN),
            gxe.ExpectColumnValuesToBeInSet(column="status",
                                            value_set=["read", "no_html", "no_front_matter", "fetch_failed"]),
            gxe.ExpectColumnValuesToBeBetween(column="reader_version", min_value=1),
            gxe.ExpectColumnValuesToNotBeNull(column="releases_code"),
        ], incremental_on="_dlt_load_id"),
        Batch("code release keeps its signal",
              "select count(*) filter (where releases_code and code_signal is null) as unexplained, "
              "count(*) filter (where releases_code and status <> 'read') as code_without_a_page from {table}",
              lambda: [gxe.ExpectColumnValuesToBeBetween(column="unexplained", max_value=0),
                       gxe.ExpectColumnValuesToBeBetween(column="code_without_a_page", max_value=0)]),
        no_duplicates("arxiv_id"),
    ),
    description="Front-matter rows: ids well formed, known statuses, one row per paper, every code release "
                "read from a page and explained by its signal.",
)

RAW_FRESHNESS = Suite(
    "raw_arxiv_freshness", "raw_arxiv.papers", (loaded_recently("raw_arxiv"),), blocking=False,
    description="The last successful arXiv load is at most RLTRACK_FRESHNESS_HOURS (48) old.",
)

# --- staging --------------------------------------------------------------------------------------
STG_PAPERS = Suite(
    "stg_arxiv_papers", "staging.stg_arxiv__papers",
    (
        Batch("rows", "select arxiv_id, published_at, first_version_date from {table}", lambda: [
            gxe.ExpectColumnValuesToMatchRegex(column="arxiv_id", regex=ARXIV_ID_PATTERN),
            gxe.ExpectColumnValuesToNotBeNull(column="first_version_date"),
        ], incremental_on="dlt_load_id"),
        no_duplicates("arxiv_id"),
    ),
    description="Staged papers: one row per arXiv id, each with its first-version date.",
)

STG_COMMITS = Suite(
    "stg_git_commits", "staging.stg_git__commits",
    (
        Batch("rows", "select sha, insertions, deletions, files_changed from {table}", lambda: [
            gxe.ExpectColumnValuesToMatchRegex(column="sha", regex=SHA_PATTERN),
            gxe.ExpectColumnValuesToBeBetween(column="insertions", min_value=0),
            gxe.ExpectColumnValuesToBeBetween(column="deletions", min_value=0),
            gxe.ExpectColumnValuesToBeBetween(column="files_changed", min_value=0),
        ], incremental_on="dlt_load_id"),
        no_duplicates("repo, sha"),
    ),
    description="Staged commits: valid shas, non-negative line counts, one row per (repo, sha).",
)

# --- marts ----------------------------------------------------------------------------------------
ADOPTIONS = Suite(
    "fct_method_adoptions", "marts.fct_method_adoptions",
    (
        Batch("rows", "select arxiv_id, confidence, days_from_paper, is_before_first_version, first_evidence "
                      "from {table}", lambda: [
            gxe.ExpectColumnValuesToMatchRegex(column="arxiv_id", regex=ARXIV_ID_PATTERN),
            gxe.ExpectColumnValuesToBeBetween(column="confidence", min_value=0, max_value=1),
            # no adoption before the paper's first version unless the row says so
            gxe.ExpectColumnValuesToBeBetween(
                column="days_from_paper", min_value=0,
                row_condition=_not_flagged_early(),
            ),
            gxe.ExpectColumnValuesToBeInSet(column="first_evidence", value_set=["arxiv_id", "alias", "docs"]),
        ]),
        # the flag compares times, days_from_paper whole days: a commit hours before the paper's
        # first version on the same day is flagged with 0 days
        Batch("flag matches dates",
              "select count(*) filter (where (days_from_paper < 0 and not is_before_first_version) "
              "or (is_before_first_version and days_from_paper > 0)) as mismatched from {table}",
              lambda: [gxe.ExpectColumnValuesToBeBetween(column="mismatched", max_value=0)]),
        no_duplicates("arxiv_id, framework_id"),
    ),
    description="One adoption per (paper, framework); none before the paper's first version unless flagged; "
                "confidence in [0, 1].",
)

COHORTS = Suite(
    "fct_cohort_adoption", "marts.fct_cohort_adoption",
    (
        Batch("rows", "select cohort_quarter, papers, ever_included, included_within_horizon, "
                      "included_within_horizon_rate, ever_included_rate from {table}", lambda: [
            gxe.ExpectColumnValuesToBeBetween(column="included_within_horizon_rate", min_value=0, max_value=1),
            gxe.ExpectColumnValuesToBeBetween(column="ever_included_rate", min_value=0, max_value=1),
            gxe.ExpectColumnPairValuesAToBeGreaterThanB(
                column_A="ever_included", column_B="included_within_horizon", or_equal=True),
            gxe.ExpectColumnPairValuesAToBeGreaterThanB(column_A="papers", column_B="ever_included", or_equal=True),
            gxe.ExpectColumnValuesToBeUnique(column="cohort_quarter"),
        ]),
        # set-wide, in SQL: cohorts add up to the general-method papers, rates equal their ratios
        Batch("sums consistent",
              "select (select coalesce(sum(papers), 0) from {table}) "
              "  - (select count(*) from marts.dim_papers where is_general_method) as papers_gap, "
              "(select coalesce(max(abs(ever_included_rate - ever_included / nullif(papers, 0))), 0) "
              "   from {table}) as rate_error",
              lambda: [gxe.ExpectColumnValuesToBeBetween(column="papers_gap", min_value=0, max_value=0),
                       gxe.ExpectColumnValuesToBeBetween(column="rate_error", max_value=0.001)]),
    ),
    description="Rates in [0, 1], ever >= within horizon, cohorts sum to the general-method papers.",
)

SUITES = {s.name: s for s in (RAW_PAPERS, RAW_COMMITS, RAW_GITHUB_PRS, RAW_FRONT_MATTER, RAW_FRESHNESS,
                              STG_PAPERS, STG_COMMITS, ADOPTIONS, COHORTS)}
