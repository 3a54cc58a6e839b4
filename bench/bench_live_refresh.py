"""A whole live refresh over the nine frameworks' real histories: first load, then a no-change re-run.

Builds, in a work folder (never committed), a world equivalent to the live one and refreshes it the
way a user does (`python -m orchestration.cli refresh --world DIR`: the Dagster `refresh` job in one
process, from an empty data folder and a fresh copy of the dbt project, as after a fresh clone):

- git: the bare mirrors `/work/.mirror/<owner>+<name>/repo` (or `--repo ID=PATH`), each cloned
  `--shared` into the work folder and mined in place, as `RLTRACK_GIT_REPO_<ID>=<path>` is in live mode
  (a framework without a mirror: the sample's generated history, where it has one);
- arXiv: the local paper cache (`data/real_world/papers/*.json` of the main checkout) as papers the
  fake arXiv serves in the API's shapes (Atom query API, OAI-PMH); without the cache, the sample's papers.
  The live world's candidate-pool query is on (`arxiv_pool`), and its tech-report recheck interval;
- GitHub: the local thread cache (`data/real_world/threads/<owner>+<name>/<n>.json`) as REST payloads
  (issues with `pull_request`, issue comments, review comments, reviews), paged with Link headers;
  without it, the sample's threads;
- technical reports: the product's report list (`seeds/tech_reports.csv`) with the sample's LaTeXML-
  shaped pages (one report has only an abstract page, as on arXiv).
Every endpoint is on loopback, so the politeness waits of the live world (arXiv 3 s a request, GitHub
0.5 s) are zero here; the headline says so and prints what they would add for the requests made.

Prints, per refresh: wall and CPU seconds per Dagster step (from the run's event log; CPU sampled from
/proc for the process tree, git and dbt included), the time outside steps, and the quarantined items
of every source (`rltrack quarantine`).

Usage:
  python bench/bench_live_refresh.py [--work /tmp/live-refresh] [--mirrors /work/.mirror]
                                     [--cache /work/main/data/real_world] [--synthetic] [--runs 2]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from datetime import date, datetime, timezone
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO_ROOT))

from bench.bench_real_history import MIRRORS, mirror_for, shared_clone  # noqa: E402
from bench.bench_refresh import ProcTree  # noqa: E402
from ingestion import config  # noqa: E402
from ingestion.world import World  # noqa: E402

PY = sys.executable
CACHE = Path("/work/main/data/real_world")
GITHUB = "https://api.github.com"  # the URLs inside recorded payloads, as GitHub writes them


# --- the world folder -----------------------------------------------------------------------------
def _when(value: str | None) -> datetime | None:
    """An ISO 8601 time of the cache; None for a missing or unknown one ('None', 'unknown')."""
    try:
        return datetime.fromisoformat(value.replace("Z", "+00:00")) if value else None
    except ValueError:
        return None


def _month_of(arxiv_id: str) -> str:
    """The first day of the month a new-style id was issued in (YYMM.NNNNN)."""
    return f"20{arxiv_id[:2]}-{arxiv_id[2:4]}-01T00:00:00Z"


def cached_papers(folder: Path) -> list[dict]:
    """Papers of the local cache in the recorded world's JSON-lines keys. The cache keeps no
    categories or versions: the primary category stands for both (cs.LG when missing), version 1,
    published on the first-version date (the month of the id when missing)."""
    out = []
    for path in sorted(folder.glob("*.json")):
        p = json.loads(path.read_text(encoding="utf-8"))
        first = p.get("first_version_date")
        published = f"{first}T00:00:00Z" if first and first != "None" else _month_of(p["arxiv_id"])
        primary = p.get("primary_category") or "cs.LG"
        out.append({"arxiv_id": p["arxiv_id"], "version": 1, "title": p["title"], "abstract": p["abstract"],
                    "authors": list(p.get("authors") or []), "primary_category": primary,
                    "categories": [primary], "published": published, "updated": published,
                    "comment": p.get("comment"), "journal_ref": None, "doi": None})
    return out


def sample_papers() -> list[dict]:
    from worlds.sample.world import build_world

    return [{"arxiv_id": p.arxiv_id, "version": p.versions, "title": p.title, "abstract": p.abstract,
             "authors": [{"name": n, "affiliation": a} for n, a in p.authors],
             "primary_category": p.primary_category, "categories": list(p.categories),
             "published": p.published.isoformat(), "updated": p.updated.isoformat(), "comment": p.comment,
             "journal_ref": p.journal_ref, "doi": p.doi} for p in build_world().papers]


def cached_threads(folder: Path) -> dict[str, list]:
    """owner/name -> sample `Thread`s (with their replies) from the local thread cache."""
    from worlds.sample.world import Comment, Thread

    out: dict[str, list] = {}
    for repo_dir in sorted(p for p in folder.iterdir() if p.is_dir()):
        repo = repo_dir.name.replace("+", "/", 1)
        for path in sorted(repo_dir.glob("*.json")):
            t = json.loads(path.read_text(encoding="utf-8"))
            dated = sorted(d for d in (_when(c.get("created_at")) for c in t.get("comments") or []) if d)
            created = _when(t.get("created_at")) or (dated[0] if dated else None)
            if created is None:  # the cache lost its dates; GitHub always sends them
                continue
            replies = tuple((c.get("kind") or "comment", Comment((c.get("user") or {}).get("login") or "ghost",
                                                                  c.get("author_association") or "NONE",
                                                                  _when(c.get("created_at")) or created,
                                                                  c.get("body") or ""))
                            for c in t.get("comments") or [])
            last = max([created, *(c.created_at for _, c in replies)])
            merged = _when((t.get("pull_request") or {}).get("merged_at"))
            closed = (merged or last) if t["state"] == "closed" else None
            thread = Thread(framework=repo, number=int(t["number"]),
                            kind="pull_request" if "pull_request" in t else "issue", title=t.get("title") or "",
                            body=t.get("body") or "", author=(t.get("user") or {}).get("login") or "ghost",
                            association=t.get("author_association") or "NONE", created_at=created,
                            state=t["state"], state_reason="completed" if closed else None, closed_at=closed,
                            merged_at=merged, labels=tuple(lb.get("name", "") if isinstance(lb, dict) else str(lb)
                                                           for lb in t.get("labels") or []),
                            comments=tuple(c for kind, c in replies if kind == "comment"))
            out.setdefault(repo, []).append((thread, [(k, c) for k, c in replies if k != "comment"]))
    return out


def sample_threads() -> dict[str, list]:
    from worlds.sample.fake_github import sample_repos

    return {repo: [(t, []) for t in threads] for repo, threads in sample_repos()[0].items()}


def write_github(folder: Path, threads: dict[str, list]) -> int:
    """GitHub REST payloads per route (worlds/README.md); returns the number of threads."""
    from worlds.sample.fake_github import _iso, _numeric_id, _user, comments_json, issue_json

    n = 0
    for repo, items in threads.items():
        base = folder / repo
        issues, comments, review_comments, reviews = [], [], [], {}
        for t, others in items:
            issues.append(issue_json(GITHUB, repo, t))
            comments += comments_json(GITHUB, repo, t)
            for i, (kind, c) in enumerate(others):
                cid = _numeric_id(repo, kind, t.number, i)
                common = {"id": cid, "user": _user(c.author), "body": c.body, "author_association": c.association}
                if kind == "review":
                    reviews.setdefault(t.number, []).append(
                        {**common, "state": "COMMENTED", "submitted_at": _iso(c.created_at)})
                else:
                    review_comments.append({**common, "pull_request_url": f"{GITHUB}/repos/{repo}/pulls/{t.number}",
                                            "created_at": _iso(c.created_at), "updated_at": _iso(c.created_at),
                                            "path": "", "pull_request_review_id": None, "in_reply_to_id": None})
            n += 1
        routes = {"issues": issues, "issues/comments": comments, "pulls/comments": review_comments,
                  **{f"pulls/{num}/reviews": r for num, r in reviews.items()}}
        for route, payload in routes.items():
            path = base / f"{route}.json"
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(json.dumps(payload), encoding="utf-8")
    return n


def write_reports(folder: Path) -> int:
    """The product's report list, each report with the sample's LaTeXML-shaped page (a report the
    sample does not have names no method)."""
    from ingestion.reports.source import seed_reports
    from worlds.sample.report_texts import ABS_ONLY, _abs_page, _html_page, report_text
    from worlds.sample.world import REPORTS, Report

    (folder / "html").mkdir(parents=True, exist_ok=True)
    (folder / "abs").mkdir(parents=True, exist_ok=True)
    shutil.copy(REPO_ROOT / "dbt_project" / "seeds" / "tech_reports.csv", folder / "tech_reports.csv")
    sample = {r.arxiv_id: r for r in REPORTS}
    reports = [sample.get(s.arxiv_id) or Report(s.model, s.arxiv_id, s.params_total_b, s.params_active_b,
                                                 s.released_at, ()) for s in seed_reports()]
    for r in reports:
        if r.arxiv_id not in ABS_ONLY:
            (folder / "html" / f"{r.arxiv_id}.html").write_text(_html_page(r), encoding="utf-8")
        (folder / "abs" / f"{r.arxiv_id}.html").write_text(_abs_page(r, report_text(r)), encoding="utf-8")
    return len(reports)


def build_world(work: Path, mirrors: Path, given: dict[str, str], cache: Path | None) -> tuple[Path, str]:
    """The world folder and a line saying what it holds."""
    folder = work / "world"
    shutil.rmtree(folder, ignore_errors=True)
    shutil.rmtree(work / "repos", ignore_errors=True)
    (folder / "arxiv").mkdir(parents=True)
    real = cache is not None and (cache / "papers").is_dir()
    papers = cached_papers(cache / "papers") if real else sample_papers()
    with (folder / "arxiv" / "papers.jsonl").open("w", encoding="utf-8") as fh:
        for p in papers:
            fh.write(json.dumps(p) + "\n")
    real_threads = cache is not None and (cache / "threads").is_dir()
    threads = write_github(folder / "github", cached_threads(cache / "threads") if real_threads else sample_threads())
    reports = write_reports(folder / "reports")
    registry = {fw.framework_id: fw for fw in config.frameworks()}
    repos, generated = {}, []
    for fw in registry.values():
        source = mirror_for(fw, mirrors, given)
        if source is None:
            generated.append(fw.framework_id)
            continue
        repos[fw.framework_id] = str(shared_clone(source, work / "repos" / fw.framework_id, fw.default_branch))
    if generated:  # no mirror: the sample's generated history, where it has one
        from worlds.sample.serve import build_sample_files

        sample_repos, _ = build_sample_files(work / "sample")
        for fw_id in generated:
            if fw_id in sample_repos:
                repos[fw_id] = str(shared_clone(sample_repos[fw_id], work / "repos" / fw_id,
                                                registry[fw_id].default_branch))
        print(f"  no mirror of {', '.join(generated)}: "
              f"{', '.join(f for f in generated if f in repos) or 'none'} from the sample's generated histories")
    (folder / "world.json").write_text(json.dumps({
        "name": "live_bench", "repos": repos, "mine_in_place": True,  # frameworks: those with a repo or threads
        "arxiv_pool": True, "report_recheck_s": World.live().report_recheck_s,  # as the live world
    }, indent=2), encoding="utf-8")
    what = (f"{len(papers)} papers ({'local cache' if real else 'sample'}), {threads} threads "
            f"({'local cache' if real_threads else 'sample'}), {reports} reports (sample texts), "
            f"{len(repos)} repositories ({', '.join(repos)})")
    return folder, what


# --- measuring ------------------------------------------------------------------------------------
class TreeCpu(ProcTree):
    """CPU seconds of a process tree over time: the sum, over the live processes of the tree, of
    their own and their reaped children's user+system time (each second counted once)."""

    def __init__(self, root: int) -> None:
        super().__init__(interval_s=0.1, root=root)
        self.samples: list[tuple[float, float]] = []
        self._tick = os.sysconf("SC_CLK_TCK")

    def sample(self, stats: dict[int, list[str]]) -> None:
        if self.root in stats:
            self.samples.append((time.time(), sum(sum(int(x) for x in f[11:15]) for f in stats.values()) / self._tick))

    def at(self, when: float) -> float:
        """Tree CPU seconds at `when` (the last sample before it)."""
        before = [c for t, c in self.samples if t <= when]
        return before[-1] if before else 0.0


def run_refresh(env: dict, log: Path) -> dict:
    start_wall, start = time.time(), time.perf_counter()
    with log.open("w") as out:
        proc = subprocess.Popen([PY, "-m", "orchestration.cli", "refresh", "--world", env["BENCH_WORLD"]],
                                env=env, stdout=out, stderr=subprocess.STDOUT, cwd=REPO_ROOT)
        with TreeCpu(proc.pid) as tree:
            _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"refresh failed; log {log}:\n{log.read_text(errors='replace')[-3000:]}")
    return {"wall": wall, "cpu": usage.ru_utime + usage.ru_stime, "started": start_wall, "tree": tree}


def steps_of(dagster_home: Path, tree: TreeCpu) -> list[tuple[str, float, float]]:
    """(step, wall s, CPU s) of the newest `refresh` run, in start order; (step, None, None) for a
    step that did not run (skipped: nothing new upstream)."""
    import dagster as dg

    instance = dg.DagsterInstance.from_config(str(dagster_home))
    try:
        run = instance.get_runs(filters=dg.RunsFilter(job_name="refresh"), limit=1)[0]
        stats = sorted(instance.get_run_step_stats(run.run_id), key=lambda s: s.start_time or float("inf"))
    finally:
        instance.dispose()
    return [(s.step_key, s.end_time - s.start_time, tree.at(s.end_time) - tree.at(s.start_time))
            if s.start_time and s.end_time else (s.step_key, None, None) for s in stats]


POLITENESS = ("loopback endpoints: the live world's politeness waits (arXiv API and arxiv.org pages one "
              "request every 3 s, GitHub 0.5 s) are zero here")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--work", type=Path, help="work folder (default: a temporary one, removed afterwards)")
    ap.add_argument("--mirrors", type=Path, default=MIRRORS)
    ap.add_argument("--repo", action="append", default=[], metavar="ID=PATH", help="a framework's repository")
    ap.add_argument("--cache", type=Path, default=CACHE, help="local cache of real papers and threads")
    ap.add_argument("--synthetic", action="store_true", help="the sample's papers and threads, not the cache")
    ap.add_argument("--runs", type=int, default=2, help="refreshes: the first load, then no-change re-runs")
    ap.add_argument("--again", action="store_true",
                    help="keep the world and data of an earlier run in --work: every run is a no-change one")
    args = ap.parse_args(argv)
    if args.again and not args.work:
        ap.error("--again needs --work")

    work = args.work or Path(tempfile.mkdtemp(prefix="rltrack-live-refresh-"))
    work.mkdir(parents=True, exist_ok=True)
    for old in ("logs",) if args.again else ("data", "dbt_project", "logs"):
        shutil.rmtree(work / old, ignore_errors=True)
    (work / "logs").mkdir()
    try:
        print(f"rltrack live refresh bench: work folder {work}; load average {os.getloadavg()[0]:.1f} "
              f"on {os.cpu_count()} cpus")
        world, what = (work / "world", "as before (--again)") if args.again else build_world(
            work, args.mirrors, dict(r.split("=", 1) for r in args.repo), None if args.synthetic else args.cache)
        print(f"world: {what}")
        print(POLITENESS)
        shutil.copytree(REPO_ROOT / "dbt_project", work / "dbt_project", dirs_exist_ok=True,
                        ignore=shutil.ignore_patterns("target", "logs", "dbt_packages"))
        data = work / "data"
        env = {k: v for k, v in os.environ.items() if not k.startswith(("RLTRACK_", "DAGSTER_"))}
        env.update(RLTRACK_DATA_DIR=str(data), DAGSTER_HOME=str(data / "dagster_home"),
                   RLTRACK_DBT_PROJECT_DIR=str(work / "dbt_project"), PYTHONPATH=str(REPO_ROOT),
                   BENCH_WORLD=str(world))
        for n in range(args.runs):
            label = "first load" if n == 0 and not args.again else "no-change refresh"
            r = run_refresh(env, work / "logs" / f"refresh{n}.log")
            steps = steps_of(data / "dagster_home", r["tree"])
            print(f"\n{label}: wall {r['wall']:.1f} s, CPU {r['cpu']:.1f} s (process tree)")
            print(f"  {'step':<34}{'wall s':>8}{'CPU s':>8}")
            for key, wall, cpu in steps:
                print(f"  {key[:34]:<34}" + (f"{wall:>8.1f}{cpu:>8.1f}" if wall is not None else f"{'skipped':>16}"))
            ran = [(w, c) for _, w, c in steps if w is not None]
            in_steps = sum(w for w, _ in ran)
            print(f"  {'steps (' + str(len(ran)) + ' ran)':<34}{in_steps:>8.1f}{sum(c for _, c in ran):>8.1f}")
            print(f"  {'outside steps':<34}{r['wall'] - in_steps:>8.1f}")
        print("\nquarantined items (rltrack quarantine):")
        listing = subprocess.run([PY, "-m", "orchestration.cli", "quarantine"], env=env, cwd=REPO_ROOT,
                                 capture_output=True, text=True)
        print(listing.stdout + listing.stderr, end="")
    finally:
        if args.work is None:
            shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
