"""Expectation suites, built in code. Each suite names the table it validates.

GX's SQL datasource does not work on DuckDB, so suites run over pandas DataFrames read from the
warehouse in chunks (see `runner.py`); set-wide checks on big tables live in dbt tests instead.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import great_expectations.expectations as gxe

# new-style ids (2503.14476, 0704.0001) or old-style archive ids (math/0501001, hep-th/9901001)
ARXIV_ID_PATTERN = r"^(\d{4}\.\d{4,5}|[a-z\-]+(\.[A-Z]{2})?/\d{7})$"


@dataclass(frozen=True)
class Suite:
    name: str
    table: str  # schema.table in the warehouse
    columns: tuple[str, ...]
    expectations: Callable[[], list[gxe.Expectation]]


def _raw_papers() -> list[gxe.Expectation]:
    return [
        gxe.ExpectColumnValuesToNotBeNull(column="arxiv_id"),
        gxe.ExpectColumnValuesToMatchRegex(column="arxiv_id", regex=ARXIV_ID_PATTERN),
        gxe.ExpectColumnValuesToNotBeNull(column="published_at"),
        gxe.ExpectColumnValuesToNotBeNull(column="title"),
        gxe.ExpectColumnValuesToBeBetween(column="latest_version", min_value=1),
    ]


def _adoptions() -> list[gxe.Expectation]:
    return [
        gxe.ExpectColumnValuesToMatchRegex(column="arxiv_id", regex=ARXIV_ID_PATTERN),
        gxe.ExpectColumnValuesToBeBetween(column="confidence", min_value=0, max_value=1),
        # no adoption before the paper's first version unless the row says so
        gxe.ExpectColumnValuesToBeBetween(
            column="days_from_paper", min_value=0,
            row_condition="is_before_first_version == False", condition_parser="pandas",
        ),
        gxe.ExpectColumnValuesToBeInSet(column="first_evidence", value_set=["arxiv_id", "alias", "docs"]),
    ]


def _cohorts() -> list[gxe.Expectation]:
    return [
        gxe.ExpectColumnValuesToBeBetween(column="included_within_horizon_rate", min_value=0, max_value=1),
        gxe.ExpectColumnValuesToBeBetween(column="ever_included_rate", min_value=0, max_value=1),
        gxe.ExpectColumnPairValuesAToBeGreaterThanB(
            column_A="ever_included", column_B="included_within_horizon", or_equal=True
        ),
        gxe.ExpectColumnPairValuesAToBeGreaterThanB(column_A="papers", column_B="ever_included", or_equal=True),
        gxe.ExpectColumnValuesToBeUnique(column="cohort_quarter"),
    ]


SUITES = {
    s.name: s
    for s in (
        Suite("raw_arxiv_papers", "raw_arxiv.papers",
              ("arxiv_id", "published_at", "title", "latest_version"), _raw_papers),
        Suite("fct_method_adoptions", "marts.fct_method_adoptions",
              ("arxiv_id", "confidence", "days_from_paper", "is_before_first_version", "first_evidence"),
              _adoptions),
        Suite("fct_cohort_adoption", "marts.fct_cohort_adoption",
              ("cohort_quarter", "papers", "ever_included", "included_within_horizon",
               "included_within_horizon_rate", "ever_included_rate"), _cohorts),
    )
}
