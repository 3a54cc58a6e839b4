"""Fidelity of commit linking on the real framework histories, against the hand-made truth.

Mines the bare mirrors of the tracked frameworks with the product miner (each mined once per HEAD
and miner version, cached as Parquet under `data/fidelity/`), loads the real papers (ids, titles,
dates from the truth's papers.csv plus the in-window ids of the adoption files; abstracts where
the shared cache has them), screens them with the product screener, builds the dbt linking models
into `data/fidelity/warehouse.duckdb` and prints per framework of the truth: pair precision and
recall on in-window pairs, the share of found pairs dated within 7 days of the truth, and the
false and missed pairs with their evidence.

Every framework with a mirror is mined (a name that predates a paper in *any* tracked framework
is not evidence of it); the truth covers all nine frameworks of the default registry.

With `--lofo` it measures generalisation: leave one framework out. Every setting of the linking
parameters in LOFO_GRID (dbt vars) is built once; for each framework, the setting with the best
pooled F1 on the other eight is chosen and that framework is scored with it. The first table
(the project's settings, rules written while reading all nine) is a fit figure; the LOFO table is
the result.

With `--list-claims` it also lists the in-window pairs it claims in the frameworks the truth
does not cover (held out), with their first evidence, for adjudication by hand; `--sample N`
lists a random sample of N of them instead (`--seed` fixes it); `--adjudication` measures their
precision against hand verdicts and lists the claims without one.

With `--pool INDEX` the world also holds the real papers of a local arXiv listing index (jsonl with
arxiv_id, title, abstract) that are in the study window and match the pool query
(`ingestion/arxiv/pool.py`), as a live harvest would load them: their acronyms and defined names
collide with the truth's methods and with names in the frameworks, as they do in the product. Their
first-version dates are estimated from the id's place in its month; their screening is cached.

Usage:
  python bench/fidelity.py [--truth /work/shared/truth] [--mirrors /work/.mirror]
                           [--papers-cache /work/main/data/real_world/papers] [--quiet] [--lofo]
                           [--pool /work/main/data/real_world/daily_index.jsonl]
                           [--list-claims [--sample 40 --seed 14] [--adjudication verdicts.csv]]
                           [--outside-truth truth.csv]
"""

from __future__ import annotations

import argparse
import csv
import hashlib
import json
import os
import random
import re
import subprocess
import sys
import time
from collections import defaultdict
from datetime import date, datetime, timedelta, timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import duckdb  # noqa: E402
import pandas as pd  # noqa: E402

from ingestion import config  # noqa: E402
from ingestion.arxiv.front_matter import COLUMNS as FRONT_MATTER_COLUMNS  # noqa: E402
from ingestion.arxiv.front_matter import TABLE as FRONT_MATTER_TABLE  # noqa: E402
from ingestion.git.rows import commit_row, mention_rows, miner_version  # noqa: E402
from ingestion.git.mining import mine_commits, resolve_ref  # noqa: E402
from ingestion.pipelines import duckdb_columns  # noqa: E402
from ingestion.screening.screener import screen  # noqa: E402
from orchestration.dbt_project import DBT_PROJECT_DIR, dbt_executable  # noqa: E402

WINDOW = ("2501", "2606")  # the study window of the truth: ids 2501.xxxxx-2606.xxxxx
ON_TIME_DAYS = 7
# the product screener: the rules, then the committed learned model (as a live refresh screens)
SCREENER_FILES = ("ingestion/screening/rules.py", "ingestion/screening/learned.py", "ingestion/screening/features.py",
                  "ingestion/screening/screener.py", "ingestion/screening/model/screener.json")
MODELS = "+fct_method_adoptions +fct_paper_citations"


def mirror_of(fw: config.Framework, mirrors: Path) -> Path | None:
    """The mirror `<owner>+<name>/repo` of the framework (current or former name; a moved owner
    is matched by the repository name)."""
    names = [r.replace("/", "+").lower() for r in (fw.repo, *fw.former_repos)]
    tails = [r.rpartition("/")[2].lower() for r in (fw.repo, *fw.former_repos)]
    paths = sorted(mirrors.glob("*+*/repo"))
    exact = [p for p in paths if p.parent.name.lower() in names]
    if exact:  # an exact owner+name wins over another owner's repository of the same name (pytorch/rl)
        return exact[0]
    moved = [p for p in paths if p.parent.name.lower().partition("+")[2] in tails]
    return moved[0] if len(moved) == 1 else None  # a moved owner only when the name is unambiguous


def mined(fw: config.Framework, repo: Path, cache: Path) -> tuple[Path, Path]:
    """Parquet files of the framework's commits and mentions, mined once per HEAD and miner."""
    head = resolve_ref(repo, fw.default_branch) or resolve_ref(repo, "HEAD")
    stem = cache / f"{fw.framework_id}-{head[:12]}-{miner_version()}"
    commits, mentions = stem.with_suffix(".commits.parquet"), stem.with_suffix(".mentions.parquet")
    if commits.exists() and mentions.exists():
        return commits, mentions
    cache.mkdir(parents=True, exist_ok=True)
    started = time.perf_counter()
    c_rows, m_rows = [], []
    for c in mine_commits(repo, head):
        c_rows.append(commit_row(fw, fw.default_branch, c))
        m_rows.extend(mention_rows(fw, c))
    for rows, target in ((c_rows, commits), (m_rows, mentions)):
        frame = pd.DataFrame(rows)
        duckdb.sql("select * from frame").write_parquet(str(target))
    print(f"  mined {fw.framework_id}: {len(c_rows)} commits, {len(m_rows)} mention rows "
          f"({len(m_rows) / max(1, len(c_rows)):.0f}/commit) in {time.perf_counter() - started:.1f}s",
          file=sys.stderr)
    return commits, mentions


def _read_csv(path: Path) -> list[dict]:
    with path.open(newline="") as fh:
        return list(csv.DictReader(fh))


def in_window(arxiv_id: str) -> bool:
    return WINDOW[0] <= arxiv_id[:4] <= WINDOW[1] and "." in arxiv_id


def paper_rows(truth: Path, papers_cache: Path) -> list[dict]:
    """Real papers: truth ids, titles and dates; abstracts from the shared cache where present."""
    papers: dict[str, dict] = {}
    for r in _read_csv(truth / "papers.csv"):
        papers[r["arxiv_id"]] = {"title": r["title"], "date": r["first_version_date"] or None}
    for name in ("adoptions_dev.csv", "non_adoptions_dev.csv"):
        for r in _read_csv(truth / name):
            if in_window(r["arxiv_id"]):
                papers.setdefault(r["arxiv_id"], {"title": r.get("method_name") or "", "date": None})
    rows = []
    for arxiv_id, p in sorted(papers.items()):
        cached = papers_cache / f"{arxiv_id}.json"
        extra = json.loads(cached.read_text()) if cached.exists() else {}
        title = extra.get("title") or p["title"]
        day = p["date"] or _cached_date(extra) or f"20{arxiv_id[:2]}-{arxiv_id[2:4]}-01"
        stamp = datetime.fromisoformat(day).replace(hour=12, tzinfo=timezone.utc)
        rows.append({
            "arxiv_id": arxiv_id, "latest_version": 1, "title": title,
            "abstract": extra.get("abstract") or "", "authors": "[]",
            "primary_category": extra.get("primary_category") or "cs.LG", "categories": "[]",
            "published_at": stamp, "updated_at": stamp, "comment": None, "journal_ref": None,
            "doi": None, "code_urls": "[]",
        })
    return rows


def pool_rows(index: Path, known: set[str], cache: Path) -> list[dict]:
    """In-window papers of a local listing index (jsonl) that match the study's pool query, less
    `known` ids (which of the index's papers match is cached per index and query). A paper's date is
    estimated from its id: the sequence number's share of the largest number of its month, spread
    over the month (ids are issued in order)."""
    from ingestion.arxiv import pool as pool_query

    stat = index.stat()
    key = hashlib.sha256(f"{index.resolve()}:{stat.st_size}:{stat.st_mtime_ns}".encode()
                         + Path(pool_query.__file__).read_bytes()).hexdigest()[:12]
    selected = cache / f"in-pool-{key}.json"
    ids = set(json.loads(selected.read_text())) if selected.exists() else None
    listed = {}
    with index.open(encoding="utf-8") as fh:
        for line in fh:
            r = json.loads(line)
            aid = r["arxiv_id"] = re.sub(r"v\d+$", "", r.get("arxiv_id") or "")
            if not in_window(aid) or aid in listed:
                continue
            if aid in ids if ids is not None else pool_query.in_pool(r.get("title") or "", r.get("abstract") or ""):
                listed[aid] = r
    if ids is None:
        cache.mkdir(parents=True, exist_ok=True)
        selected.write_text(json.dumps(sorted(listed)))
    listed = [r for aid, r in listed.items() if aid not in known]
    last = defaultdict(int)
    for r in listed:
        month, _, number = r["arxiv_id"].partition(".")
        last[month] = max(last[month], int(number))
    rows = []
    for r in sorted(listed, key=lambda r: r["arxiv_id"]):
        month, _, number = r["arxiv_id"].partition(".")
        first = date(2000 + int(month[:2]), int(month[2:]), 1)
        days = (date(first.year + first.month // 12, first.month % 12 + 1, 1) - first).days
        day = first + timedelta(days=min(days - 1, days * int(number) // max(1, last[month])))
        stamp = datetime(day.year, day.month, day.day, 12, tzinfo=timezone.utc)
        categories = r.get("categories") or []
        rows.append({
            "arxiv_id": r["arxiv_id"], "latest_version": 1, "title": " ".join((r.get("title") or "").split()),
            "abstract": " ".join((r.get("abstract") or "").split()), "authors": "[]",
            "primary_category": categories[0] if categories else "cs.LG", "categories": json.dumps(categories),
            "published_at": stamp, "updated_at": stamp,
            "comment": r.get("comment"), "journal_ref": None, "doi": None, "code_urls": "[]",
        })
    return rows


def screened(papers: list[dict], frameworks: list, cache: Path) -> list[dict]:
    """The product screener's rows for the papers, cached per screener and registry (a pool of
    twenty thousand papers takes minutes to screen)."""
    digest = hashlib.sha256()
    for rel in SCREENER_FILES:
        digest.update((ROOT / rel).read_bytes())
    digest.update(json.dumps([(f.framework_id, f.maintainer_orgs, f.maintainer_domains) for f in frameworks]).encode())
    for p in papers:
        digest.update(f"{p['arxiv_id']}\x00{p['title']}\x00{p['abstract']}\x00{p['comment']}".encode())
    target = cache / f"screened-{len(papers)}-{digest.hexdigest()[:12]}.parquet"
    if target.exists():
        return duckdb.read_parquet(str(target)).df().to_dict("records")
    rows = [screen(p, frameworks) for p in papers]
    cache.mkdir(parents=True, exist_ok=True)
    frame = pd.DataFrame(rows)
    duckdb.sql("select * from frame").write_parquet(str(target))
    return rows


def _cached_date(extra: dict) -> str | None:
    value = str(extra.get("first_version_date") or "")
    return value[:10] if value[:4].isdigit() else None


def build_warehouse(warehouse: Path, git_files: list[tuple[Path, Path]], papers: list[dict],
                    pool: list[dict] = ()) -> None:
    warehouse.unlink(missing_ok=True)
    con = duckdb.connect(str(warehouse))
    con.execute("set TimeZone = 'UTC'")
    for schema in ("raw_git", "raw_arxiv"):
        con.execute(f"create schema {schema}")
    load = "'1700000000.0' as _dlt_load_id, cast(uuid() as varchar) as _dlt_id"
    for table, index in (("commits", 0), ("commit_mentions", 1)):
        files = ", ".join(f"'{f[index]}'" for f in git_files)
        con.execute(f"create table raw_git.{table} as select *, {load} from read_parquet([{files}], union_by_name=true)")
    frameworks = config.frameworks()
    features = [screen(p, frameworks) for p in papers]
    if pool:
        features += screened(pool, frameworks, warehouse.parent / "pool")
        papers = [*papers, *pool]
    for table, rows in (("papers", papers), ("paper_features", features)):
        frame = pd.DataFrame(rows)
        con.execute(f"create table raw_arxiv.{table} as select *, {load} from frame")
    # no arXiv HTML front matter read: its table, empty (the models read it beside paper_features)
    con.execute(f"create table raw_arxiv.{FRONT_MATTER_TABLE} ({', '.join(duckdb_columns(FRONT_MATTER_COLUMNS))}, "
                "_dlt_load_id varchar, _dlt_id varchar)")
    con.close()


def run_dbt(warehouse: Path, work: Path, dbt_vars: dict | None = None) -> None:
    started = time.perf_counter()
    args = [dbt_executable(), "build", "--select", *MODELS.split(), "--exclude", "resource_type:test",
            "resource_type:unit_test",
            "--project-dir", str(DBT_PROJECT_DIR), "--profiles-dir", str(DBT_PROJECT_DIR),
            "--target-path", str(work / "target"), "--log-path", str(work / "logs"),
            *(["--vars", json.dumps(dbt_vars)] if dbt_vars else [])]
    env = {**os.environ, "RLTRACK_WAREHOUSE": str(warehouse), "RLTRACK_FRAMEWORKS_CSV": str(config.frameworks_csv())}
    proc = subprocess.run(args, env=env, capture_output=True, text=True)
    if proc.returncode != 0:
        sys.exit(f"dbt failed:\n{proc.stdout[-4000:]}")
    print(f"  dbt build {MODELS}{' ' + json.dumps(dbt_vars) if dbt_vars else ''}: "
          f"{time.perf_counter() - started:.1f}s", file=sys.stderr)


# --- leave one framework out -----------------------------------------------------------------
# The linking parameters (dbt vars) a fold may tune, each over a few values around the default.
LOFO_GRID = {
    "ordinary_word_zipf": (2.5, 3.0, 3.5),
    "ordinary_token_commit_share": (0.002, 0.004),
    "alias_predates_grace_days": (14, 30, 60),
}


def _pooled(rows: list[dict]) -> dict:
    tot = {k: sum(r.get(k, 0) for r in rows) for k in ("found", "true", "tp", "on_time_n", "judged_true")}
    p, r = (tot["tp"] + tot["judged_true"]) / max(1, tot["found"]), tot["tp"] / max(1, tot["true"])
    return {**tot, "precision": p, "recall": r, "on_time": tot["on_time_n"] / max(1, tot["tp"]),
            "f1": 2 * p * r / max(1e-9, p + r)}


def leave_one_framework_out(warehouse: Path, truth: Path, work: Path, verdicts: dict | None = None) -> list[dict]:
    """Each linking setting of LOFO_GRID built once; per held-out framework, the setting with the best
    pooled F1 on the other frameworks (ties: the setting nearest the default), scored on the held-out
    one. Returns one row per fold with the setting chosen."""
    import itertools

    names = list(LOFO_GRID)
    default = tuple(_project_vars()[n] for n in names)
    settings = list(itertools.product(*LOFO_GRID.values()))
    scored = {}
    for setting in settings:
        run_dbt(warehouse, work, dict(zip(names, setting)))
        scored[setting] = {r["framework"]: r for r in measure(warehouse, truth, verbose=False, verdicts=verdicts)}
    folds = []
    for held_out in sorted(next(iter(scored.values()))):
        def train_score(setting):
            rows = [r for fw, r in scored[setting].items() if fw != held_out]
            distance = sum(a != b for a, b in zip(setting, default))
            return (round(_pooled(rows)["f1"], 6), -distance)
        best = max(settings, key=train_score)
        folds.append({**scored[best][held_out], "setting": dict(zip(names, best)),
                      "train_f1": train_score(best)[0]})
    return folds


def _project_vars() -> dict:
    import yaml

    return yaml.safe_load((DBT_PROJECT_DIR / "dbt_project.yml").read_text())["vars"]


def print_table(rows: list[dict], title: str, extra: str | None = None) -> None:
    print(f"\n{title}")
    print(f"{'framework':<10} {'found':>5} {'true':>5} {'tp':>4} {'+judged':>7} {'precision':>9} {'recall':>7} "
          f"{'dates<=7d':>9}" + (f"  {extra}" if extra else ""))
    for r in rows:
        print(f"{r['framework']:<10} {r['found']:>5} {r['true']:>5} {r['tp']:>4} {r.get('judged_true', 0):>7} "
              f"{r['precision']:>9.2f} {r['recall']:>7.2f} {r['on_time']:>9.0%}" + (f"  {r[extra]}" if extra else ""))
    tot = _pooled(rows)
    print(f"{'all':<10} {tot['found']:>5} {tot['true']:>5} {tot['tp']:>4} {tot['judged_true']:>7} "
          f"{tot['precision']:>9.2f} {tot['recall']:>7.2f} {tot['on_time']:>9.0%}")
    print("(+judged: found pairs the truth does not label that the hand verdicts of --adjudication judge true)")


def _day(value: str | None) -> date | None:
    return date.fromisoformat(value[:10]) if value else None


def measure(warehouse: Path, truth: Path, verbose: bool, verdicts: dict | None = None) -> list[dict]:
    """Per framework of the truth: pairs found, true, true found, precision, recall, dates on time.
    A found pair the truth does not label (a paper outside it: `--pool`) counts as true for precision
    where the hand `verdicts` say so (recall stays on the truth's pairs)."""
    con = duckdb.connect(str(warehouse), read_only=True)
    found = {(r[0], r[1]): r for r in con.execute(
        "select framework_id, arxiv_id, cast(adopted_on as varchar), evidence_grade, evidence_reason, "
        "first_commit_sha, first_commit_path, matched_value from marts.fct_method_adoptions").fetchall()}
    candidates = defaultdict(list)
    for r in con.execute(
            "select framework_id, arxiv_id, cast(committed_at as date)::varchar, evidence_grade, evidence_reason, "
            "sha, path, matched_value from intermediate.int_commits__paper_links "
            "order by committed_at").fetchall():
        candidates[(r[0], r[1])].append(r)
    con.close()
    positives = {(r["framework"], r["arxiv_id"]): r for r in _read_csv(truth / "adoptions_dev.csv")
                 if r["in_window"] == "True"}
    negatives = {(r["framework"], r["arxiv_id"]): r for r in _read_csv(truth / "non_adoptions_dev.csv")}
    table = []
    for fw in sorted({f for f, _ in positives}):
        pred = {k for k in found if k[0] == fw and in_window(k[1])}
        pos = {k for k in positives if k[0] == fw}
        tp = pred & pos
        on_time = 0
        for k in tp:
            t = positives[k]
            got = _day(found[k][2])
            refs = [d for d in (_day(t["first_id_commit_date"]), _day(t["earliest_signal_date"])) if d]
            on_time += any(abs((got - d).days) <= ON_TIME_DAYS for d in refs)
        judged_true = {k for k in pred - pos if k not in negatives and (verdicts or {}).get(k) == "true"}
        row = {"framework": fw, "found": len(pred), "true": len(pos), "tp": len(tp), "on_time_n": on_time,
               "judged_true": len(judged_true),
               "precision": (len(tp) + len(judged_true)) / len(pred) if pred else 1.0,
               "recall": len(tp) / len(pos) if pos else 1.0, "on_time": on_time / len(tp) if tp else 1.0}
        table.append(row)
        if verbose:
            for k in sorted(pred - pos - judged_true):
                label = negatives[k]["verdict"] if k in negatives else (verdicts or {}).get(k, "unlabelled")
                print(f"  FALSE  {fw} {k[1]} [{label}] {_evidence(found[k])}")
            for k in sorted(pos - pred):
                ev = candidates.get(k, [])
                first = _evidence(ev[0]) if ev else "no candidate evidence"
                print(f"  MISSED {fw} {k[1]} ({positives[k]['method_name'] or positives[k]['basis_path']}) {first}")
            for k in sorted(tp):
                t, got = positives[k], found[k][2]
                refs = [d for d in (_day(t["first_id_commit_date"]), _day(t["earliest_signal_date"])) if d]
                if not any(abs((_day(got) - d).days) <= ON_TIME_DAYS for d in refs):
                    print(f"  LATE   {fw} {k[1]} found {got}, truth {t['first_id_commit_date'] or '-'} / "
                          f"{t['earliest_signal_date']} {_evidence(found[k])}")
    return table


def held_out_claims(warehouse: Path, truth: Path) -> list[tuple]:
    """In-window pairs claimed in the frameworks without truth: (framework, arxiv id, date, grade,
    reason, sha, path, matched value, title, supported), by framework and id; supported false: the claim
    verifier holds it back (fct_adoption_claims), listed so it is judged too."""
    dev = {r["framework"] for r in _read_csv(truth / "adoptions_dev.csv")}
    con = duckdb.connect(str(warehouse), read_only=True)
    rows = con.execute(
        "select a.framework_id, a.arxiv_id, cast(a.adopted_on as varchar), a.evidence_grade, a.evidence_reason, "
        "a.first_commit_sha, a.first_commit_path, a.matched_value, p.title, a.is_supported "
        "from marts.fct_adoption_claims a join raw_arxiv.papers p using (arxiv_id) order by 1, 2").fetchall()
    con.close()
    return [r for r in rows if r[0] not in dev and in_window(r[1])]


def print_claims(claims: list[tuple], sample: int | None, seed: int) -> None:
    chosen = sorted(random.Random(seed).sample(claims, min(sample, len(claims)))) if sample else claims
    per_fw = defaultdict(int)
    for c in claims:
        per_fw[c[0]] += c[9]
    print(f"\nheld-out claims: {sum(per_fw.values())} ({', '.join(f'{k} {v}' for k, v in sorted(per_fw.items()))}), "
          f"and {sum(not c[9] for c in claims)} the claim verifier holds back (HELD)"
          + (f"; a sample of {len(chosen)} (seed {seed})" if sample else ""))
    for fw, aid, day, grade, reason, sha, path, value, title, supported in chosen:
        print(f"  {'CLAIM' if supported else 'HELD '}  {fw} {aid} {day} {sha[:12]} {grade} '{value}' "
              f"{path or '(message)'} | {title[:60]} | {reason}")


def read_verdicts(adjudication: Path) -> dict[tuple[str, str], str]:
    """Hand verdicts (csv: framework, arxiv_id, verdict true | false | borderline)."""
    return {(r["framework"], r["arxiv_id"]): r["verdict"] for r in _read_csv(adjudication)}


def score_claims(claims: list[tuple], adjudication: Path) -> None:
    """Held-out precision of the claims against a hand adjudication (csv: framework, arxiv_id,
    verdict true | false | borderline); claims it lacks are listed for adjudication."""
    verdicts = read_verdicts(adjudication)
    for label, members in (("", [c for c in claims if c[9]]), (" without the claim verifier", claims)):
        judged = [verdicts[c[0], c[1]] for c in members if (c[0], c[1]) in verdicts]
        true, border = judged.count("true"), judged.count("borderline")
        n = max(1, len(judged))
        print(f"\nheld-out precision{label} over {len(judged)} adjudicated claims: {true / n:.2f} "
              f"({(true + border) / n:.2f} counting {border} borderline true); "
              f"{len(judged) - true - border} false")
    for c in claims:
        held = "" if c[9] else " (held)"
        if verdicts.get((c[0], c[1]), "true") != "true":
            print(f"  {verdicts[c[0], c[1]].upper():<10} {c[0]} {c[1]} {c[5][:12]} '{c[7]}' {c[6] or '(message)'}{held}")
        elif (c[0], c[1]) not in verdicts:
            print(f"  UNJUDGED   {c[0]} {c[1]} {c[5][:12]} '{c[7]}' {c[6] or '(message)'}{held}")


def score_outside_truth(warehouse: Path, truth_csv: Path) -> None:
    """Recall and dates of the frameworks outside the registry against a local truth built from their
    docs and code at HEAD (csv: framework, arxiv_id, first_date [, signal_date, half, own]): per framework
    (and per `half`, e.g. dev / test), in-window truth pairs found and found within 7 days of the truth's
    dates (its first implementing commit; its earliest signal, id or name) or of the framework's first commit
    carrying the paper's id. `own` rows (the framework's own papers)
    are also reported apart."""
    rows = [r for r in _read_csv(truth_csv) if in_window(r["arxiv_id"])]
    con = duckdb.connect(str(warehouse), read_only=True)
    found = {(f, a): _day(d) for f, a, d in con.execute(
        "select framework_id, arxiv_id, cast(adopted_on as varchar) from marts.fct_method_adoptions").fetchall()}
    claimed = {(f, a) for f, a in con.execute("select framework_id, arxiv_id from marts.fct_adoption_claims").fetchall()}
    id_days = {(f, a): _day(d) for f, a, d in con.execute(
        "select m.framework_id, m.mention_value, cast(min(c.authored_at) as varchar) "
        "from staging.stg_git__commit_mentions m join staging.stg_git__commits c using (framework_id, sha) "
        "where m.mention_kind = 'arxiv_id' group by 1, 2").fetchall()}
    con.close()
    groups = defaultdict(list)
    for r in rows:
        groups[(r.get("half") or "-", r["framework"])].append(r)
        groups[(r.get("half") or "-", "all")].append(r)
        groups[("all", "all")].append(r)
        if r.get("own") != "true":
            groups[("all, not own", "all")].append(r)
    print("\noutside truth (docs and code at HEAD): recall and dates")
    print(f"{'half':<13} {'framework':<16} {'true':>4} {'found':>5} {'recall':>6} {'dates<=7d':>9} "
          f"{'found without the claim verifier':>33}")
    for (half, fw), members in sorted(groups.items()):
        hits = [r for r in members if (r["framework"], r["arxiv_id"]) in found]
        on_time = 0
        for r in hits:
            got = found[r["framework"], r["arxiv_id"]]
            refs = [d for d in (_day(r.get("first_date") or None), _day(r.get("signal_date") or None),
                                id_days.get((r["framework"], r["arxiv_id"]))) if d]
            on_time += any(abs((got - d).days) <= ON_TIME_DAYS for d in refs)
        print(f"{half:<13} {fw:<16} {len(members):>4} {len(hits):>5} {len(hits) / max(1, len(members)):>6.2f} "
              f"{on_time / max(1, len(hits)):>9.0%} {sum((r['framework'], r['arxiv_id']) in claimed for r in members):>33}")
    for r in rows:
        if (r["framework"], r["arxiv_id"]) not in found:
            print(f"  MISSED {r['framework']} {r['arxiv_id']} {r.get('method', '')}")


def _evidence(r) -> str:
    return f"{r[2]} {r[3]} ({r[4]}) '{r[7]}' {r[5][:9]} {r[6]}"


def _main_checkout() -> Path:
    """The main checkout of this repository (a worktree's data/ and ../shared are beside it)."""
    common = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--path-format=absolute", "--git-common-dir"],
                            capture_output=True, text=True).stdout.strip()
    return Path(common).parent if common else ROOT


def _first_existing(*paths: Path) -> Path:
    return next((p for p in paths if p.exists()), paths[0])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--truth", type=Path, default=_first_existing(
        *(base.parent / "shared" / "truth" for base in (ROOT, _main_checkout()))))
    ap.add_argument("--mirrors", type=Path, default=Path("/work/.mirror"))
    ap.add_argument("--papers-cache", type=Path, default=_first_existing(
        *(base / "data" / "real_world" / "papers" for base in (ROOT, _main_checkout()))))
    ap.add_argument("--work", type=Path, default=ROOT / "data" / "fidelity")
    ap.add_argument("--quiet", action="store_true", help="only the table")
    ap.add_argument("--lofo", action="store_true", help="also leave one framework out: tune the linking "
                    f"settings ({', '.join(LOFO_GRID)}) on eight frameworks, score the ninth")
    ap.add_argument("--list-claims", action="store_true", help="list the pairs claimed in frameworks without truth")
    ap.add_argument("--sample", type=int, help="with --list-claims: a random sample of this many")
    ap.add_argument("--seed", type=int, default=14, help="seed of --sample")
    ap.add_argument("--pool", type=Path, help="a local arXiv listing index (jsonl): its in-window papers "
                    "that match the pool query join the world (papers the rules never saw)")
    ap.add_argument("--outside-truth", type=Path, help="a local csv (framework, arxiv_id, first_date [, signal_date, half, own]) of "
                    "the pairs frameworks outside the truth document at HEAD: their recall and dates")
    ap.add_argument("--adjudication", type=Path, help="a csv of hand verdicts (framework, arxiv_id, verdict) on "
                    "pairs the truth does not label: with --list-claims it measures the held-out claims' precision; "
                    "on the truth's frameworks a pair judged true counts as true for precision")
    args = ap.parse_args()

    git_files = []
    for fw in config.frameworks():
        repo = mirror_of(fw, args.mirrors)
        if repo is None:
            continue
        try:
            git_files.append(mined(fw, repo, args.work / "mined"))
        except RuntimeError as exc:  # e.g. a partial clone missing a blob: measured without it
            print(f"  {fw.framework_id} not mined: {str(exc)[:160]}", file=sys.stderr)
    papers = paper_rows(args.truth, args.papers_cache)
    abstracts = sum(bool(p["abstract"]) for p in papers)
    pool = pool_rows(args.pool, {p["arxiv_id"] for p in papers}, args.work / "pool") if args.pool else []
    print(f"  {len(git_files)} frameworks mined, {len(papers)} papers ({abstracts} with abstracts)"
          + (f", {len(pool)} more from the pool of {args.pool.name}" if pool else ""), file=sys.stderr)
    warehouse = args.work / "warehouse.duckdb"
    build_warehouse(warehouse, git_files, papers, pool)
    run_dbt(warehouse, args.work)
    verdicts = read_verdicts(args.adjudication) if args.adjudication else None
    table = measure(warehouse, args.truth, not args.quiet, verdicts)
    print_table(table, "with the project's settings (rules written reading all nine: a fit figure)")
    if args.lofo:
        folds = leave_one_framework_out(warehouse, args.truth, args.work, verdicts)
        for f in folds:
            f["chosen"] = " ".join(f"{k}={v}" for k, v in f["setting"].items())
        print_table(folds, "leave one framework out (settings tuned on the other eight, scored on this one)",
                    extra="chosen")
        run_dbt(warehouse, args.work)  # leave the warehouse as the project's settings build it
    if args.list_claims:
        claims = held_out_claims(warehouse, args.truth)
        print_claims(claims, args.sample, args.seed)
        if args.adjudication:
            score_claims(claims, args.adjudication)
    if args.outside_truth:
        score_outside_truth(warehouse, args.outside_truth)


if __name__ == "__main__":
    main()
