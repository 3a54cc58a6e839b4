"""dlt source `git_history`: commits, files and mentions of each framework's default branch,
plus the contribution files at HEAD and the rules read from them (`contribution_rules`).

Repositories come from the world (`ingestion.world`): a local repository it names for a framework
(a work tree or a bare mirror) is mined as is; otherwise a bare clone of the URL it names, or of
its remote template (live: `https://github.com/<repo>.git`), is made once in
`<world.repos_dir>/<framework_id>` and `git fetch`ed (forced) afterwards. The remote follows the
registry's current name, so a renamed repository (volcengine/verl -> verl-project/verl) keeps its
clone, state and rows under one framework_id; the `repo` column always holds the current name.
The live world takes `RLTRACK_GIT_REPO_<FRAMEWORK_ID>` and `RLTRACK_GIT_REMOTE_TEMPLATE`.

Mining (see `git_mining.py`): first-parent history of the default branch, one `git log` pass;
`RLTRACK_GIT_ENGINE=pydriller` switches to the slower pydriller engine (same rows). Each framework
is one job (`git_jobs.py`); when two or more have over `PARALLEL_MIN_COMMITS` new commits between
them, the jobs run in `RLTRACK_GIT_WORKERS` (default: the CPU count) worker processes, which send
back Arrow tables. This process alone keeps the dlt state and writes the warehouse.
Files (or commits) whose git objects cannot be read (partial clones, corruption) are mined without
them and listed in `git_quarantine` (merge on repo, sha, path) with the reason; the rest loads.
Open items are retried on later runs and get `resolved_at` once their objects can be read. A
repository that cannot be cloned, fetched or read at all is one row (sha and path ''); the other
frameworks load, and its state is kept so the next run tries it again.

Incremental: the source state remembers the last mined commit per framework and branch, and a
run mines only `last..HEAD`. It remembers the miner version too (`rows.miner_version`, a digest of
the miner's code): a framework mined by another version is mined again whole, its rows carry the
new version, and staging drops the mentions only the old version gave. If `last` is no longer an ancestor of HEAD (force push), the branch
is re-mined from the merge base and the rows of the commits that left the branch are deleted
(rows flagged `deleted`, a dlt `hard_delete` column). A ref `refs/rltrack/mined/<branch>` keeps
the last mined commit's objects alive in the clone so that those rows can be recomputed.
"""

from __future__ import annotations

import json
import logging
import os
import shutil
import subprocess
from collections.abc import Iterable, Iterator
from datetime import datetime, timezone
from pathlib import Path

import dlt
import pyarrow as pa

from ingestion import config
from ingestion.gaps import LoadGaps
from ingestion.git.contribution_rules import codeowners_summary, extract_rules
from ingestion.git.jobs import MiningJob, RepoResult, failed, quarantine_row, run_in_workers, run_job
from ingestion.git.mentions import DOCS_EXTENSIONS
from ingestion.git.rows import (  # noqa: F401 - the row builders are part of this source's interface
    COMMIT_COLUMNS,
    COMMIT_KEY,
    FILE_COLUMNS,
    FILE_KEY,
    HEAD_FILE_COLUMNS,
    MENTION_COLUMNS,
    MENTION_KEY,
    QUARANTINE_COLUMNS,
    commit_row,
    file_rows,
    mention_rows,
)
from ingestion.git.mining import MAX_SCAN_BYTES_PER_FILE, MiningStats, count_commits, git, resolve_ref
from ingestion.world import World

log = logging.getLogger(__name__)

MAX_HEAD_FILE_BYTES = 200_000
QUARANTINE_TABLE = "git_quarantine"
# Arrow tables get dlt's `_dlt_load_id` (staging reads it) and `_dlt_id` (NOT NULL in tables an
# earlier jsonl load created) like dict rows do; dlt adds neither to Arrow items by default.
dlt.config["normalize.parquet_normalizer.add_dlt_load_id"] = True
dlt.config["normalize.parquet_normalizer.add_dlt_id"] = True
# More new commits than this in two or more frameworks: they are mined in parallel worker processes.
PARALLEL_MIN_COMMITS = 1_000


# --- repositories ----------------------------------------------------------------------------
def ensure_clone(url: str, path: Path, branch: str) -> Path:
    """A bare clone of `url`'s `branch` at `path`: cloned once, force-fetched afterwards."""
    refspec = f"+refs/heads/{branch}:refs/heads/{branch}"
    if (path / "HEAD").exists() or (path / ".git").exists():
        git(path, "remote", "set-url", "origin", url, check=False)
        git(path, "fetch", "--quiet", "--prune", "--no-tags", "origin", refspec)
        return path
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f"{path.name}.cloning-{os.getpid()}")
    shutil.rmtree(tmp, ignore_errors=True)
    proc = subprocess.run(["git", "clone", "--quiet", "--bare", "--single-branch", "--no-tags",
                           "--branch", branch, url, str(tmp)], capture_output=True, check=False)
    if proc.returncode != 0:
        raise RuntimeError(f"git clone {url} failed: {proc.stderr.decode(errors='replace')[:500]}")
    tmp.rename(path)
    return path


def _is_repository(path: Path) -> bool:
    """`path` is a repository itself (bare, or a work tree's top), not a folder in or out of one."""
    git_dir = git(path, "rev-parse", "--absolute-git-dir", check=False)
    return bool(git_dir) and Path(git_dir).resolve() in (path.resolve(), (path / ".git").resolve())


def repository_for(fw: config.Framework, world: World) -> Path:
    """The local repository to mine for `fw` (cloning or fetching it as needed)."""
    location = world.repository(fw.framework_id)
    if location and Path(location).is_dir():
        return Path(location)
    url = location or world.remote_template.format(repo=fw.repo)
    return ensure_clone(url, Path(world.repos_dir) / fw.framework_id, fw.default_branch)


# --- one run ---------------------------------------------------------------------------------
def _state() -> dict:
    try:
        return dlt.current.source_state()
    except Exception:  # resources iterated outside a pipeline (tests, notebooks)
        return _LOCAL_STATE


_LOCAL_STATE: dict = {}


def _workers() -> int:
    return max(1, int(os.environ.get("RLTRACK_GIT_WORKERS") or os.cpu_count() or 1))


class MiningRun:
    """Mines every framework once per source run (in parallel processes when the work is large);
    every resource reads the results. Only this process reads or writes the dlt state."""

    def __init__(self, frameworks: list[config.Framework], world: World, engine: str, max_scan_bytes: int,
                 full: bool, workers: int | None = None, gaps: LoadGaps | None = None) -> None:
        self.frameworks = frameworks
        self.gaps = LoadGaps() if gaps is None else gaps
        self.world = world
        self.engine = engine
        self.max_scan_bytes = max_scan_bytes
        self.full = full
        self.workers = workers or _workers()
        self.stats = MiningStats()
        self._results: dict[str, RepoResult] | None = None
        self._head_files: dict[str, list[dict]] = {}

    def results(self) -> Iterator[RepoResult]:
        if self._results is None:
            self._results = self._run()
        for fw in self.frameworks:
            yield self._results[fw.framework_id]

    def tables(self, name: str) -> Iterator[pa.Table]:
        for r in self.results():
            table = r.tables.get(name)
            if table is not None and table.num_rows:
                yield table

    def head_files(self, r: RepoResult) -> list[dict]:
        """Contribution files and docs at HEAD (computed once per run)."""
        fw_id = r.framework.framework_id
        if fw_id not in self._head_files:
            self._head_files[fw_id] = ([] if r.head_sha is None or r.path is None
                                       else head_files(r.path, r.head_sha, r.framework.docs_paths))
        return self._head_files[fw_id]

    def _run(self) -> dict[str, RepoResult]:
        state = _state()
        remembered = state.setdefault("last_mined", {})
        open_items = state.setdefault("open_quarantine", {})
        results: dict[str, RepoResult] = {}
        jobs: list[tuple[int, MiningJob]] = []
        for fw in self.frameworks:
            planned = self._plan(fw, remembered.get(f"{fw.framework_id}@{fw.default_branch}") or {},
                                 open_items.get(fw.framework_id, []))
            if isinstance(planned, RepoResult):
                results[fw.framework_id] = planned
            else:
                jobs.append(planned)
        results.update(self._run_jobs(jobs))
        for fw in self.frameworks:
            r = results[fw.framework_id]
            if r.failure:
                self.gaps.add(f"repository {fw.repo}", r.failure)
            self.stats.add(r.stats)
            if r.remembered is not None:
                remembered[f"{fw.framework_id}@{r.branch}"] = r.remembered
            if r.open_items:
                open_items[fw.framework_id] = r.open_items
            else:
                open_items.pop(fw.framework_id, None)
        log.info("git_history: run stats %s", self.stats.as_dict())
        return results

    def _plan(self, fw: config.Framework, previous: dict, open_items: list[dict]) -> tuple[int, MiningJob] | RepoResult:
        """The job for `fw` and the number of commits it will mine (roughly), or the result when
        there is nothing to mine (an empty repository) or the repository cannot be had."""
        branch = fw.default_branch
        try:
            repo = repository_for(fw, self.world)
        except Exception as exc:  # noqa: BLE001 - one framework's failure must not stop the others
            log.warning("git_history: %s: repository unavailable: %s", fw.framework_id, exc)
            return failed(fw, branch, open_items, f"repository unavailable: {exc}"[:1000])
        head = resolve_ref(repo, f"refs/heads/{branch}")
        if head is None:
            head = resolve_ref(repo, "HEAD")
            if head is None and not _is_repository(repo):
                log.warning("git_history: %s: %s is not a git repository", fw.framework_id, repo)
                return failed(fw, branch, open_items, f"not a git repository: {repo}", repo)
            if head is None:
                log.warning("git_history: %s has no commits (%s)", fw.framework_id, repo)
                return RepoResult(fw, repo, branch, None, stats=MiningStats(empty_repos=1), open_items=open_items)
            log.warning("git_history: %s has no branch %r, mining HEAD", fw.framework_id, branch)
            self.stats.missing_branches += 1
        job = MiningJob(fw, repo, branch, head, previous, open_items, self.engine, self.max_scan_bytes, self.full)
        last = None if job.mined_by_another_miner else job.last
        return (0 if last == head else count_commits(repo, f"{last}..{head}" if last else head)), job

    def _run_jobs(self, jobs: list[tuple[int, MiningJob]]) -> dict[str, RepoResult]:
        """Each job's result, in worker processes when two or more jobs are large enough to pay for
        them (a worker that breaks has its job run here instead)."""
        big = [job for size, job in sorted(jobs, key=lambda j: -j[0]) if size]
        parallel = self.workers > 1 and len(big) > 1 and sum(size for size, _ in jobs) >= PARALLEL_MIN_COMMITS
        done = run_in_workers(big, self.workers) if parallel else {}
        for _, job in jobs:
            if job.framework.framework_id not in done:
                done[job.framework.framework_id] = run_job(job)
        return done



# --- HEAD snapshot ---------------------------------------------------------------------------
_DOCS_SUFFIXES = tuple(f".{ext}" for ext in DOCS_EXTENSIONS)


def classify_head_path(path: str, docs_paths: Iterable[str]) -> str | None:
    """contributing | pr_template | issue_template | codeowners | docs | None."""
    lower = path.lower()
    parent, _, name = lower.rpartition("/")
    top = parent in ("", ".github", "docs")
    if top and name.startswith("contributing"):
        return "contributing"
    if top and name == "codeowners":
        return "codeowners"
    if (top and name.startswith("pull_request_template")) or parent == ".github/pull_request_template":
        return "pr_template"
    if parent == ".github/issue_template" or (top and name.startswith("issue_template")):
        return "issue_template"
    if any(lower.startswith(d.lower()) for d in docs_paths) and name.endswith(_DOCS_SUFFIXES):
        return "docs"
    return None


def head_files(repo: Path, head: str, docs_paths: Iterable[str]) -> list[dict]:
    """Contribution files and docs at `head`: path, size, kind, content (docs capped in size)."""
    listing = subprocess.run(["git", "-C", str(repo), "ls-tree", "-r", "-l", "-z", head],
                             capture_output=True, check=True).stdout
    wanted: list[tuple[str, str, str, int]] = []  # (object, path, kind, size)
    for entry in listing.split(b"\0"):
        if not entry:
            continue
        meta, _, raw_path = entry.partition(b"\t")
        mode, otype, obj, size = meta.split()
        path = raw_path.decode("utf-8", errors="replace")
        kind = classify_head_path(path, docs_paths)
        if otype == b"blob" and kind and mode != b"120000":
            wanted.append((obj.decode(), path, kind, int(size)))
    if not wanted:
        return []
    batch = subprocess.run(["git", "-C", str(repo), "cat-file", "--batch"],
                           input="".join(f"{o}\n" for o, *_ in wanted).encode(),
                           capture_output=True, check=True).stdout
    out, pos = [], 0
    for obj, path, kind, size in wanted:
        header_end = batch.index(b"\n", pos)
        header = batch[pos:header_end].split()
        if header[-1] == b"missing":  # not in a partial clone: the file is left out of the snapshot
            log.warning("git_history: %s: %s at HEAD is unreadable (object %s missing)", repo, path, obj)
            pos = header_end + 1
            continue
        length = int(header[2])
        blob = batch[header_end + 1:header_end + 1 + length]
        pos = header_end + 1 + length + 1
        out.append({"path": path, "kind": kind, "size_bytes": size,
                    "content": blob[:MAX_HEAD_FILE_BYTES].decode("utf-8", errors="replace")})
    return out


# --- the dlt source --------------------------------------------------------------------------
def _frameworks(frameworks: Iterable[str | config.Framework] | None, world: World) -> list[config.Framework]:
    if frameworks is None:
        return world.frameworks()
    registry = world.registry()
    out = []
    for f in frameworks:
        if isinstance(f, config.Framework):
            out.append(f)
        elif f in registry:
            out.append(registry[f])
        else:
            raise ValueError(f"unknown framework {f!r}")
    return out


@dlt.source(name="git_history")
def git_history_source(
    world: World | None = None,
    frameworks: Iterable[str | config.Framework] | None = None,
    engine: str | None = None,
    max_scan_bytes: int = MAX_SCAN_BYTES_PER_FILE,
    full: bool = False,
    gaps: LoadGaps | None = None,
):
    """Commits, changed files, mentions and HEAD contribution files of the world's frameworks
    (default: the live world).

    `full=True` ignores the remembered state and re-mines every branch from its root.
    gaps: where a repository that could not be had or read is noted (it is quarantined too and
    asked again next run)."""
    world = world or World.live()
    run = MiningRun(
        _frameworks(frameworks, world), world,
        (engine or os.environ.get("RLTRACK_GIT_ENGINE", "git")).lower(), max_scan_bytes, full,
        gaps=gaps,
    )

    # The big tables go to dlt as Arrow tables and load from parquet files (no per-row normalising);
    # the small ones as jsonl load files, which DuckDB reads in bulk (INSERT VALUES were ~15x slower).
    @dlt.resource(name="commits", primary_key=COMMIT_KEY, write_disposition="merge", columns=COMMIT_COLUMNS,
                  file_format="parquet")
    def commits() -> Iterator[pa.Table]:
        yield from run.tables("commits")

    @dlt.resource(name="commit_files", primary_key=FILE_KEY, write_disposition="merge", columns=FILE_COLUMNS,
                  file_format="parquet")
    def commit_files() -> Iterator[pa.Table]:
        yield from run.tables("commit_files")

    @dlt.resource(name="commit_mentions", primary_key=MENTION_KEY, write_disposition="merge",
                  columns=MENTION_COLUMNS, file_format="parquet")
    def commit_mentions() -> Iterator[pa.Table]:
        yield from run.tables("commit_mentions")

    @dlt.resource(name="repo_files_at_head", primary_key=("framework_id", "path"), write_disposition="merge",
                  columns=HEAD_FILE_COLUMNS, file_format="jsonl")
    def repo_files_at_head() -> Iterator[dict]:
        known = _state().setdefault("head_files", {})
        for r in run.results():
            if r.head_sha is None or r.path is None or not r.head_changed:
                continue
            fw = r.framework
            rows = run.head_files(r)
            for row in rows:
                yield {"framework_id": fw.framework_id, "repo": fw.repo, "head_sha": r.head_sha,
                       **row, "deleted": False}
            current = sorted(row["path"] for row in rows)
            for gone in sorted(set(known.get(fw.framework_id, [])) - set(current)):
                yield {"framework_id": fw.framework_id, "repo": fw.repo, "head_sha": r.head_sha,
                       "path": gone, "deleted": True}
            known[fw.framework_id] = current

    @dlt.resource(name="contribution_rules", primary_key="framework_id", write_disposition="merge",
                  columns={"pr_title_pattern": {"data_type": "text"}}, file_format="jsonl")
    def contribution_rules() -> Iterator[dict]:
        for r in run.results():
            if r.head_sha is None or not r.head_changed:
                continue
            files = run.head_files(r)
            rules = extract_rules(files)
            yield {"framework_id": r.framework.framework_id, "repo": r.framework.repo, "head_sha": r.head_sha,
                   **{k: rules[k] for k in ("issue_first", "tests_required", "paper_link_required",
                                            "cla_required", "pr_title_format", "pr_title_pattern")},
                   **codeowners_summary(files),
                   "evidence": json.dumps(rules["evidence"]), "source_files": json.dumps(rules["source_files"])}

    @dlt.resource(name=QUARANTINE_TABLE, primary_key=("repo", "sha", "path"), write_disposition="merge",
                  columns=QUARANTINE_COLUMNS, file_format="jsonl")
    def git_quarantine() -> Iterator[dict]:
        """This run's quarantined items (a repository that could not be read: sha and path ''), and
        the items of earlier runs that this run found readable (resolved_at set)."""
        noted_at = datetime.now(timezone.utc).isoformat()
        for r in run.results():
            for row in (*(quarantine_row(r.framework, q, noted_at) for q in r.quarantined), *r.resolved):
                yield {**row, **{k: datetime.fromisoformat(row[k]) for k in ("noted_at", "resolved_at") if row[k]}}

    return commits, commit_files, commit_mentions, repo_files_at_head, contribution_rules, git_quarantine
