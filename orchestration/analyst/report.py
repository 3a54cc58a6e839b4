"""`rltrack report`: one static HTML file (inline CSS and SVG, no scripts, opens offline).

Sections: the headline against the study, quarterly cohorts, time to first adoption per cohort
(marts.fct_adoption_survival when it is there, else Kaplan-Meier computed here, censored at the
observation end), adoptions and proposals per framework (fct_framework_adoption if present), and
factor gaps (fct_adoption_factors if present, else computed from dim_papers). Optional marts that
are missing fall back or turn into a note instead of a chart.
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass
from datetime import date, datetime, timezone
from html import escape
from pathlib import Path
from typing import Any

import duckdb

from orchestration.analyst.lookup import columns_of, table_exists
from orchestration.analyst.svg import PALETTE, bar_chart, step_chart

HORIZON_DAYS = 180
CHART_IDS = ("chart-cohorts", "chart-survival", "chart-frameworks", "chart-proposals", "chart-factors")
FACTOR_LABELS = {
    "is_large_policy": "large policy (>= 30B)",
    "changes_loss": "changes the loss",
    "releases_code": "releases code",
    "is_maintainer_paper": "by a framework's maintainers",
}
# Columns the lead's optional survival mart may use, most specific first.
SURVIVAL_COHORT = ("cohort_label", "cohort_quarter", "cohort")
SURVIVAL_TIME = ("days_since_paper", "days_from_paper", "days", "day", "t")
SURVIVAL_ADOPTED = ("cumulative_adoption", "cumulative_share", "share_adopted", "adopted_share",
                    "cumulative_incidence")
SURVIVAL_NOT_ADOPTED = ("share_not_yet_adopted", "survival", "survival_probability", "share_not_adopted",
                        "km_survival")


def _records(con: duckdb.DuckDBPyConnection, sql: str, params: list | None = None) -> list[dict[str, Any]]:
    cur = con.execute(sql, params or [])
    names = [d[0] for d in cur.description]
    return [dict(zip(names, r)) for r in cur.fetchall()]


def _pct(v: float) -> str:
    return f"{v * 100:.0f}%" if v * 100 >= 10 or v == 0 else f"{v * 100:.1f}%"


def _html_table(headers: list[str], rows: list[list[Any]], cls: str = "") -> str:
    head = "".join(f"<th>{escape(str(h))}</th>" for h in headers)
    body = "".join("<tr>" + "".join(f"<td>{escape('' if v is None else str(v))}</td>" for v in r) + "</tr>"
                   for r in rows)
    return f"<table class='{cls}'><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def _caption(text: str) -> str:
    return f"<h3>{escape(text)}</h3>"


def _note(text: str) -> str:
    return f"<p class='note'>{escape(text)}</p>"


# --- Kaplan-Meier ---------------------------------------------------------------------------

@dataclass
class FollowUp:
    days: float  # to the first adoption, or to the observation end when censored
    adopted: bool


def kaplan_meier(follow_ups: list[FollowUp]) -> list[tuple[float, float]]:
    """Cumulative share adopted, 1 - S(t), as step points from (0, 0) to the last follow-up."""
    if not follow_ups:
        return []
    at_risk = len(follow_ups)
    survival = 1.0
    points = [(0.0, 0.0)]
    times = sorted({max(f.days, 0.0) for f in follow_ups})
    for t in times:
        events = sum(1 for f in follow_ups if f.adopted and max(f.days, 0.0) == t)
        leaving = sum(1 for f in follow_ups if max(f.days, 0.0) == t)
        if events and at_risk:
            survival *= 1 - events / at_risk
            points.append((t, 1 - survival))
        at_risk -= leaving
    last = max(times)
    if points[-1][0] < last:
        points.append((last, points[-1][1]))
    return points


def observation_end(con: duckdb.DuckDBPyConnection) -> date:
    if "observation_end" in columns_of(con, "marts.fct_cohort_adoption"):
        value = con.execute("select max(observation_end) from marts.fct_cohort_adoption").fetchone()[0]
        if value:
            return value if isinstance(value, date) and not isinstance(value, datetime) else value.date()
    value = con.execute("select max(cast(last_commit_at as date)) from marts.dim_frameworks").fetchone()[0]
    return value or date.today()


def cohort_follow_ups(con: duckdb.DuckDBPyConnection) -> tuple[dict[str, list[FollowUp]], date]:
    end = observation_end(con)
    rows = con.execute("""
        select strftime(p.cohort_quarter, '%Y') || '-Q' || cast(quarter(p.cohort_quarter) as varchar) as cohort,
               p.arxiv_id, p.first_version_date, min(a.days_from_paper) as days_to_first
        from marts.dim_papers as p
        left join marts.fct_method_adoptions as a on p.arxiv_id = a.arxiv_id
        where p.is_general_method
        group by all order by 1""").fetchall()
    cohorts: dict[str, list[FollowUp]] = {}
    for cohort, _, first_version, days_to_first in rows:
        observed = (end - first_version).days
        adopted = days_to_first is not None and days_to_first <= observed
        cohorts.setdefault(cohort, []).append(FollowUp(days_to_first if adopted else observed, adopted))
    return cohorts, end


def survival_from_mart(con: duckdb.DuckDBPyConnection) -> dict[str, list[tuple[float, float]]] | None:
    """Curves from marts.fct_adoption_survival if it exists and its columns are recognisable."""
    if not table_exists(con, "marts.fct_adoption_survival"):
        return None
    cols = columns_of(con, "marts.fct_adoption_survival")
    pick = lambda names: next((c for c in names if c in cols), None)  # noqa: E731
    cohort, time_col = pick(SURVIVAL_COHORT), pick(SURVIVAL_TIME)
    adopted, not_adopted = pick(SURVIVAL_ADOPTED), pick(SURVIVAL_NOT_ADOPTED)
    if not cohort or not time_col or not (adopted or not_adopted):
        return None
    value = adopted if adopted else f"1 - {not_adopted}"
    label = (f"strftime({cohort}, '%Y') || '-Q' || cast(quarter({cohort}) as varchar)"
             if cohort == "cohort_quarter" else f"cast({cohort} as varchar)")
    curves: dict[str, list[tuple[float, float]]] = {}
    for c, t, v in con.execute(f"select {label}, {time_col}, {value} from marts.fct_adoption_survival "
                               f"where {time_col} is not null order by 1, 2").fetchall():
        curves.setdefault(c, []).append((float(t), float(v or 0)))
    for points in curves.values():
        if points[0][0] > 0:
            points.insert(0, (0.0, 0.0))
    return curves or None


# --- sections -------------------------------------------------------------------------------

def section_headline(con: duckdb.DuckDBPyConnection) -> str:
    rows = con.execute("select metric, our_value, study_value from marts.rpt_headline order by sort_order").fetchall()
    return ("<section id='headline'><h2>Headline: this warehouse against the study</h2>"
            + _html_table(["metric", "this warehouse", "study"], [list(r) for r in rows], "headline") + "</section>")


def section_cohorts(con: duckdb.DuckDBPyConnection) -> str:
    rows = _records(con, "select * from marts.fct_cohort_adoption order by cohort_quarter")
    labels = [r["cohort_label"] for r in rows]
    within = [r["included_within_horizon"] / r["papers"] if r["papers"] else 0 for r in rows]
    ever = [r["ever_included"] / r["papers"] if r["papers"] else 0 for r in rows]
    notes = [f"n={r['papers']}" + ("" if r["horizon_fully_observed"] else " · censored") for r in rows]
    chart = _caption("Share of general-method papers included, by quarterly cohort") + bar_chart("chart-cohorts", "Share of general-method papers included, by quarterly cohort", labels,
                      [(f"included within {HORIZON_DAYS} days", within, PALETTE[0]),
                       ("included by the observation end", ever, PALETTE[1])],
                      y_label="share of the cohort's papers", fmt=_pct, notes=notes)
    table = _html_table(["cohort", "general-method papers", f"included <= {HORIZON_DAYS}d", "ever included",
                         f"{HORIZON_DAYS}d horizon fully observed"],
                        [[r["cohort_label"], r["papers"], r["included_within_horizon"], r["ever_included"],
                          "yes" if r["horizon_fully_observed"] else "no (censored)"] for r in rows])
    return ("<section id='cohorts'><h2>Cohorts</h2><p>Papers proposing a general RL training method, grouped by "
            "the quarter of their first arXiv version. Cohorts marked censored have not yet been observed for "
            f"the full {HORIZON_DAYS} days: their shares are lower bounds, not failures.</p>"
            + chart + f"<details><summary>data</summary>{table}</details></section>")


def section_survival(con: duckdb.DuckDBPyConnection) -> str:
    curves = survival_from_mart(con)
    if curves:
        source = "from marts.fct_adoption_survival"
        x_max = max(t for pts in curves.values() for t, _ in pts)
        table = ""
    else:
        follow, end = cohort_follow_ups(con)
        curves = {c: kaplan_meier(f) for c, f in follow.items()}
        source = (f"Kaplan-Meier estimate computed from fct_method_adoptions and dim_papers; papers not yet "
                  f"adopted are censored at the observation end ({end.isoformat()})")
        x_max = max((f.days for fs in follow.values() for f in fs), default=HORIZON_DAYS)
        table = _html_table(["cohort", "papers", "adopted", "censored",
                             f"share adopted by day {HORIZON_DAYS}"],
                            [[c, len(f), sum(x.adopted for x in f), sum(not x.adopted for x in f),
                              _pct(_value_at(curves[c], HORIZON_DAYS))] for c, f in follow.items()])
    chart = _caption("Time from first arXiv version to first framework adoption") + step_chart("chart-survival", "Time from first arXiv version to first framework adoption",
                       [(c, pts, PALETTE[i % len(PALETTE)]) for i, (c, pts) in enumerate(sorted(curves.items()))],
                       x_max=max(x_max, HORIZON_DAYS), x_label="days since the paper's first version",
                       y_label="cumulative share adopted", vline=(HORIZON_DAYS, f"{HORIZON_DAYS}-day horizon"))
    details = f"<details><summary>data</summary>{table}</details>" if table else ""
    return ("<section id='survival'><h2>Time to adoption</h2>"
            f"<p>Cumulative share of each cohort's general-method papers adopted by at least one framework ({escape(source)}). "
            "Each curve stops where that cohort's observation ends.</p>" + chart + details + "</section>")


def _value_at(points: list[tuple[float, float]], t: float) -> float:
    value = 0.0
    for x, y in points:
        if x <= t:
            value = y
    return value


FRAMEWORK_MART_COLUMNS = {"framework_id", "adoptions", "adoptions_within_horizon", "median_days_to_adoption"}


def _framework_counts(con: duckdb.DuckDBPyConnection, ids: list[str]) -> tuple[list, list, list]:
    """Adoptions within / after the horizon and median days per framework (mart if present)."""
    if table_exists(con, "marts.fct_framework_adoption") and \
            FRAMEWORK_MART_COLUMNS <= set(columns_of(con, "marts.fct_framework_adoption")):
        rows = {r["framework_id"]: r for r in _records(con, "select * from marts.fct_framework_adoption")}
        empty = {"adoptions": 0, "adoptions_within_horizon": 0, "median_days_to_adoption": None}
        picked = [rows.get(fw, empty) for fw in ids]
        return ([r["adoptions_within_horizon"] for r in picked],
                [r["adoptions"] - r["adoptions_within_horizon"] for r in picked],
                [None if r["median_days_to_adoption"] is None else float(r["median_days_to_adoption"]) for r in picked])
    adoptions = _records(con, "select framework_id, days_from_paper from marts.fct_method_adoptions")
    days = {fw: [a["days_from_paper"] for a in adoptions if a["framework_id"] == fw] for fw in ids}
    return ([sum(1 for d in days[fw] if d <= HORIZON_DAYS) for fw in ids],
            [sum(1 for d in days[fw] if d > HORIZON_DAYS) for fw in ids],
            [statistics.median(days[fw]) if days[fw] else None for fw in ids])


def section_frameworks(con: duckdb.DuckDBPyConnection) -> str:
    fws = _records(con, "select framework_id, display_name from marts.dim_frameworks "
                        + ("where commits_mined > 0 " if "commits_mined" in columns_of(con, "marts.dim_frameworks") else "")
                        + "order by framework_id")
    names = [f["display_name"] or f["framework_id"] for f in fws]
    ids = [f["framework_id"] for f in fws]
    within, later, medians = _framework_counts(con, ids)
    chart = _caption("Papers adopted per framework (median days to adoption under each name)") + bar_chart(
        "chart-frameworks", "Papers adopted per framework", names,
        [(f"within {HORIZON_DAYS} days", within, PALETTE[0]), (f"after {HORIZON_DAYS} days", later, PALETTE[1])],
        y_label="papers adopted", notes=[f"median {m:.0f} d" if m is not None else "none" for m in medians])
    parts = ["<section id='frameworks'><h2>Per framework</h2>"
             "<p>Papers whose method reached each framework's default branch, and how soon.</p>", chart]
    if table_exists(con, "marts.fct_method_proposals"):
        props = _records(con, "select framework_id, outcome from marts.fct_method_proposals")
        groups = [("merged", {"merged"}, PALETTE[2]),
                  ("closed", {"closed_not_planned", "closed_completed", "closed"}, PALETTE[7]),
                  ("open, maintainer replied", {"open_with_maintainer_reply"}, PALETTE[0]),
                  ("open, no maintainer reply", {"open_without_reply", "open_without_maintainer_reply"}, PALETTE[3])]
        series = [(label, [sum(1 for p in props if p["framework_id"] == fw and p["outcome"] in outs) for fw in ids], colour)
                  for label, outs, colour in groups]
        parts.append(_caption("Proposals of a paper's method (threads whose role is proposal), by outcome"))
        parts.append(bar_chart("chart-proposals", "Proposals of a paper's method (threads whose role is proposal), by outcome",
                               names, series, y_label="threads"))
    else:
        parts.append(_note("marts.fct_method_proposals is not in this snapshot; no proposals chart."))
    parts.append("</section>")
    return "".join(parts)


FACTOR_MART_COLUMNS = {"factor", "included_share", "other_share", "included_papers", "other_papers"}


def factors_from_mart(con: duckdb.DuckDBPyConnection) -> str | None:
    """The study's framing: share of included papers with a factor against the share among the others."""
    if not table_exists(con, "marts.fct_adoption_factors") or \
            not FACTOR_MART_COLUMNS <= set(columns_of(con, "marts.fct_adoption_factors")):
        return None
    has_population = "population" in columns_of(con, "marts.fct_adoption_factors")
    rows = _records(con, "select * from marts.fct_adoption_factors order by "
                         + ("population, " if has_population else "") + "factor")
    if not rows:
        return None
    label = lambda r: r["factor"].replace("_", " ") + (  # noqa: E731
        "" if not has_population or r["population"] == "all_papers" else " *")
    chart = _caption("Share of papers with each factor: included papers against the others") + bar_chart(
        "chart-factors", "Factor shares among included and other general-method papers", [label(r) for r in rows],
        [("included papers", [float(r["included_share"] or 0) for r in rows], PALETTE[2]),
         ("other papers", [float(r["other_share"] or 0) for r in rows], PALETTE[7])],
        y_label="share of papers with the factor", fmt=_pct, y_max=1.0,
        notes=[f"gap {(float(r['included_share'] or 0) - float(r['other_share'] or 0)) * 100:+.0f} pts "
               f"(n={r['included_papers']}/{r['other_papers']})" for r in rows], height=380)
    table = _html_table(list(rows[0]), [list(r.values()) for r in rows])
    return ("<p>From marts.fct_adoption_factors: for each paper feature, the share of included "
            "general-method papers that have it against the share among those not included "
            "(descriptive, not causal)."
            + (" Factors marked * exclude papers written by a framework's own maintainers." if has_population else "")
            + "</p>" + chart + f"<details><summary>data</summary>{table}</details>")


def section_factors(con: duckdb.DuckDBPyConnection) -> str:
    from_mart = factors_from_mart(con)
    if from_mart:
        return f"<section id='factors'><h2>Factor gaps</h2>{from_mart}</section>"
    cols = columns_of(con, "marts.dim_papers")
    factors = [c for c in FACTOR_LABELS if c in cols]
    parts = ["<section id='factors'><h2>Factor gaps</h2>"]
    if not factors:
        parts.append(_note("dim_papers has none of the factor columns; no factor chart."))
    else:
        rows = []
        for f in factors:
            r = con.execute(f"""
                with adopted as (select distinct arxiv_id from marts.fct_method_adoptions)
                select count(*) filter (where p.{f}), count(a.arxiv_id) filter (where p.{f}),
                       count(*) filter (where not p.{f}), count(a.arxiv_id) filter (where not p.{f})
                from marts.dim_papers as p left join adopted as a on p.arxiv_id = a.arxiv_id
                where p.is_general_method and p.{f} is not null""").fetchone()
            rows.append((f, *r))
        share = lambda k, n: k / n if n else 0.0  # noqa: E731
        labels = [FACTOR_LABELS[f] for f, *_ in rows]
        chart = _caption("Inclusion rate with and without each factor") + bar_chart("chart-factors", "Inclusion rate of general-method papers with and without each factor",
                          labels, [("with the factor", [share(k, n) for _, n, k, _, _ in rows], PALETTE[2]),
                                   ("without it", [share(k, n) for _, _, _, n, k in rows], PALETTE[7])],
                          y_label="share included in a framework", fmt=_pct,
                          notes=[f"gap {(share(k1, n1) - share(k0, n0)) * 100:+.0f} pts (n={n1}/{n0})"
                                 for _, n1, k1, n0, k0 in rows])
        parts.append("<p>Share of general-method papers adopted by at least one framework, split by a paper "
                     "feature (computed from dim_papers; gaps are descriptive, not causal).</p>" + chart)
    parts.append("</section>")
    return "".join(parts)


def section_inventory(con: duckdb.DuckDBPyConnection) -> str:
    names = [r[0] for r in con.execute("select table_name from information_schema.tables "
                                       "where table_schema = 'marts' order by 1").fetchall()]
    rows = [[n, con.execute(f'select count(*) from marts."{n}"').fetchone()[0]] for n in names]
    return ("<section id='inventory'><h2>Marts in this snapshot</h2>"
            + _html_table(["table", "rows"], rows) + "</section>")


CSS = """
body{font-family:system-ui,sans-serif;max-width:960px;margin:24px auto;padding:0 16px;color:#222}
h1{font-size:24px}h3{font-size:15px;margin:16px 0 0}h2{font-size:19px;margin-top:32px;border-bottom:1px solid #ddd;padding-bottom:4px}
table{border-collapse:collapse;margin:8px 0;font-size:13px}th,td{border:1px solid #ddd;padding:4px 8px;text-align:left}
th{background:#f4f4f4}svg.chart{max-width:100%;height:auto;display:block;margin:8px 0}
.note{color:#a33;font-style:italic}.stale{background:#fde8e8;border:1px solid #d88;padding:8px 12px}.meta{color:#666;font-size:13px}details{margin:4px 0 12px}
"""

SECTIONS = (section_headline, section_cohorts, section_survival, section_frameworks, section_factors,
            section_inventory)


def render_report(con: duckdb.DuckDBPyConnection) -> str:
    """The whole report; it names the snapshot (build time, observation end), never a local path."""
    from orchestration.analyst.snapshot import describe

    snapshot = describe(con)
    body = []
    for section in SECTIONS:
        try:
            body.append(section(con))
        except duckdb.CatalogException as exc:  # a mart this section needs is missing
            body.append(_note(f"{section.__name__.removeprefix('section_')}: skipped ({str(exc).splitlines()[0]})"))
    generated = datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    return ("<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>"
            "<meta name='viewport' content='width=device-width, initial-scale=1'>"
            f"<title>rltrack report</title><style>{CSS}</style></head><body>"
            "<h1>How RL-for-LLM methods reach open-source RL frameworks</h1>"
            f"<p class='meta'>Generated {generated} from {escape(snapshot.name)}.</p>"
            + _stale_banner(snapshot.warnings) + "".join(body) + "</body></html>")


def _stale_banner(warnings: list[str]) -> str:
    if not warnings:
        return ""
    items = "".join(f"<li>{escape(line)}</li>" for line in warnings)
    return (f"<div class='stale' role='alert'><strong>Some sources are behind.</strong> This snapshot lacks "
            f"data:<ul>{items}</ul></div>")


def write_report(con: duckdb.DuckDBPyConnection, out: Path) -> Path:
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_name(out.name + ".tmp")
    tmp.write_text(render_report(con), encoding="utf-8")
    tmp.replace(out)
    return out
