"""A growing world for the soak bench (`bench/bench_soak.py`): the bundled sample revealed day by day,
with an optional fault schedule.

Simulated day `d` shows what the sample holds up to `clock(d)` = START + d * STEP: the papers
submitted by then, each framework's branch at its last commit by then, the threads opened by then
as they stood then (later comments, closing and merging still to come). One simulated day is STEP of
the sample's time, so each day brings a few papers, commits and thread changes.

`FaultPlan` says which faults hit which days: a share of requests answering 5xx or dropping the
connection, one month's feed page cut short for a week, a repository unreachable for three days,
a branch force-pushed, a GitHub rate limit without a reset header, and (run by the bench) a refresh
killed mid-load. The force-pushed branch ends in the same history as the fault-free world's: the
fault-free world shows the rewritten history from the start, the faulty one switches to it on
`force_push_day` (the commits it saw before are dropped from the branch).
"""

from __future__ import annotations

import subprocess
from contextlib import ExitStack
from dataclasses import dataclass, replace
from datetime import datetime, timedelta, timezone
from pathlib import Path

from ingestion.world import World
from worlds.sample.fake_arxiv import FakeArxiv
from worlds.sample.fake_github import running_fake_github, sample_repos
from worlds.sample.report_texts import serve_sample_arxiv_web
from worlds.sample.serve import arxiv_world, build_sample_files
from worlds.sample.world import Thread, build_world

START = datetime(2026, 1, 1, 23, 59, tzinfo=timezone.utc)
STEP = timedelta(days=6)
FORCE_PUSHED = "trl"  # a framework with a linear history in the sample
ORIGINAL, REWRITTEN = "refs/soak/original", "refs/soak/rewritten"


def clock(day: int) -> datetime:
    return START + day * STEP


@dataclass(frozen=True)
class FaultPlan:
    error_rate: float = 0.05  # of arXiv and GitHub requests, every day
    malformed_days: range = range(5, 12)  # the current month's feed page comes back cut short
    unreachable_days: range = range(8, 11)  # one repository cannot be reached
    unreachable: str = "verl"
    force_push_day: int = 15
    rate_limit_day: int = 18  # GitHub's budget used up, no X-RateLimit-Reset header
    kill_day: int = 22  # the bench kills that day's refresh mid-load, then runs it again

    def expected(self, day: int) -> dict[str, str]:
        """Fault -> the source `rltrack status` should show failing on `day` (faults that cost data)."""
        out = {}
        if day in self.malformed_days:
            out["malformed feed page"] = "arxiv"
        if day in self.unreachable_days:
            out["repository unreachable"] = "git_history"
        if day == self.rate_limit_day:
            out["rate limit without reset header"] = "github"
        return out


def month_term(at: datetime) -> str:
    """The submittedDate term of the calendar-month window holding `at` (as the arXiv source asks it)."""
    first = at.replace(day=1, hour=0, minute=0)
    nxt = (first + timedelta(days=32)).replace(day=1)
    last = nxt - timedelta(days=1)
    return f"submittedDate:[{first:%Y%m%d}0000 TO {last:%Y%m%d}2359]"


def thread_as_of(t: Thread, cutoff: datetime) -> Thread:
    closed = t.closed_at is not None and t.closed_at <= cutoff
    return replace(t, comments=tuple(c for c in t.comments if c.created_at <= cutoff),
                   state=t.state if closed or t.state == "open" else "open",
                   state_reason=t.state_reason if closed else None, closed_at=t.closed_at if closed else None,
                   merged_at=t.merged_at if t.merged_at is not None and t.merged_at <= cutoff else None)


def git(repo: Path, *args: str, env: dict | None = None) -> str:
    return subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True, text=True,
                          env=env).stdout.strip()


def tip_at(repo: Path, ref: str, cutoff: datetime) -> str:
    return git(repo, "rev-list", "-1", "--first-parent", f"--before={cutoff.isoformat()}", ref)


def rewrite_from(repo: Path, first: str) -> str:
    """ORIGINAL with `first` amended (same tree, message marked) and every later commit re-parented
    onto it, kept as REWRITTEN; returns the rewritten tip. Dates and authors are kept."""
    import os

    parent = git(repo, "rev-parse", f"{first}^")
    for sha in git(repo, "rev-list", "--reverse", "--first-parent", f"{parent}..{ORIGINAL}").split():
        an, ae, ad, cn, ce, cd, msg = git(repo, "log", "-1", "--format=%an%x00%ae%x00%aI%x00%cn%x00%ce%x00%cI%x00%B",
                                          sha).split("\0", 6)
        env = {**os.environ, "GIT_AUTHOR_NAME": an, "GIT_AUTHOR_EMAIL": ae, "GIT_AUTHOR_DATE": ad,
               "GIT_COMMITTER_NAME": cn, "GIT_COMMITTER_EMAIL": ce, "GIT_COMMITTER_DATE": cd}
        message = msg + ("\n\n(amended before the force push)" if sha == first else "")
        parent = git(repo, "commit-tree", git(repo, "rev-parse", f"{sha}^{{tree}}"), "-p", parent, "-m", message,
                     env=env)
    git(repo, "update-ref", REWRITTEN, parent)
    return parent


class SoakWorld:
    """`with SoakWorld(folder, plan, faulty) as soak:` then `world = soak.day(d)` for each simulated
    day. The fault-free world (`faulty=False`) takes from `plan` only the force-pushed history's end."""

    def __init__(self, folder: Path, plan: FaultPlan, faulty: bool) -> None:
        self.folder, self.plan, self.force_push_day = Path(folder), plan if faulty else None, plan.force_push_day
        self.sample = build_world()
        self._stack = ExitStack()

    def __enter__(self) -> SoakWorld:
        sources, reports_csv = build_sample_files(self.folder.parent / "sample_files")
        self.repos: dict[str, Path] = {}
        for fw, src in sources.items():
            bare = self.folder / "remotes" / f"{fw}.git"
            if not bare.exists():
                subprocess.run(["git", "clone", "--quiet", "--bare", str(src), str(bare)], check=True)
                git(bare, "update-ref", ORIGINAL, "refs/heads/main")
            self.repos[fw] = bare
        if FORCE_PUSHED in self.repos:  # the commit the faulty world shows last before the force push
            repo = self.repos[FORCE_PUSHED]
            before = tip_at(repo, ORIGINAL, clock(self.force_push_day - 1))
            rewrite_from(repo, before)
        self.arxiv = self._stack.enter_context(FakeArxiv(papers=()))
        self.github_url, self.github = self._stack.enter_context(running_fake_github(repos={}, renames={}))
        self.all_threads, _ = sample_repos()
        web = self._stack.enter_context(serve_sample_arxiv_web())
        self.base = arxiv_world(self.arxiv.base_url).replace(
            github_api=self.github_url, arxiv_web=web, reports_csv=reports_csv, repos_dir=self.folder / "clones")
        return self

    def __exit__(self, *exc) -> None:
        self._stack.close()

    def day(self, d: int) -> World:
        """Show day `d` (its content and faults); the world the day's refresh reads."""
        cutoff, plan = clock(d), self.plan
        self.arxiv.papers = tuple(p for p in self.sample.papers if p.published <= cutoff)
        self.github.repos.clear()
        self.github.repos.update({repo: [thread_as_of(t, cutoff) for t in threads if t.created_at <= cutoff]
                                  for repo, threads in self.all_threads.items()})
        repos = []
        for fw, bare in self.repos.items():
            rewritten = fw == FORCE_PUSHED and (plan is None or d >= plan.force_push_day)
            git(bare, "update-ref", "refs/heads/main", tip_at(bare, REWRITTEN if rewritten else ORIGINAL, cutoff))
            away = plan is not None and fw == plan.unreachable and d in plan.unreachable_days
            repos.append((fw, str(bare.with_name(bare.name + ".unreachable") if away else bare)))
        a, g = self.arxiv.faults, self.github.faults
        a.error_rate = g.error_rate = plan.error_rate if plan else 0.0
        a.cut_windows = (month_term(cutoff),) if plan and d in plan.malformed_days else ()
        limited = plan is not None and d == plan.rate_limit_day
        g.rate_limit_reset_header = not limited
        g.rate_limit_at_call = len(self.github.calls) + 3 if limited else None
        g.rate_limit_reset_in_s = 10 * 24 * 3600.0
        self.github.limited_until = None
        return self.base.replace(repos=tuple(repos))
