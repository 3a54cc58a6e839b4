"""`rltrack lookup`: check before you propose.

Given an arXiv id (any version, or an arxiv.org URL) or a method name ("GSPO", "Dr. GRPO",
"dr_grpo"), say whether the method is already in a tracked framework (which, since when, the
commit that brought it), whether it has been proposed (threads, replies, outcome), and what each
framework asks of a contribution. Reads the published snapshot only; optional tables (dim_methods,
contribution_rules) are used when present.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from dataclasses import asdict, dataclass, field
from typing import Any

import duckdb

from ingestion.text import method_token
from orchestration.analyst.sql import format_table

ARXIV_URL = re.compile(r"arxiv\.org/(?:abs|pdf|html)/(\d{4}\.\d{4,5})", re.I)
RULE_FLAGS = ("issue_first", "tests_required", "paper_link_required", "cla_required")


# --- parsing the query ----------------------------------------------------------------------

def parse_arxiv_id(text: str) -> str | None:
    """'2503.14476v2', 'arXiv:2503.14476', 'https://arxiv.org/pdf/2503.14476v1.pdf' -> '2503.14476'."""
    text = text.strip()
    url = ARXIV_URL.search(text)
    if url:
        return url.group(1)
    bare = re.fullmatch(r"(?:arxiv:\s*)?(\d{4}\.\d{4,5})(?:v\d+)?", text, re.I)
    return bare.group(1) if bare else None


# --- reading the warehouse ------------------------------------------------------------------

def table_exists(con: duckdb.DuckDBPyConnection, qualified: str) -> bool:
    schema, _, name = qualified.partition(".")
    return con.execute(
        "select count(*) from information_schema.tables where table_schema = ? and table_name = ?",
        [schema, name],
    ).fetchone()[0] > 0


def columns_of(con: duckdb.DuckDBPyConnection, qualified: str) -> list[str]:
    schema, _, name = qualified.partition(".")
    return [r[0] for r in con.execute(
        "select column_name from information_schema.columns where table_schema = ? and table_name = ? "
        "order by ordinal_position", [schema, name]).fetchall()]


def _records(con: duckdb.DuckDBPyConnection, sql: str, params: list | None = None) -> list[dict[str, Any]]:
    cur = con.execute(sql, params or [])
    names = [d[0] for d in cur.description]
    return [dict(zip(names, row)) for row in cur.fetchall()]


SQL_TOKEN = (
    "trim(regexp_replace(regexp_replace(replace(lower({e}), '++', '_plus_plus'), '[^a-z0-9]+', '_', 'g'),"
    " '_+', '_', 'g'), '_')"
)


def resolve_name(con: duckdb.DuckDBPyConnection, name: str) -> list[str]:
    """arXiv ids whose method goes by `name` (aliases mart/intermediate, catalogue seed)."""
    token = method_token(name)
    if not token:
        return []
    sources = []
    if table_exists(con, "marts.dim_methods"):
        cols = columns_of(con, "marts.dim_methods")
        for col in ("method_name", "method_id", "alias", "alias_token", "name"):
            if col in cols and "arxiv_id" in cols:
                sources.append(f"select arxiv_id from marts.dim_methods where {SQL_TOKEN.format(e=col)} = $t")
    if table_exists(con, "intermediate.int_methods__aliases"):
        sources.append("select arxiv_id from intermediate.int_methods__aliases "
                       f"where alias_token = $t or {SQL_TOKEN.format(e='alias')} = $t")
    if table_exists(con, "seeds.method_catalogue"):
        sources.append("select arxiv_id from seeds.method_catalogue where method_id = $t "
                       f"or {SQL_TOKEN.format(e='method_name')} = $t or {SQL_TOKEN.format(e='alias')} = $t")
    if not sources:
        return []
    rows = con.execute(f"select distinct arxiv_id from ({' union all '.join(sources)}) order by 1",
                       {"t": token}).fetchall()
    return [r[0] for r in rows]


def similar_titles(con: duckdb.DuckDBPyConnection, name: str, limit: int = 5) -> list[tuple[str, str]]:
    """Papers whose title contains the query, for a 'did you mean' hint."""
    if len(name.strip()) < 3:
        return []
    return con.execute(
        "select arxiv_id, title from marts.dim_papers where title ilike '%' || ? || '%' order by arxiv_id limit ?",
        [name.strip(), limit]).fetchall()


@dataclass
class ContributionRules:
    framework_id: str
    issue_first: bool | None = None
    tests_required: bool | None = None
    paper_link_required: bool | None = None
    cla_required: bool | None = None
    pr_title_required: bool | None = None
    pr_title_format: str | None = None  # the pattern, when one is stated
    source: str = ""
    files: list[str] = field(default_factory=list)
    evidence: dict[str, list[dict[str, str]]] = field(default_factory=dict)  # rule -> [{path, text}]


# Fallback when raw_git.contribution_rules is absent: a few phrasings from CONTRIBUTING files
# and PR templates. Deliberately conservative; the rules table is the real extractor.
_FALLBACK_PATTERNS = {
    "issue_first": r"open an issue (?:first|to discuss)|issue first|open(?:ed)? an issue .{0,40}before",
    "tests_required": r"must include tests|need(?:s)? a (?:unit )?test|tests? (?:are|is) (?:required|added)",
    "paper_link_required": r"link (?:to )?the paper|link the paper|paper link",
    "cla_required": r"contributor license agreement|\bcla\b",
}


def _rules_from_files(framework_id: str, files: list[dict[str, Any]]) -> ContributionRules:
    text = "\n".join(f["content"] or "" for f in files if f["kind"] in ("contributing", "pr_template"))
    rules = ContributionRules(framework_id, source="CONTRIBUTING/PR template text (keyword fallback)",
                              files=[f["path"] for f in files])
    for flag, pattern in _FALLBACK_PATTERNS.items():
        setattr(rules, flag, bool(re.search(pattern, text, re.I)))
    title = re.search(r"title[^\n`]*`([^`]+)`", text, re.I)
    rules.pr_title_format = title.group(1) if title else None
    rules.pr_title_required = title is not None
    return rules


def _evidence(value: Any) -> dict[str, list[dict[str, str]]]:
    if isinstance(value, str):
        try:
            value = json.loads(value)
        except ValueError:
            return {}
    return value if isinstance(value, dict) else {}


def contribution_rules(con: duckdb.DuckDBPyConnection, frameworks: list[str]) -> list[ContributionRules]:
    files_by_fw: dict[str, list[dict[str, Any]]] = {fw: [] for fw in frameworks}
    if table_exists(con, "raw_git.repo_files_at_head"):
        deleted = "and not coalesce(deleted, false)" if "deleted" in columns_of(con, "raw_git.repo_files_at_head") else ""
        for f in _records(con, "select framework_id, path, kind, content from raw_git.repo_files_at_head "
                               f"where kind <> 'docs' {deleted} order by framework_id, path"):
            files_by_fw.setdefault(f["framework_id"], []).append(f)
    table: dict[str, dict[str, Any]] = {}
    if table_exists(con, "raw_git.contribution_rules"):
        cols = columns_of(con, "raw_git.contribution_rules")
        where = "where not coalesce(deleted, false)" if "deleted" in cols else ""
        for r in _records(con, f"select * from raw_git.contribution_rules {where}"):
            table[r["framework_id"]] = r
    out = []
    for fw in frameworks:
        files = files_by_fw.get(fw, [])
        if fw in table:
            r = table[fw]
            rules = ContributionRules(fw, source="raw_git.contribution_rules", files=[f["path"] for f in files])
            for flag in RULE_FLAGS:
                setattr(rules, flag, r.get(flag))
            # GIT's table: pr_title_format is a flag and pr_title_pattern the stated pattern
            title = r.get("pr_title_format")
            pattern = r.get("pr_title_pattern")
            if isinstance(title, str):
                title, pattern = bool(title), pattern or title
            rules.pr_title_required = title if title is not None else (bool(pattern) if pattern else None)
            rules.pr_title_format = pattern or None
            rules.evidence = _evidence(r.get("evidence"))
        elif files:
            rules = _rules_from_files(fw, files)
        else:
            rules = ContributionRules(fw, source="no contribution files mined")
        out.append(rules)
    return out


# --- the lookup -----------------------------------------------------------------------------

@dataclass
class MethodLookup:
    arxiv_id: str
    title: str | None
    first_version_date: str | None
    paper_kind: str | None
    aliases: list[str]
    adoptions: list[dict[str, Any]]
    proposals: list[dict[str, Any]]
    in_study: bool  # screened, within the window (in marts.dim_papers)
    reports_stating: int | None = None  # technical reports that say they trained with it (dim_methods)
    citations: list[dict[str, Any]] = field(default_factory=list)  # frameworks that only cite it
    # threads naming it, whatever their role (the study's first thread figure; proposals are a subset)
    threads_by_role: dict[str, int] = field(default_factory=dict)


@dataclass
class LookupResult:
    query: str
    methods: list[MethodLookup]
    frameworks: list[str]
    rules: list[ContributionRules]
    suggestions: list[tuple[str, str]] = field(default_factory=list)

    @property
    def found(self) -> bool:
        return bool(self.methods)

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


def _method(con: duckdb.DuckDBPyConnection, arxiv_id: str) -> MethodLookup | None:
    paper = _records(con, "select title, cast(first_version_date as varchar) as first_version_date, paper_kind "
                          "from marts.dim_papers where arxiv_id = ?", [arxiv_id])
    in_study = bool(paper)
    if not paper and table_exists(con, "staging.stg_arxiv__papers"):
        paper = _records(con, "select title, cast(first_version_date as varchar) as first_version_date, "
                              "null as paper_kind from staging.stg_arxiv__papers where arxiv_id = ?", [arxiv_id])
    aliases: list[str] = []
    if table_exists(con, "intermediate.int_methods__aliases"):
        usable = ("and alias_status <> 'rejected'"
                  if "alias_status" in columns_of(con, "intermediate.int_methods__aliases") else "")
        aliases = [r[0] for r in con.execute(
            f"select distinct alias from intermediate.int_methods__aliases where arxiv_id = ? {usable} order by 1",
            [arxiv_id]).fetchall()]
    graded = {"evidence_grade", "evidence_reason"} <= set(columns_of(con, "marts.fct_method_adoptions"))
    grade_cols = "evidence_grade, evidence_reason" if graded else "null as evidence_grade, null as evidence_reason"
    adoptions = _records(con, f"""
        select framework_id, cast(adopted_on as varchar) as adopted_on, days_from_paper, first_evidence,
               evidence_kinds, evidence_commits, first_commit_sha, first_commit_path, {grade_cols}
        from marts.fct_method_adoptions where arxiv_id = ? order by adopted_on, framework_id""", [arxiv_id])
    citations = _citations_only(con, arxiv_id)
    proposal_columns = set(columns_of(con, "marts.fct_method_proposals"))
    study_outcome = "study_outcome" if "study_outcome" in proposal_columns else "outcome as study_outcome"
    # a proposal of another method that mentions this one in passing is not a proposal of this one
    main_only = "and is_main_method" if "is_main_method" in proposal_columns else ""
    proposals = _records(con, f"""
        select thread_id, framework_id, number, thread_kind, title, state, state_reason,
               cast(created_at as date)::varchar as opened_on, replies, maintainer_replied,
               days_to_first_maintainer_reply, outcome, {study_outcome}, adopted_by_framework
        from marts.fct_method_proposals where arxiv_id = ? {main_only}
        order by created_at, thread_id""", [arxiv_id])
    threads_by_role = _threads_by_role(con, arxiv_id)
    if not paper and not adoptions and not proposals and not citations and not threads_by_role:
        return None
    p = paper[0] if paper else {}
    reports = None
    if table_exists(con, "marts.dim_methods") and {"arxiv_id", "reports_stating"} <= set(columns_of(con, "marts.dim_methods")):
        reports = con.execute("select max(reports_stating) from marts.dim_methods where arxiv_id = ?",
                              [arxiv_id]).fetchone()[0]
    return MethodLookup(arxiv_id, p.get("title"), p.get("first_version_date"), p.get("paper_kind"),
                        aliases, adoptions, proposals, in_study, reports, citations, threads_by_role)


def _threads_by_role(con: duckdb.DuckDBPyConnection, arxiv_id: str) -> dict[str, int]:
    """Issue/PR threads naming the paper, counted by role (proposal, bug_report, failure_report...)."""
    if not table_exists(con, "marts.fct_thread_method_mentions"):
        return {}
    return dict(con.execute("""
        select coalesce(thread_role, 'unclassified'), count(distinct thread_id) from marts.fct_thread_method_mentions
        where arxiv_id = ? group by 1 order by 2 desc, 1""", [arxiv_id]).fetchall())


def _counted(counts: dict[str, int]) -> str:
    return ", ".join(f"{name.replace('_', ' ')} {n}" for name, n in counts.items())


def _citations_only(con: duckdb.DuckDBPyConnection, arxiv_id: str) -> list[dict[str, Any]]:
    """Frameworks that mention the paper without implementing it: the first citation per framework."""
    if not table_exists(con, "marts.fct_paper_citations"):
        return []
    return _records(con, """
        select framework_id, cast(min(cited_on) as varchar) as first_cited_on, count(distinct sha) as commits,
               arg_min(evidence_reason, committed_at) as evidence_reason, arg_min(sha, committed_at) as sha
        from marts.fct_paper_citations c
        where arxiv_id = ? and evidence_grade = 'citation' and not exists (
            select 1 from marts.fct_method_adoptions a where a.arxiv_id = c.arxiv_id and a.framework_id = c.framework_id)
        group by framework_id order by first_cited_on, framework_id""", [arxiv_id])


def tracked_frameworks(con: duckdb.DuckDBPyConnection) -> list[str]:
    """Frameworks whose history is in the warehouse (the registry lists more than a sample mines)."""
    mined = "where commits_mined > 0" if "commits_mined" in columns_of(con, "marts.dim_frameworks") else ""
    return [r[0] for r in con.execute(f"select framework_id from marts.dim_frameworks {mined} order by 1").fetchall()]


def lookup(con: duckdb.DuckDBPyConnection, query: str) -> LookupResult:
    arxiv_id = parse_arxiv_id(query)
    ids = [arxiv_id] if arxiv_id else resolve_name(con, query)
    methods = [m for m in (_method(con, i) for i in ids) if m is not None]
    frameworks = tracked_frameworks(con)
    suggestions = [] if methods or arxiv_id else similar_titles(con, query)
    return LookupResult(query, methods, frameworks, contribution_rules(con, frameworks), suggestions)


# --- rendering ------------------------------------------------------------------------------

def _yes_no(value: bool | None) -> str:
    return "?" if value is None else ("yes" if value else "no")


def _title_rule(r: ContributionRules) -> str:
    if r.pr_title_format:
        return r.pr_title_format
    return "required" if r.pr_title_required else ("-" if r.pr_title_required is False else "?")


def _verdict(m: MethodLookup, frameworks: list[str]) -> str:
    adopted = [a["framework_id"] for a in m.adoptions]
    if adopted:
        missing = [f for f in frameworks if f not in adopted]
        first = m.adoptions[0]
        text = f"ALREADY IN {', '.join(adopted)} (first: {first['framework_id']} since {first['adopted_on']})."
        return text + (f" Not yet in: {', '.join(missing)}." if missing else " In every tracked framework.")
    if m.proposals:
        open_ = [p["thread_id"] for p in m.proposals if p["state"] == "open"]
        text = f"NOT IN ANY TRACKED FRAMEWORK, but proposed {len(m.proposals)} time(s)."
        return text + (f" Still open: {', '.join(open_)}; join that thread rather than opening a new one."
                       if open_ else " All those threads are closed; read why before proposing again.")
    return "NOT IN ANY TRACKED FRAMEWORK and never proposed there."


def render(result: LookupResult) -> str:
    out: list[str] = []
    if not result.methods:
        out.append(f"'{result.query}': not found in the warehouse (no paper, alias, adoption or proposal).")
        out.append("Nothing suggests it is in a tracked framework or has been proposed; check the spelling "
                   "or search by arXiv id.")
        if result.suggestions:
            out.append("Papers with a similar title:")
            out += [f"  {a}  {t}" for a, t in result.suggestions]
        out.append("")
    for m in result.methods:
        name = ", ".join(m.aliases) or "(no alias recognised)"
        out.append(f"{m.arxiv_id}  {m.title or '(title unknown)'}")
        out.append(f"  names: {name}; first version {m.first_version_date or '?'}; "
                   f"screened as {m.paper_kind or 'not in the study window'}")
        if m.reports_stating:
            out.append(f"  stated as used in {m.reports_stating} technical report(s) of released models")
        out.append(f"  => {_verdict(m, result.frameworks)}")
        out.append("")
        if m.adoptions:
            out.append("In frameworks (first default-branch commit implementing it or documenting it as supported):")
            out.append(format_table(
                ["framework", "since", "days after paper", "grade", "evidence", "commits", "commit", "path"],
                [(a["framework_id"], a["adopted_on"], a["days_from_paper"], a.get("evidence_grade") or "-",
                  a["evidence_kinds"], a["evidence_commits"], (a["first_commit_sha"] or "")[:12],
                  a["first_commit_path"] or "(commit message)") for a in m.adoptions]))
            out += [f"  {a['framework_id']}: {a['evidence_reason']}" for a in m.adoptions if a.get("evidence_reason")]
        else:
            out.append("In frameworks: none")
        if m.citations:
            out.append("Cited but not implemented (a citation alone is no adoption):")
            out += [f"  {c['framework_id']} since {c['first_cited_on']} ({c['commits']} commit(s)): {c['evidence_reason']}"
                    for c in m.citations]
        out.append("")
        if m.threads_by_role:
            out.append(f"Threads naming it: {sum(m.threads_by_role.values())} ({_counted(m.threads_by_role)})")
        else:
            out.append("Threads naming it: none found")
        if m.proposals:
            outcomes = dict(Counter(p["study_outcome"] for p in m.proposals).most_common())
            out.append(f"Proposals of it (threads whose role is proposal), by outcome: {_counted(outcomes)}")
            out.append(format_table(
                ["thread", "kind", "opened", "state", "replies", "maintainer replied", "days to reply",
                 "outcome", "in that framework", "title"],
                [(p["thread_id"], p["thread_kind"].replace("pull_request", "PR"), p["opened_on"], p["state"],
                  p["replies"], _yes_no(p["maintainer_replied"]), p["days_to_first_maintainer_reply"],
                  p["outcome"], _yes_no(p["adopted_by_framework"]), p["title"]) for p in m.proposals]))
        else:
            out.append("Proposals: none found")
        out.append("")
    out.append("Contribution rules per framework:")
    out.append(format_table(
        ["framework", "issue first", "tests required", "paper link", "CLA", "PR title format", "from"],
        [(r.framework_id, _yes_no(r.issue_first), _yes_no(r.tests_required), _yes_no(r.paper_link_required),
          _yes_no(r.cla_required), _title_rule(r), r.source) for r in result.rules]))
    quotes = [(r.framework_id, rule, e) for r in result.rules for rule, items in r.evidence.items()
              for e in items[:1] if isinstance(e, dict)]
    if quotes:
        out.append("")
        out.append("Where the rules say so:")
        for fw, rule, e in quotes:
            text = " ".join(str(e.get("text", "")).split())
            out.append(f"  {fw} {rule}: \"{text[:140]}{'…' if len(text) > 140 else ''}\" ({e.get('path', '?')})")
    return "\n".join(out).rstrip() + "\n"
