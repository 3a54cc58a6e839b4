"""A factor model over the marts: logistic regression of inclusion on the paper features,
with Wald confidence intervals, written to `analysis.factor_model`."""

from dataclasses import dataclass

import dagster as dg
import duckdb
import numpy as np
from dagster import AssetExecutionContext

from ingestion import config
from orchestration.warehouse import write_lock

FEATURES = ("is_large_policy", "changes_loss", "releases_code", "is_maintainer_paper")
Z_95 = 1.959963984540054


@dataclass(frozen=True)
class Coefficient:
    term: str
    estimate: float
    std_error: float
    ci_low: float
    ci_high: float

    @property
    def odds_ratio(self) -> float:
        return float(np.exp(self.estimate))


def fit_logistic(x: np.ndarray, y: np.ndarray, terms: list[str], ridge: float = 1e-6,
                 max_iter: int = 100, tol: float = 1e-10) -> list[Coefficient]:
    """Newton-Raphson (IRLS) maximum likelihood; a tiny ridge keeps separated data finite."""
    design = np.column_stack([np.ones(len(y)), x]).astype(float)
    beta = np.zeros(design.shape[1])
    penalty = ridge * np.eye(design.shape[1])
    penalty[0, 0] = 0.0
    for _ in range(max_iter):
        p = 1.0 / (1.0 + np.exp(-design @ beta))
        w = p * (1.0 - p)
        hessian = design.T @ (design * w[:, None]) + penalty
        gradient = design.T @ (y - p) - penalty @ beta
        try:
            step = np.linalg.solve(hessian, gradient)
        except np.linalg.LinAlgError:  # a handful of papers (a small world): least squares step
            step = np.linalg.lstsq(hessian, gradient, rcond=None)[0]
        beta += step
        if np.max(np.abs(step)) < tol:
            break
    p = 1.0 / (1.0 + np.exp(-design @ beta))
    covariance = np.linalg.pinv(design.T @ (design * (p * (1 - p))[:, None]) + penalty)
    se = np.sqrt(np.clip(np.diag(covariance), 0, None))
    return [Coefficient(t, float(b), float(s), float(b - Z_95 * s), float(b + Z_95 * s))
            for t, b, s in zip(["intercept", *terms], beta, se)]


def inclusion_data(con: duckdb.DuckDBPyConnection) -> tuple[np.ndarray, np.ndarray]:
    rows = con.execute(f"""
        select {', '.join(f'cast(p.{f} as integer)' for f in FEATURES)},
               cast(p.arxiv_id in (select arxiv_id from marts.fct_method_adoptions) as integer)
        from marts.dim_papers as p
        where p.is_general_method
    """).fetchall()
    data = np.array(rows, dtype=float).reshape(-1, len(FEATURES) + 1)
    return data[:, :-1], data[:, -1]


@dg.asset(
    key=["analysis", "factor_model"],
    deps=[dg.AssetKey(["marts", "dim_papers"]), dg.AssetKey(["marts", "fct_method_adoptions"])],
    group_name="analysis",
    kinds={"python", "duckdb"},
    owners=["team:analytics-engineering"],
    description="Logistic regression of inclusion (adopted by >= 1 framework) on policy size >= 30B, "
    "loss change, code release and maintainer authorship, with 95% Wald intervals and odds ratios.",
    pool="duckdb_writer",
)
def factor_model(context: AssetExecutionContext) -> dg.MaterializeResult:
    with write_lock():
        con = duckdb.connect(str(config.warehouse_path()))
        try:
            x, y = inclusion_data(con)
            coefficients = fit_logistic(x, y, list(FEATURES))
            con.execute("create schema if not exists analysis")
            con.execute("""create or replace table analysis.factor_model (
                term varchar primary key, estimate double, std_error double, ci_low double, ci_high double,
                odds_ratio double, papers integer, included integer)""")
            con.executemany(
                "insert into analysis.factor_model values (?, ?, ?, ?, ?, ?, ?, ?)",
                [(c.term, c.estimate, c.std_error, c.ci_low, c.ci_high, c.odds_ratio, len(y), int(y.sum()))
                 for c in coefficients],
            )
        finally:
            con.close()
    table = "| term | odds ratio | 95% CI (log-odds) |\n|---|---|---|\n" + "\n".join(
        f"| {c.term} | {c.odds_ratio:.2f} | [{c.ci_low:.2f}, {c.ci_high:.2f}] |" for c in coefficients)
    return dg.MaterializeResult(metadata={"papers": len(y), "included": int(y.sum()),
                                          "coefficients": dg.MetadataValue.md(table)})
