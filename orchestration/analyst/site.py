"""`rltrack site`: the tracker people browse, a static site built from the published snapshot.

Home (headline against the study, the method x framework matrix), one page per method or paper,
one page per framework, and a client-side search over titles, names and aliases. Plain files
rendered with Jinja2 templates (`templates/`): they open from file:// and can be hosted as they
are. The matrix and pages read without JavaScript; search and sorting/filtering use a little.
Optional marts and columns (evidence grades, fct_paper_citations, failure links, report mentions,
thread roles) are used when the snapshot has them.
"""

from __future__ import annotations

import json
import os
import re
import shutil
from collections import defaultdict
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta, timezone
from pathlib import Path
from typing import Any
from urllib.parse import quote

import duckdb
from jinja2 import Environment, FileSystemLoader, select_autoescape

from orchestration.analyst.lookup import (
    _records,
    columns_of,
    contribution_rules,
    method_token,
    table_exists,
    tracked_frameworks,
)
from orchestration.analyst.report import HORIZON_DAYS, _framework_counts
from orchestration.analyst.snapshot import describe
from orchestration.analyst.svg import PALETTE, step_chart

TEMPLATES = Path(__file__).with_name("templates")
STATIC = ("site.css", "site.js")
RULE_LABELS = {
    "issue_first": "open an issue first",
    "tests_required": "tests required",
    "paper_link_required": "link the paper",
    "cla_required": "sign a CLA",
    "pr_title_format": "PR title format",
}
CATALOGUE_KIND = "catalogue (before the study window)"


# --- links --------------------------------------------------------------------------------

def slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9.\-]+", "_", text)


def arxiv_url(arxiv_id: str) -> str:
    return f"https://arxiv.org/abs/{arxiv_id}"


def commit_url(repo: str, sha: str) -> str:
    return f"https://github.com/{repo}/commit/{sha}"


def file_url(repo: str, ref: str, path: str) -> str:
    return f"https://github.com/{repo}/blob/{ref}/{quote(path)}"


def thread_url(repo: str, number: int, thread_kind: str) -> str:
    return f"https://github.com/{repo}/{'pull' if thread_kind == 'pull_request' else 'issues'}/{number}"


def cohort_label(value: date | None) -> str:
    return f"{value.year}-Q{(value.month - 1) // 3 + 1}" if value else ""


def _split(value: Any) -> list[str]:
    return [v for v in str(value or "").split(";") if v]


def _optional(con: duckdb.DuckDBPyConnection, table: str, sql: str, params: list | None = None) -> list[dict]:
    return _records(con, sql, params) if table_exists(con, table) else []


# --- what the snapshot holds ----------------------------------------------------------------

@dataclass
class Framework:
    framework_id: str
    name: str
    repo: str
    row: dict[str, Any]
    adoptions: list[dict] = field(default_factory=list)
    open_unanswered: list[dict] = field(default_factory=list)
    rules: Any = None
    median_days: float | None = None
    within_horizon: int = 0

    @property
    def url(self) -> str:
        return f"frameworks/{slug(self.framework_id)}.html"


@dataclass
class Method:
    arxiv_id: str
    title: str
    names: list[str]
    tokens: list[str]
    kind: str
    cohort: str
    paper: dict[str, Any]
    signals: dict[str, Any]
    widely_included: bool
    cells: dict[str, dict] = field(default_factory=dict)  # framework -> adoption or {"carried": True}
    links: list[dict] = field(default_factory=list)  # commits naming it (int_commits__paper_links)
    citations: list[dict] = field(default_factory=list)
    proposals: list[dict] = field(default_factory=list)
    failures: list[dict] = field(default_factory=list)
    reports: list[dict] = field(default_factory=list)

    @property
    def url(self) -> str:
        return f"methods/{slug(self.arxiv_id)}.html"

    @property
    def label(self) -> str:
        return self.names[0] if self.names else self.arxiv_id

    @property
    def carried_by(self) -> list[str]:
        return sorted(self.cells)

    @property
    def first_since(self) -> str:
        dates = [str(c["adopted_on"]) for c in self.cells.values() if c.get("adopted_on")]
        return min(dates) if dates else ""


def _frameworks(con: duckdb.DuckDBPyConnection) -> list[Framework]:
    ids = tracked_frameworks(con)
    rows = {r["framework_id"]: r for r in _records(con, "select * from marts.dim_frameworks")}
    within, _, medians = _framework_counts(con, ids)
    rules = {r.framework_id: r for r in contribution_rules(con, ids)}
    heads = {}  # rules are quoted from the files at the mined head commit when it is known
    if "head_sha" in columns_of(con, "raw_git.contribution_rules"):
        heads = dict(con.execute("select framework_id, head_sha from raw_git.contribution_rules").fetchall())
    out = []
    for fw, n, median in zip(ids, within, medians):
        row = rows[fw]
        row["rules_ref"] = heads.get(fw) or row.get("default_branch") or "HEAD"
        out.append(Framework(fw, row.get("display_name") or fw, row["repo"], row, rules=rules[fw],
                             median_days=median, within_horizon=n))
    return out


def _adoptions(con: duckdb.DuckDBPyConnection) -> list[dict]:
    cols = set(columns_of(con, "marts.fct_method_adoptions"))
    extra = [c for c in ("evidence_grade", "evidence_reason", "confidence") if c in cols]
    return _records(con, f"""
        select arxiv_id, framework_id, first_commit_sha, first_commit_path, adopted_on, days_from_paper,
               first_evidence, evidence_kinds, evidence_commits {''.join(', ' + c for c in extra)}
        from marts.fct_method_adoptions order by adopted_on, framework_id""")


def _names(con: duckdb.DuckDBPyConnection) -> dict[str, list[tuple[str, bool]]]:
    """arXiv id -> (name or alias, shown as a name?) in order of preference; code tokens only search."""
    names: dict[str, list[tuple[str, bool]]] = defaultdict(list)
    if table_exists(con, "marts.dim_methods"):
        for r in _records(con, "select arxiv_id, method_name from marts.dim_methods order by is_curated desc, method_id"):
            names[r["arxiv_id"]].append((r["method_name"], True))
    if table_exists(con, "seeds.method_catalogue"):
        for r in _records(con, "select arxiv_id, method_name, alias, alias_kind from seeds.method_catalogue order by 1, 2"):
            names[r["arxiv_id"]].append((r["method_name"], True))
            names[r["arxiv_id"]].append((r["alias"], r["alias_kind"] != "code_token"))
    for r in _optional(con, "intermediate.int_methods__aliases",
                       "select arxiv_id, alias, alias_source from intermediate.int_methods__aliases order by 1, 2"):
        names[r["arxiv_id"]].append((r["alias"], r["alias_source"] != "code_token"))
    return names


def _signals(con: duckdb.DuckDBPyConnection) -> dict[str, dict]:
    if not table_exists(con, "staging.stg_arxiv__paper_features"):
        return {}
    cols = [c for c in ("kind_signal", "size_signal", "loss_signal", "screener_version")
            if c in columns_of(con, "staging.stg_arxiv__paper_features")]
    if not cols:
        return {}
    out = {r["arxiv_id"]: r for r in _records(
        con, f"select arxiv_id, {', '.join(cols)} from staging.stg_arxiv__paper_features")}
    # code release and maintainers read the abstract and the arXiv HTML front matter together
    features = "intermediate.int_papers__features"
    wanted = ("code_signal", "maintainer_signal")
    if table_exists(con, features) and set(wanted) <= set(columns_of(con, features)):
        for r in _records(con, f"select arxiv_id, {', '.join(wanted)} from {features}"):
            out.get(r["arxiv_id"], {}).update({c: r[c] for c in wanted})
    return out


def failure_file_commits(con: duckdb.DuckDBPyConnection) -> dict[str, dict[str, str]]:
    """failure link -> {implementing path: the latest of its implementing commits that left the file there}.

    The mart lists paths and commits separately; a file link needs a commit that has the file.
    """
    if not (table_exists(con, "staging.stg_git__commit_files") and table_exists(con, "staging.stg_git__commits")
            and {"failure_link_id", "implementing_commits"} <= set(columns_of(con, "marts.fct_failure_links"))):
        return {}
    out: dict[str, dict[str, str]] = defaultdict(dict)
    for link, path, sha in con.execute("""
            with implementing as (
                select failure_link_id, framework_id, unnest(string_split(implementing_commits, ';')) as sha
                from marts.fct_failure_links
            )
            select i.failure_link_id, cf.path, max_by(cf.sha, c.committed_at)
            from implementing as i
            inner join staging.stg_git__commit_files as cf
                on i.framework_id = cf.framework_id and i.sha = cf.sha and cf.change_type <> 'deleted'
            inner join staging.stg_git__commits as c on cf.framework_id = c.framework_id and cf.sha = c.sha
            group by all""").fetchall():
        out[link][path] = sha
    return out


def load_methods(con: duckdb.DuckDBPyConnection, frameworks: list[str]) -> list[Method]:
    papers = {r["arxiv_id"]: r for r in _records(con, "select * from marts.dim_papers")}
    methods_mart = _optional(con, "marts.dim_methods", "select * from marts.dim_methods")
    adoptions = _adoptions(con)
    proposals = _optional(con, "marts.fct_method_proposals",
                          "select * from marts.fct_method_proposals order by created_at, thread_id")
    failures = _optional(con, "marts.fct_failure_links",
                         "select * from marts.fct_failure_links order by created_at, thread_id")
    ids = ({a for a, p in papers.items() if p.get("is_general_method")} | {m["arxiv_id"] for m in methods_mart}
           | {a["arxiv_id"] for a in adoptions} | {p["arxiv_id"] for p in proposals}
           | {f["arxiv_id"] for f in failures})
    staged = {}
    if table_exists(con, "staging.stg_arxiv__papers"):
        staged = {r["arxiv_id"]: r for r in _records(con, "select arxiv_id, title, first_version_date "
                                                           "from staging.stg_arxiv__papers")}
    names, signals = _names(con), _signals(con)
    widely = {m["arxiv_id"] for m in methods_mart if m.get("is_widely_included")}
    carried_by_token = {m["arxiv_id"]: set(_split(m.get("framework_ids"))) for m in methods_mart}
    by_id: dict[str, Method] = {}
    for arxiv_id in sorted(ids - {None}):
        paper = papers.get(arxiv_id) or {}
        shown, tokens = [], []
        for name, is_name in names.get(arxiv_id, []):
            if is_name and name not in shown:
                shown.append(name)
            token = method_token(name)
            if token and token not in tokens:
                tokens.append(token)
        title = paper.get("title") or (staged.get(arxiv_id) or {}).get("title") or (shown[0] if shown else arxiv_id)
        kind = paper.get("paper_kind") or (CATALOGUE_KIND if arxiv_id in carried_by_token else "not screened")
        by_id[arxiv_id] = Method(arxiv_id, title, shown, tokens, kind, cohort_label(paper.get("cohort_quarter")),
                                 paper, signals.get(arxiv_id, {}), arxiv_id in widely)
    for a in adoptions:
        by_id[a["arxiv_id"]].cells[a["framework_id"]] = a
    for arxiv_id, fws in carried_by_token.items():
        for fw in fws & set(frameworks):
            by_id[arxiv_id].cells.setdefault(fw, {"carried": True})
    for p in proposals:
        if p["arxiv_id"] in by_id:
            by_id[p["arxiv_id"]].proposals.append(p)
    file_commits = failure_file_commits(con)
    for f in failures:  # failure reports naming no method have no method page
        if f["arxiv_id"] in by_id:
            f["paths"] = str(f.get("implementing_paths") or "").split(";")
            f["commits"] = _split(f.get("implementing_commits"))
            f["file_commit"] = file_commits.get(f.get("failure_link_id"), {})
            by_id[f["arxiv_id"]].failures.append(f)
    for r in _optional(con, "intermediate.int_commits__paper_links", """
            select framework_id, arxiv_id, sha, path, mention_location, committed_at, matched_value, evidence
            from intermediate.int_commits__paper_links order by committed_at, framework_id, sha, path"""):
        if r["arxiv_id"] in by_id:
            by_id[r["arxiv_id"]].links.append(r)
    if table_exists(con, "marts.fct_paper_citations") and "arxiv_id" in columns_of(con, "marts.fct_paper_citations"):
        for r in _records(con, "select * from marts.fct_paper_citations"):
            if r["arxiv_id"] in by_id:
                by_id[r["arxiv_id"]].citations.append(r)
    if table_exists(con, "marts.fct_report_method_mentions") and methods_mart:
        method_paper = {m["method_id"]: m["arxiv_id"] for m in methods_mart}
        stated = "where is_stated" if "is_stated" in columns_of(con, "marts.fct_report_method_mentions") else ""
        for r in _records(con, f"select * from marts.fct_report_method_mentions {stated} "
                               "order by released_at, model_name"):
            arxiv_id = method_paper.get(r.get("method_id"))
            if arxiv_id in by_id:
                by_id[arxiv_id].reports.append(r)
    return list(by_id.values())


def matrix_order(methods: list[Method]) -> list[Method]:
    """Most widely carried first, then earliest carried, then by arXiv id."""
    return sorted(methods, key=lambda m: (-len(m.cells), m.first_since or "9999", m.arxiv_id))


# --- derived per framework ------------------------------------------------------------------

def proposal_roles(con: duckdb.DuckDBPyConnection) -> str:
    """SQL filter keeping proposals when the mart classifies thread roles (threads lane), else none."""
    cols = columns_of(con, "marts.fct_method_proposals")
    role = next((c for c in ("thread_role", "role") if c in cols), None)
    return f"and {role} = 'proposal'" if role else ""


def attach_framework_facts(con: duckdb.DuckDBPyConnection, frameworks: list[Framework],
                           methods: list[Method]) -> None:
    by_fw = {f.framework_id: f for f in frameworks}
    for m in methods:
        for fw, cell in m.cells.items():
            if fw in by_fw and not cell.get("carried"):
                by_fw[fw].adoptions.append({**cell, "method": m})
    for f in frameworks:
        f.adoptions.sort(key=lambda a: (a["adopted_on"], a["arxiv_id"]))
    if table_exists(con, "marts.fct_method_proposals"):
        rows = _records(con, f"""
            select * from marts.fct_method_proposals
            where state = 'open' and not coalesce(maintainer_replied, false) {proposal_roles(con)}
            order by created_at, thread_id""")
        titles = {m.arxiv_id: m for m in methods}
        for r in rows:
            if r["framework_id"] in by_fw:
                r["method"] = titles.get(r["arxiv_id"])
                by_fw[r["framework_id"]].open_unanswered.append(r)


def timeline_svg(chart_id: str, title: str, frameworks: list[Framework], start: date, end: date) -> str:
    """Cumulative adoptions per framework over calendar time (x in days since `start`, labelled as dates)."""
    x_max = max((end - start).days, 1)
    curves, most = [], 0
    for i, f in enumerate(frameworks):
        days = sorted((a["adopted_on"] - start).days for a in f.adoptions)
        points = [(0.0, 0.0)] + [(float(d), float(n + 1)) for n, d in enumerate(days)] + [(float(x_max), float(len(days)))]
        curves.append((f"{f.name} ({len(days)})", points, PALETTE[i % len(PALETTE)]))
        most = max(most, len(days))
    label = lambda x: (start + timedelta(days=x)).strftime("%Y-%m")  # noqa: E731
    return step_chart(chart_id, title, curves, x_max=x_max, x_label="date of the first commit carrying the method",
                      y_label="methods adopted (cumulative)", y_max=float(max(5, -(-most // 5) * 5)),
                      x_fmt=label, y_fmt=lambda y: f"{y:.0f}", height=300)


# --- the search index -----------------------------------------------------------------------

def search_index(methods: list[Method]) -> list[dict]:
    return [{"id": m.arxiv_id, "title": m.title, "names": m.names, "tokens": m.tokens, "url": m.url,
             "kind": m.kind, "frameworks": m.carried_by} for m in methods]


# --- rendering ------------------------------------------------------------------------------

def _environment() -> Environment:
    env = Environment(loader=FileSystemLoader(TEMPLATES), autoescape=select_autoescape(["html"]),
                      trim_blocks=True, lstrip_blocks=True)
    env.globals.update(arxiv_url=arxiv_url, commit_url=commit_url, file_url=file_url, thread_url=thread_url,
                       rule_labels=RULE_LABELS, horizon=HORIZON_DAYS)
    env.filters["short"] = lambda sha: (sha or "")[:10]
    env.filters["yesno"] = lambda v: "unknown" if v is None else ("yes" if v else "no")
    env.filters["num"] = lambda v: "" if v is None else f"{float(v):.1f}".removesuffix(".0")
    return env


def _timeline_window(con: duckdb.DuckDBPyConnection, methods: list[Method]) -> tuple[date, date]:
    """From the quarter of the first adoption (a framework's history may start years earlier) to the
    last mined commit or adoption."""
    first, last = con.execute("select min(cast(first_commit_at as date)), max(cast(last_commit_at as date)) "
                              "from marts.dim_frameworks").fetchone()
    dates = [c["adopted_on"] for m in methods for c in m.cells.values() if c.get("adopted_on")]
    start = min(dates, default=None) or first or date.today()
    end = max([d for d in (last, *dates) if d], default=date.today())
    return date(start.year, (start.month - 1) // 3 * 3 + 1, 1), end


def render_site(con: duckdb.DuckDBPyConnection, out: Path, sample: bool = False) -> Path:
    """Write the whole site to `out` (built beside it, then swapped in: readers never see half a site).
    Pages name the snapshot (build time, observation end), never where it lies on this machine."""
    frameworks = _frameworks(con)
    methods = matrix_order(load_methods(con, [f.framework_id for f in frameworks]))
    attach_framework_facts(con, frameworks, methods)
    start, end = _timeline_window(con, methods)
    headline = _records(con, "select metric, our_value, study_value from marts.rpt_headline order by sort_order")
    env = _environment()
    common = {
        "sample": sample,
        "snapshot": describe(con),
        "generated": datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        "frameworks": frameworks,
        "fw_by_id": {f.framework_id: f for f in frameworks},
        "observation_end": end,
    }
    out = out.resolve()
    if out.exists() and any(out.iterdir()) and not (out / "assets" / "search-index.js").exists():
        raise FileExistsError(f"{out} is a folder that holds something other than a site; choose another --out")
    build = out.with_name(f".{out.name}.{os.getpid()}.building")  # one per process: a CLI run beside a refresh
    shutil.rmtree(build, ignore_errors=True)
    (build / "methods").mkdir(parents=True)
    (build / "frameworks").mkdir()
    (build / "assets").mkdir()

    def write(rel: str, template: str, **context: Any) -> None:
        root = "../" * rel.count("/")
        (build / rel).write_text(env.get_template(template).render(root=root, **common, **context), encoding="utf-8")

    kinds = sorted({m.kind for m in methods})
    cohorts = sorted({m.cohort for m in methods if m.cohort})
    has_grades = any(c.get("evidence_grade") for m in methods for c in m.cells.values())
    write("index.html", "index.html", methods=methods, headline=headline, kinds=kinds, cohorts=cohorts,
          has_grades=has_grades, timeline=timeline_svg("timeline-all", "Methods adopted over time, per framework",
                                                       frameworks, start, end),
          counts={"methods": len(methods), "carried": sum(1 for m in methods if m.cells),
                  "adoptions": sum(len(f.adoptions) for f in frameworks)})
    write("search.html", "search.html", methods=sorted(methods, key=lambda m: m.label.lower()))
    for m in methods:
        write(m.url, "method.html", m=m)
    for f in frameworks:
        timeline = timeline_svg(f"timeline-{slug(f.framework_id)}", f"{f.name}: methods adopted over time "
                                f"({len(f.adoptions)} by {end.isoformat()})", [f], start, end)
        write(f.url, "framework.html", f=f, timeline=timeline)
    index = search_index(methods)
    (build / "assets" / "search-index.json").write_text(json.dumps(index, ensure_ascii=False), encoding="utf-8")
    # the same index as a script: browsers refuse fetch() of file:// URLs, so pages load it this way
    (build / "assets" / "search-index.js").write_text(
        "window.RLTRACK_INDEX = " + json.dumps(index, ensure_ascii=False) + ";\n", encoding="utf-8")
    for name in STATIC:
        shutil.copyfile(TEMPLATES / name, build / "assets" / name)
    old = out.with_name(f".{out.name}.{os.getpid()}.old")
    shutil.rmtree(old, ignore_errors=True)
    if out.exists():
        out.rename(old)
    build.rename(out)
    shutil.rmtree(old, ignore_errors=True)
    return out / "index.html"
