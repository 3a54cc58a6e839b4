"""A large synthetic world for benchmarks and scale tests, served in the sources' real formats.

At `scale=1.0`: 100,000 arXiv papers, 20 frameworks with 10,000 commits each (real git
repositories written with `git fast-import`) and 200,000 GitHub issues, pull requests and comments
(80,000 threads, 120,000 comments). Everything is a pure function of (scale, frameworks, grown):
the same arguments give byte-identical Atom, JSON and commit SHAs.

`grown=True` is the same world plus about 1% new data, the shape an incremental refresh sees:
1% of papers get a new version (updated two days before `BENCH_NOW`, so the arXiv source finds
them through its recent-updates window), every repository gets 1% more commits on top of the old
head, and every GitHub repository 1% more threads (with their comments) updated after the rest.

Serving: `serve_large_arxiv` runs the existing fake arXiv (`fake_arxiv.FakeArxiv`) over this
world's papers with a query cache (the fake otherwise filters every paper per page);
`serve_large_github` runs the fake GitHub over this world's threads with the item lists cached per
query. `write_frameworks_csv` writes the registry to point `RLTRACK_FRAMEWORKS_CSV` at.

CLI: `python -m worlds.large_world build --scale 0.01 --out DIR [--grown]` (repos + csv),
`python -m worlds.large_world serve --scale 0.01 [--grown]` (prints the two base URLs as
JSON on one line, then serves until stdin closes).
"""

from __future__ import annotations

import argparse
import csv
import hashlib
import json
import random
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from functools import cached_property
from pathlib import Path

from ingestion.github.source import PER_PAGE as GITHUB_PER_PAGE
from worlds.loopback import serve_on_loopback
from worlds.sample.world import Comment, Paper, Thread

GENERATOR_VERSION = "1"
SEED = 9_2026
BENCH_NOW = datetime(2026, 10, 1, 12, 0, tzinfo=timezone.utc)  # the clock a bench run uses
GROWTH_AT = BENCH_NOW - timedelta(days=2)  # when the 1% of new data appeared
WINDOW_START = datetime(2025, 1, 1, tzinfo=timezone.utc)
WINDOW_END = datetime(2026, 6, 30, 23, 0, tzinfo=timezone.utc)
HISTORY_END = datetime(2026, 9, 1, tzinfo=timezone.utc)  # base data ends here; growth comes later
GROWTH = 0.01

PAPERS_AT_SCALE_1 = 100_000
COMMITS_PER_FRAMEWORK_AT_SCALE_1 = 10_000
THREADS_AT_SCALE_1 = 80_000
COMMENTS_PER_THREAD_CYCLE = (0, 1, 2, 3)  # mean 1.5: 120,000 comments at scale 1
METHOD_SHARE = 3  # one paper in METHOD_SHARE proposes an RL method with a named acronym

_TOPICS = ("mathematical reasoning", "code generation", "tool use", "long-context reasoning",
           "multi-turn dialogue", "theorem proving", "agentic search", "instruction following")
_OTHER_TOPICS = ("image segmentation", "graph neural networks", "speech recognition", "protein folding",
                 "time-series forecasting", "federated learning", "point clouds", "recommender systems")
_FIRST = ("Ana", "Bo", "Chen", "Dmitri", "Elena", "Farid", "Grace", "Hiro", "Ines", "Jun", "Kofi",
          "Lena", "Mateo", "Nadia", "Omar", "Priya", "Quinn", "Rui", "Sara", "Tomas")
_LAST = ("Abe", "Banerjee", "Costa", "Dubois", "Eriksen", "Fischer", "Gupta", "Huang", "Ivanova",
         "Jensen", "Kim", "Lopez", "Moreau", "Nakamura", "Okafor", "Park", "Rossi", "Schmidt", "Tanaka", "Wu")
_LABS = ("Northfield University", "Lakeside Institute of Technology", "Delta AI Lab", "Harbor Research",
         "Summit University", "Meridian AI")


def _letters(i: int, width: int = 4) -> str:
    out = ""
    for _ in range(width):
        out = chr(ord("A") + i % 26) + out
        i //= 26
    return out


def acronym(paper_index: int) -> str:
    """A unique method name per paper index ('QAAAB-PO' style, one code token: 'qaaabpo')."""
    return f"Q{_letters(paper_index)}PO"


@dataclass(frozen=True)
class Size:
    papers: int
    frameworks: int
    commits_per_framework: int
    threads: int

    @classmethod
    def at(cls, scale: float, frameworks: int = 20) -> Size:
        return cls(papers=max(10, round(PAPERS_AT_SCALE_1 * scale)), frameworks=frameworks,
                   commits_per_framework=max(10, round(COMMITS_PER_FRAMEWORK_AT_SCALE_1 * scale)),
                   threads=max(frameworks * 2, round(THREADS_AT_SCALE_1 * scale)))


@dataclass(frozen=True)
class SynthFramework:
    framework_id: str
    repo: str
    package: str
    maintainer_domain: str
    maintainer_org: str
    former_repo: str = ""  # the first framework was renamed once (GitHub answers 301 for it)


class LargeWorld:
    def __init__(self, scale: float = 1.0, frameworks: int = 20, grown: bool = False) -> None:
        self.scale = scale
        self.size = Size.at(scale, frameworks)
        self.grown = grown

    # --- registry ------------------------------------------------------------------------------
    @cached_property
    def frameworks(self) -> list[SynthFramework]:
        return [SynthFramework(f"synth{k:02d}", f"synth-org-{k:02d}/rlkit{k:02d}", f"rlkit{k:02d}",
                               f"synthlab{k:02d}.ai", f"Synth Lab {k:02d}",
                               former_repo="synth-legacy/rlkit00" if k == 0 else "")
                for k in range(self.size.frameworks)]

    def write_frameworks_csv(self, path: Path) -> Path:
        """The registry in the seed's columns; every synthetic framework is `in_sample`."""
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("w", newline="", encoding="utf-8") as fh:
            w = csv.writer(fh)
            w.writerow(["framework_id", "display_name", "repo", "former_repos", "default_branch",
                        "maintainer_orgs", "maintainer_domains", "docs_paths", "in_sample"])
            for f in self.frameworks:
                w.writerow([f.framework_id, f.framework_id.upper(), f.repo, f.former_repo, "main", f.maintainer_org,
                            f.maintainer_domain, "docs/", "true"])
        return path

    # --- papers --------------------------------------------------------------------------------
    @cached_property
    def _paper_skeleton(self) -> list[tuple[datetime, int]]:
        """(first-version time, index) sorted by time; ids are assigned in this order per month."""
        rng = random.Random(f"{SEED}-papers")
        span = (WINDOW_END - WINDOW_START).total_seconds()
        stamps = [(WINDOW_START + timedelta(seconds=int(rng.random() * span)), i) for i in range(self.size.papers)]
        stamps.sort()
        return stamps

    @cached_property
    def arxiv_ids(self) -> list[str]:
        """arxiv_id by paper index: YYMM.NNNNN in order of submission inside each month."""
        ids = [""] * self.size.papers
        counters: dict[str, int] = {}
        for when, i in self._paper_skeleton:
            month = f"{when:%y%m}"
            counters[month] = counters.get(month, 0) + 1
            ids[i] = f"{month}.{counters[month]:05d}"
        return ids

    def is_method_paper(self, i: int) -> bool:
        return i % METHOD_SHARE == 0

    def is_bumped(self, i: int) -> bool:
        """Papers that get a new version in the grown world (1%)."""
        return i % round(1 / GROWTH) == 37

    @cached_property
    def papers(self) -> list[Paper]:
        published_at = {i: when for when, i in self._paper_skeleton}
        return [self._paper(i, published_at[i]) for i in range(self.size.papers)]

    def _paper(self, i: int, published: datetime) -> Paper:
        rng = random.Random(f"{SEED}-paper-{i}")
        versions = 1 + rng.randrange(3)
        updated = min(published + timedelta(days=rng.randrange(0, 60) * (versions - 1)), HISTORY_END)
        if self.grown and self.is_bumped(i):
            versions, updated = versions + 1, GROWTH_AT
        authors = tuple((f"{rng.choice(_FIRST)} {rng.choice(_LAST)}", rng.choice(_LABS + (None,)))
                        for _ in range(1 + rng.randrange(4)))
        if self.is_method_paper(i):
            name, topic, size_b = acronym(i), rng.choice(_TOPICS), rng.choice((0.5, 1.5, 7, 8, 14, 32, 70))
            title = f"{name}: Clipped Group Policy Optimization for {topic.title()}"
            abstract = (f"We propose {name}, a reinforcement learning method for large language models that "
                        f"changes the clipping of the policy gradient loss in GRPO for {topic}. We train a "
                        f"{size_b}B policy with verifiable rewards and improve over PPO and GRPO baselines. "
                        f"Code is available at https://github.com/synth/{name.lower()}.")
            kind, cats = "general_method", ("cs.LG", "cs.CL")
        else:
            topic = rng.choice(_OTHER_TOPICS)
            title = f"A Study of {topic.title()} with Sparse Models, Part {i}"
            abstract = (f"We study {topic} with sparse architectures and report results on standard "
                        f"benchmarks. Our analysis covers {rng.randrange(3, 40)} datasets.")
            kind, cats = "not_rl", (rng.choice(("cs.LG", "stat.ML", "cs.AI")),)
        return Paper(
            arxiv_id=self.arxiv_ids[i], versions=versions, title=title, abstract=abstract, authors=authors,
            primary_category=cats[0], categories=cats, published=published, updated=max(updated, published),
            comment=f"{rng.randrange(8, 40)} pages" if rng.random() < 0.5 else None, journal_ref=None,
            doi=None, kind=kind, method=acronym(i) if kind == "general_method" else None,
        )

    def method_paper(self, key: str) -> int:
        """A deterministic method-paper index picked by `key`."""
        h = int(hashlib.blake2b(key.encode(), digest_size=8).hexdigest(), 16)
        return (h % (self.size.papers // METHOD_SHARE)) * METHOD_SHARE

    # --- GitHub threads --------------------------------------------------------------------------
    def _threads_per_repo(self) -> int:
        return max(2, self.size.threads // self.size.frameworks)

    def threads_for(self, fw_index: int) -> list[Thread]:
        base = self._threads_per_repo()
        extra = max(1, round(base * GROWTH)) if self.grown else 0
        return [self._thread(fw_index, n, grown=n > base) for n in range(1, base + extra + 1)]

    @cached_property
    def github_repos(self) -> dict[str, list[Thread]]:
        return {f.repo: self.threads_for(k) for k, f in enumerate(self.frameworks)}

    def _thread(self, k: int, number: int, grown: bool) -> Thread:
        rng = random.Random(f"{SEED}-thread-{k}-{number}")
        fw = self.frameworks[k]
        span = (HISTORY_END - timedelta(days=20) - WINDOW_START).total_seconds()
        created = (GROWTH_AT - timedelta(hours=12) if grown
                   else WINDOW_START + timedelta(seconds=int(span * (number - 1) / self._threads_per_repo())))
        kind = "pull_request" if number % 5 in (1, 3) else "issue"
        roll = rng.random()
        if roll < 0.05:
            idx = self.method_paper(f"thread-{k}-{number}")
            title = f"Add the method from arXiv:{self.arxiv_ids[idx]}"
            body = f"Paper: https://arxiv.org/abs/{self.arxiv_ids[idx]}. Would be great to support it."
        elif roll < 0.15:
            name = acronym(self.method_paper(f"thread-{k}-{number}"))
            title, body = f"Support {name} loss", f"Is {name} planned? It changes the clipping in GRPO."
        else:
            title = f"Training diverges with {rng.choice(('fsdp', 'megatron', 'vllm', 'sglang'))} backend"
            body = "Steps to reproduce: run the example script. " + "Logs attached. " * rng.randrange(1, 6)
        closed = created + timedelta(days=rng.randrange(1, 15)) if rng.random() < 0.5 and not grown else None
        n_comments = COMMENTS_PER_THREAD_CYCLE[number % len(COMMENTS_PER_THREAD_CYCLE)]
        comments = tuple(
            Comment(author=f"user{rng.randrange(5000)}", association=rng.choice(("NONE", "CONTRIBUTOR", "MEMBER")),
                    created_at=created + timedelta(hours=1 + 3 * c),
                    body=f"Seen this too on {fw.package} {rng.randrange(1, 9)}.{rng.randrange(10)}.")
            for c in range(n_comments))
        return Thread(
            framework=fw.framework_id, number=number, kind=kind, title=title, body=body,
            author=f"user{rng.randrange(5000)}" if rng.random() < 0.97 else "dependabot[bot]",
            association=rng.choice(("NONE", "CONTRIBUTOR", "MEMBER", "OWNER")), created_at=created,
            state="closed" if closed else "open", state_reason="completed" if closed else None,
            closed_at=closed, merged_at=closed if closed and kind == "pull_request" else None,
            labels=("bug",) if "diverges" in title else ("enhancement",), comments=comments,
        )

    # --- git ---------------------------------------------------------------------------------------
    def commit_count(self) -> int:
        base = self.size.commits_per_framework
        return base + (max(1, round(base * GROWTH)) if self.grown else 0)

    def commit_stream(self, k: int, first: int, last: int, continue_from_head: bool) -> bytes:
        """fast-import commands for commits first..last-1 of framework `k` on refs/heads/main."""
        fw, base = self.frameworks[k], self.size.commits_per_framework
        span = (HISTORY_END - WINDOW_START).total_seconds()
        out: list[bytes] = []
        for i in range(first, last):
            when = (WINDOW_START + timedelta(seconds=int(span * i / base)) if i < base
                    else GROWTH_AT - timedelta(hours=6) + timedelta(seconds=i - base))
            message, path, content = self._commit_change(k, fw, i)
            ident = (f"{fw.maintainer_org} Dev{i % 7} <dev{i % 7}@{fw.maintainer_domain}>" if i % 3 == 0
                     else f"Contributor {i % 97} <c{i % 97}@users.noreply.github.com>")
            stamp = f"{ident} {int(when.timestamp())} +0000".encode()
            out.append(b"commit refs/heads/main\nauthor %s\ncommitter %s\n" % (stamp, stamp))
            msg = message.encode() + b"\n"
            out.append(b"data %d\n%s\n" % (len(msg), msg))
            if i == first and continue_from_head:
                out.append(b"from refs/heads/main^0\n")
            data = content.encode()
            out.append(b"M 100644 inline %s\ndata %d\n%s\n" % (path.encode(), len(data), data))
        return b"".join(out)

    def _commit_change(self, k: int, fw: SynthFramework, i: int) -> tuple[str, str, str]:
        """(message, path, full new content) of commit i: one file rewritten per commit."""
        roll = (i * 7919 + k * 104729) % 1000
        module = f"{fw.package}/algos/mod_{i % 40:02d}.py"
        if roll < 15:  # cites the paper by arXiv id
            idx = self.method_paper(f"commit-{k}-{i}")
            name = acronym(idx).lower()
            return (f"feat: add {name} loss (arXiv:{self.arxiv_ids[idx]})", module,
                    f'"""Losses, revision {i}."""\n\n\ndef compute_{name}_loss(logp, old_logp, adv):\n'
                    f'    """See https://arxiv.org/abs/{self.arxiv_ids[idx]}."""\n    return -(adv * logp).mean()\n')
        if roll < 35:  # names the method only (a code token)
            name = acronym(self.method_paper(f"commit-{k}-{i}")).lower()
            return (f"feat: support the {name} estimator", module,
                    f'"""Estimators, revision {i}."""\n\n\ndef {name}_advantage(rewards, mask):\n'
                    f"    return (rewards - rewards.mean()) * mask\n")
        if roll < 60:  # documentation
            return (f"docs: update page {i % 25}", f"docs/page_{i % 25:02d}.md",
                    f"# Page {i % 25}\n\nRevision {i}: how to configure rollouts and rewards.\n")
        return (f"fix: handle empty batches in step {i}", module,
                f'"""Training utilities, revision {i}."""\n\n\ndef step_{i}(batch):\n'
                f"    if not batch:\n        return batch\n    return [x for x in batch if x is not None]\n")

    def build_repos(self, dest: Path) -> dict[str, Path]:
        """One git repository per framework under `dest` (kept and extended when already built)."""
        dest.mkdir(parents=True, exist_ok=True)
        return {f.framework_id: self._build_repo(k, dest / f.framework_id) for k, f in enumerate(self.frameworks)}

    def _build_repo(self, k: int, path: Path) -> Path:
        stamp_file = path / "rltrack-large-world"
        want = self.commit_count()
        key = f"{GENERATOR_VERSION}:{self.scale}:{self.size.frameworks}"
        have = 0
        if stamp_file.exists():
            stamp_key, _, count = stamp_file.read_text().strip().rpartition(" ")
            have = int(count) if stamp_key == key else 0
        if have > want or (have == 0 and path.exists()):
            shutil.rmtree(path)
            have = 0
        if have == want:
            return path
        if have == 0:
            subprocess.run(["git", "init", "-q", "--bare", "-b", "main", str(path)], check=True)
        stream = self.commit_stream(k, have, want, continue_from_head=have > 0)
        proc = subprocess.run(["git", "-C", str(path), "fast-import", "--quiet", "--done"],
                              input=stream + b"done\n", capture_output=True, check=False)
        if proc.returncode != 0:
            raise RuntimeError(f"git fast-import failed in {path}: {proc.stderr.decode(errors='replace')[:500]}")
        stamp_file.write_text(f"{key} {want}\n")
        return path


# --- serving -------------------------------------------------------------------------------------
@contextmanager
def serve_large_arxiv(world: LargeWorld) -> Iterator[str]:
    """The fake arXiv API over `world.papers` (query results cached per query); yields its base URL."""
    from worlds.sample.fake_arxiv import FakeArxiv

    cache: dict[tuple[str, str, str], list[Paper]] = {}

    class CachedFakeArxiv(FakeArxiv):
        def _select(self, search_query, sort_by, order):
            key = (search_query, sort_by, order)
            if key not in cache:
                cache[key] = super()._select(search_query, sort_by, order)
            return cache[key]

    with CachedFakeArxiv(world.papers) as fake:
        yield fake.base_url


def _query(**params: object) -> tuple:
    return tuple(sorted((k, str(v)) for k, v in params.items()))


# the listings ingestion.github.source asks for (without `since` and `page`)
WARM_ISSUES_QUERY = _query(state="all", sort="updated", direction="asc", per_page=GITHUB_PER_PAGE)
WARM_COMMENTS_QUERY = _query(sort="updated", direction="asc", per_page=GITHUB_PER_PAGE)


@contextmanager
def serve_large_github(world: LargeWorld) -> Iterator[str]:
    """The fake GitHub over `world.github_repos`, item lists cached per listing; yields its base URL."""
    from urllib.parse import parse_qs, urlsplit

    from worlds.sample import fake_github as fg

    renames = {f.former_repo: f.repo for f in world.frameworks if f.former_repo}
    state = fg.FakeGitHubState(repos=world.github_repos, renames=renames, faults=fg.Faults(), clock=time.time)
    cache: dict[tuple, list[dict]] = {}

    def listing(base: str, key: tuple) -> list[dict]:
        with state.lock:
            items = cache.get(key)
        if items is None:
            full, rest, query = key
            params, threads = dict(query), state.repos[full]
            if rest == ("issues",):
                items = [fg.issue_json(base, full, t) for t in threads
                         if params.get("state", "open") in ("all", t.state)]
            else:
                items = [c for t in threads for c in fg.comments_json(base, full, t)]
            items = fg._sorted(items, params, "created")
            with state.lock:
                cache[key] = items
        return items

    class CachedHandler(fg._Handler):
        def do_GET(self) -> None:  # noqa: N802
            parts = urlsplit(self.path)
            params = {k: v[-1] for k, v in parse_qs(parts.query).items()}
            segs = [s for s in parts.path.split("/") if s]
            rest = segs[3:]
            full = "/".join(segs[1:3])
            if len(segs) < 3 or rest not in (["issues"], ["issues", "comments"]) or full in state.renames:
                return super().do_GET()
            if full not in state.repos:
                return self._send(404, {"message": "Not Found"})
            # the sorted listing is rendered once (at start-up, see below); `since` filters it
            key = (full, tuple(rest), _query(**{k: v for k, v in params.items() if k not in ("page", "since")}))
            with state.lock:
                state.calls.append(self.path)
                remaining = max(0, fg.RATE_LIMIT - len(state.calls))
            items = listing(self._base(), key)
            if "since" in params:
                items = [i for i in items if i["updated_at"] >= params["since"]]
            return self._page(items, params, self._rate_headers(remaining, state.clock() + 3600))

    handler = type("LargeHandler", (CachedHandler,), {"state": state})
    with serve_on_loopback(handler, "large-github") as base_url:
        for full in state.repos:  # render the listings the source asks for before serving
            for rest, query in ((("issues",), WARM_ISSUES_QUERY), (("issues", "comments"), WARM_COMMENTS_QUERY)):
                listing(base_url, (full, rest, query))
        yield base_url


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="large_world", description=__doc__.split("\n\n")[0])
    parser.add_argument("command", choices=("build", "serve"))
    parser.add_argument("--scale", type=float, default=1.0)
    parser.add_argument("--frameworks", type=int, default=20)
    parser.add_argument("--grown", action="store_true", help="include the 1%% of new data")
    parser.add_argument("--out", type=Path, help="build: folder for repos/ and frameworks.csv")
    args = parser.parse_args(argv)
    world = LargeWorld(args.scale, args.frameworks, args.grown)
    if args.command == "build":
        out = args.out or Path("large_world")
        from worlds.sample.serve import write_reports_csv

        world.write_frameworks_csv(out / "frameworks.csv")
        write_reports_csv(out / "tech_reports.csv")
        world.build_repos(out / "repos")
        print(json.dumps({"frameworks_csv": str(out / "frameworks.csv"), "repos": str(out / "repos")}))
        return 0
    _ = world.papers, world.github_repos  # render up front so the first request is not slow
    from worlds.sample.report_texts import serve_sample_arxiv_web

    # technical reports: the sample's (their list is written by `build`)
    with serve_large_arxiv(world) as arxiv_url, serve_large_github(world) as github_url, \
            serve_sample_arxiv_web() as web_url:
        print(json.dumps({"arxiv": arxiv_url, "github": github_url, "arxiv_web": web_url}), flush=True)
        sys.stdin.read()  # serve until the parent closes our stdin
    return 0


if __name__ == "__main__":
    sys.exit(main())
