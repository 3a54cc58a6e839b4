"""One framework's mining job: what the dlt source (`git_history.py`) hands to a worker process.

A job gets its framework's repository (already cloned or fetched), HEAD and what the source state
remembers (the last mined commit, the open quarantine items) and returns a `RepoResult`: the rows to
load as Arrow tables, the quarantined items, the items resolved this run, and the state to keep.
It touches no dlt state and imports no dlt, so the source can run several jobs in parallel
processes while it alone writes the warehouse. Any failure costs only its framework (`failure`).

Open quarantine items are retried: when an object that could not be read is readable again (the
blob was fetched again), the commit is mined again whole; its rows replace the old ones (merge on
keys; rows the old mining had and the new one lacks are deleted) and the item is resolved.
"""

from __future__ import annotations

import logging
import os
import pickle
import queue
import subprocess
import sys
import threading
import traceback
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path

import pyarrow as pa

from ingestion import config
from ingestion.git.mining import (
    MinedCommit,
    MiningStats,
    Quarantined,
    count_commits,
    git,
    is_ancestor,
    mine_commit,
    mine_commits,
    resolve_ref,
)
from ingestion.git.rows import (
    COMMIT_COLUMNS,
    COMMIT_KEY,
    FILE_COLUMNS,
    FILE_KEY,
    commit_row,
    file_rows,
    mention_table,
    miner_version,
    rows_table,
)

log = logging.getLogger(__name__)

MINED_REF = "refs/rltrack/mined/{branch}"
TABLES = ("commits", "commit_files", "commit_mentions")


@dataclass
class MiningJob:
    framework: config.Framework
    repo: Path
    branch: str
    head: str
    previous: dict  # the state entry of the last run: sha, repo, mined_at ({} on a first run)
    open_items: list[dict]  # quarantine rows still open (see `quarantine_row`)
    engine: str = "git"
    max_scan_bytes: int = 1_000_000
    full: bool = False

    @property
    def last(self) -> str | None:
        return None if self.full else self.previous.get("sha")

    @property
    def mined_by_another_miner(self) -> bool:
        """The rows in the warehouse came from another miner version: the branch is mined again whole."""
        return self.last is not None and self.previous.get("miner_version") != miner_version()


@dataclass
class RepoResult:
    framework: config.Framework
    path: Path | None
    branch: str
    head_sha: str | None
    commits: list[MinedCommit] = field(default_factory=list)
    removed: list[MinedCommit] = field(default_factory=list)  # left the branch (force push)
    renamed_from: str | None = None  # former owner/name whose rows must go
    quarantined: list[Quarantined] = field(default_factory=list)  # files/commits that could not be mined
    remined: list[tuple[MinedCommit, MinedCommit]] = field(default_factory=list)  # (as before, now) retried
    resolved: list[dict] = field(default_factory=list)  # quarantine rows resolved this run
    failure: str | None = None  # the repository could not be cloned, fetched or read: nothing mined
    head_changed: bool = False
    remembered: dict | None = None  # the state entry to keep (None: keep the old one)
    open_items: list[dict] = field(default_factory=list)  # quarantine rows open after this run
    stats: MiningStats = field(default_factory=MiningStats)
    tables: dict[str, pa.Table] = field(default_factory=dict)  # rows to load, built by `build_tables`

    def deletions(self) -> Iterator[tuple[str, MinedCommit]]:
        """(repo name, commit) pairs whose rows are deleted from the warehouse."""
        for c in self.removed:
            yield self.framework.repo, c
        if self.renamed_from:
            for c in (*self.removed, *self.commits):
                yield self.renamed_from, c

    def row_sources(self) -> Iterator[tuple[MinedCommit, bool, str | None]]:
        """(commit, deleted, repo name) for every row this run writes: deletions first, then the
        mined commits, then the retried ones (the rows the old mining had and the new one lacks
        are deleted; the commit row itself is replaced)."""
        for name, c in self.deletions():
            yield c, True, name
        for c in self.commits:
            yield c, False, None
        for before, now in self.remined:
            yield _only_in(before, now), True, None
            yield now, False, None

    def build_tables(self) -> None:
        """The rows as Arrow tables; the commits are dropped afterwards (a worker sends back only tables)."""
        fw, sources = self.framework, list(self.row_sources())
        self.tables = {
            "commits": rows_table((commit_row(fw, self.branch, c, d, r) for c, d, r in sources
                                   if not isinstance(c, _Leftover)),
                                  COMMIT_COLUMNS, COMMIT_KEY),
            "commit_files": rows_table((row for c, d, r in sources for row in file_rows(fw, c, d, r)),
                                       FILE_COLUMNS, FILE_KEY),
            "commit_mentions": mention_table(fw, sources),
        }
        self.commits, self.removed, self.remined = [], [], []


class _Leftover(MinedCommit):
    """The files and mentions an earlier mining of a commit gave that a new one does not."""


def _only_in(before: MinedCommit, now: MinedCommit) -> MinedCommit:
    files = {f.path for f in now.files}
    keys = {(g.path, g.location, kind, value) for g in now.mention_groups for kind, value, _ in g.items}
    gone = _Leftover(before.sha, before.parents, before.author_name, before.author_email, before.authored_at,
                     before.committed_at, before.message)
    gone.files = [f for f in before.files if f.path not in files]
    gone.mention_groups = [
        g2 for g in before.mention_groups
        if (g2 := type(g)(g.path, g.location, tuple(
            it for it in g.items if (g.path, g.location, it[0], it[1]) not in keys)))]
    return gone


# --- the job ---------------------------------------------------------------------------------
def quarantine_row(fw: config.Framework, q: Quarantined, noted_at: str, resolved_at: str | None = None) -> dict:
    """A `git_quarantine` row as kept in the source state (times as ISO text)."""
    return {"framework_id": fw.framework_id, "repo": fw.repo, "sha": q.sha, "path": q.path,
            "object_id": q.object_id, "reason": q.reason, "noted_at": noted_at, "resolved_at": resolved_at}


def run_job(job: MiningJob) -> RepoResult:
    """Mine one framework (see the module docstring); a failure is returned, never raised."""
    fw = job.framework
    try:
        result = _mine(job)
        _retry(job, result)
        result.build_tables()
    except Exception as exc:  # noqa: BLE001 - one framework's failure must not stop the others
        log.warning("git_history: %s: mining failed: %s", fw.framework_id, "".join(
            traceback.format_exception_only(exc)).strip())
        return failed(fw, job.branch, job.open_items, f"mining failed: {exc}"[:1000], job.repo)
    return result


def failed(fw: config.Framework, branch: str, open_items: list[dict], reason: str, path: Path | None = None) -> RepoResult:
    """The result of a framework whose repository could not be had or read: nothing mined, the
    state kept (the next run tries again), one quarantine row for the whole repository."""
    q = Quarantined("", "", "", reason)
    row = quarantine_row(fw, q, datetime.now(timezone.utc).isoformat())
    return RepoResult(fw, path, branch, None, quarantined=[q], failure=reason,
                      open_items=[*(i for i in open_items if i["sha"] or i["path"]), row])


def _progress(total: int, label: str):
    """A tqdm bar on a terminal, nothing otherwise."""
    if not sys.stderr.isatty() or total < 50:
        return None
    try:
        from tqdm import tqdm
    except ImportError:  # pragma: no cover
        return None
    return tqdm(total=total, desc=f"mining {label}", unit="commit", file=sys.stderr, leave=False)


def _mine_range(job: MiningJob, rev_range: str, stats: MiningStats,
                quarantine: list[Quarantined] | None = None) -> list[MinedCommit]:
    if job.engine == "pydriller":
        from ingestion.git.pydriller_path import pydriller_commits

        return list(pydriller_commits(job.repo, rev_range, stats, max_scan_bytes=job.max_scan_bytes))
    bar = _progress(count_commits(job.repo, rev_range), job.framework.framework_id)
    try:
        return list(mine_commits(job.repo, rev_range, stats, max_scan_bytes=job.max_scan_bytes,
                                 on_commit=(lambda _c: bar.update(1)) if bar else None, quarantine=quarantine))
    finally:
        if bar is not None:
            bar.close()


def _mine(job: MiningJob) -> RepoResult:
    fw, repo, branch, head, last = job.framework, job.repo, job.branch, job.head, job.last
    stats = MiningStats()
    previous = job.previous
    result = RepoResult(fw, repo, branch, head, head_changed=last != head, stats=stats)
    renamed = bool(previous.get("repo")) and previous["repo"] != fw.repo
    if renamed or job.mined_by_another_miner:
        # renamed on GitHub: rows move to the current name, old-name rows go; a new miner version:
        # every commit's rows are written again (stg_git__commit_mentions drops the old version's rest)
        if renamed:
            result.renamed_from = previous["repo"]
            log.warning("git_history: %s moved %s -> %s; re-keying its rows", fw.framework_id, previous["repo"], fw.repo)
        else:
            log.warning("git_history: %s was mined by miner %s; mining it again with %s", fw.framework_id,
                        previous.get("miner_version") or "(unversioned)", miner_version())
        result.head_changed = True
        result.commits = _mine_range(job, head, stats, result.quarantined)
        if last and resolve_ref(repo, last) and not is_ancestor(repo, last, head):
            kept = {c.sha for c in result.commits}
            result.removed = [c for c in _mine_range(job, last, MiningStats()) if c.sha not in kept]
    elif last == head:
        pass
    elif last and resolve_ref(repo, last) and is_ancestor(repo, last, head):
        result.commits = _mine_range(job, f"{last}..{head}", stats, result.quarantined)
    elif last:
        stats.history_rewrites += 1
        base = git(repo, "merge-base", last, head, check=False) if resolve_ref(repo, last) else ""
        log.warning("git_history: %s@%s was rewritten (%s is not an ancestor of %s); re-mining from %s",
                    fw.framework_id, branch, last[:12], head[:12], base[:12] or "the root")
        result.commits = _mine_range(job, f"{base}..{head}" if base else head, stats, result.quarantined)
        if resolve_ref(repo, last):
            kept = {c.sha for c in result.commits}
            gone = _mine_range(job, f"{base}..{last}" if base else last, MiningStats())
            result.removed = [c for c in gone if c.sha not in kept]
        else:
            log.warning("git_history: objects of %s are gone; stale rows cannot be removed", last[:12])
    else:
        result.commits = _mine_range(job, head, stats, result.quarantined)
    if result.quarantined:
        log.warning("git_history: %s: %d item(s) quarantined: %s", fw.framework_id, len(result.quarantined),
                    "; ".join(f"{q.sha[:12]} {q.path or '(commit)'}" for q in result.quarantined[:20]))
    git(repo, "update-ref", MINED_REF.format(branch=branch), head, check=False)
    result.remembered = {"sha": head, "repo": fw.repo, "miner_version": miner_version(),
                         "mined_at": datetime.now(timezone.utc).isoformat(timespec="seconds")}
    log.info("git_history: %s %s..%s: %d new commits, %d removed, stats %s", fw.framework_id,
             (last or "root")[:12], head[:12], len(result.commits), len(result.removed), stats.as_dict())
    return result


def _readable(repo: Path, objects: set[str]) -> set[str]:
    """The objects of `objects` the repository can read now."""
    if not objects:
        return set()
    out = subprocess.run(["git", "-C", str(repo), "cat-file", "--batch-check"],
                         input="".join(f"{o}\n" for o in sorted(objects)).encode(),
                         capture_output=True, check=False).stdout.decode(errors="replace")
    return {line.split()[0] for line in out.splitlines() if line and not line.endswith("missing")}


def _retry(job: MiningJob, result: RepoResult) -> None:
    """Retry the open quarantine items (see the module docstring) and work out what stays open.
    Items this run did not retry stay open as they were; a commit below which the history could
    not be read (object id = the commit) needs a full re-mine and is not retried here."""
    fw, now = job.framework, datetime.now(timezone.utc)
    mined = {c.sha for c in result.commits}
    items = {(i["sha"], i["path"]): i for i in job.open_items}
    by_sha: dict[str, list[dict]] = {}
    for item in items.values():
        if item["sha"] and item["sha"] not in mined and item["object_id"] != item["sha"]:
            by_sha.setdefault(item["sha"], []).append(item)
    readable = _readable(job.repo, {i["object_id"] for group in by_sha.values() for i in group if i["object_id"]})
    untried: set[tuple[str, str]] = {key for key, i in items.items() if i["object_id"] == i["sha"] != ""}
    for sha, group in by_sha.items():
        if not any(i["object_id"] in readable for i in group) or not resolve_ref(job.repo, sha):
            untried.update((sha, i["path"]) for i in group)
            continue
        quarantine: list[Quarantined] = []
        now_commit = mine_commit(job.repo, sha, result.stats, max_scan_bytes=job.max_scan_bytes, quarantine=quarantine)
        files = [i["path"] for i in group if i["path"]]
        before = mine_commit(job.repo, sha, max_scan_bytes=job.max_scan_bytes, left_out=files) if files else None
        result.quarantined += quarantine
        if now_commit is not None:
            result.remined.append((before or _Leftover(sha, [], "", "", now, now, ""), now_commit))
        log.warning("git_history: %s: quarantined commit %s mined again (%d item(s) still unreadable)",
                    fw.framework_id, sha[:12], len(quarantine))
    noted = {(q.sha, q.path): quarantine_row(fw, q, now.isoformat()) for q in result.quarantined}
    result.resolved = [{**i, "resolved_at": now.isoformat()} for key, i in items.items()
                       if key not in untried and key not in noted]
    result.open_items = [*(i for key, i in items.items() if key in untried and key not in noted), *noted.values()]


# --- worker processes ------------------------------------------------------------------------
# A worker is `python -m ingestion.git.jobs`: it reads length-prefixed pickled jobs on stdin and
# writes each result the same way on stdout. A plain interpreter (not multiprocessing's spawn, which
# would import the parent's main module: Dagster, dbt) starts in well under a second.
def _send(stream, obj) -> None:
    data = pickle.dumps(obj, protocol=pickle.HIGHEST_PROTOCOL)
    stream.write(len(data).to_bytes(8, "big") + data)
    stream.flush()


def _receive(stream):
    header = stream.read(8)
    if len(header) < 8:
        return None
    return pickle.loads(stream.read(int.from_bytes(header, "big")))


def run_in_workers(jobs: list[MiningJob], workers: int) -> dict[str, RepoResult]:
    """Run `jobs` (largest first, as given) in `workers` worker processes; a job whose worker
    broke is left out (the caller runs it itself)."""
    pending = queue.SimpleQueue()
    for job in jobs:
        pending.put(job)
    done: dict[str, RepoResult] = {}
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        p for p in (str(Path(__file__).resolve().parents[1]), os.environ.get("PYTHONPATH")) if p)}

    def drive() -> None:
        with subprocess.Popen([sys.executable, "-m", "ingestion.git.jobs"], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, env=env) as proc:
            try:
                while True:
                    try:
                        job = pending.get_nowait()
                    except queue.Empty:
                        break
                    _send(proc.stdin, job)
                    result = _receive(proc.stdout)
                    if result is None:
                        log.warning("git_history: a mining worker stopped (exit %s) in %s", proc.poll(),
                                    job.framework.framework_id)
                        break
                    done[job.framework.framework_id] = result
            except (OSError, pickle.PickleError, EOFError) as exc:
                log.warning("git_history: a mining worker failed: %s", exc)
            finally:
                proc.stdin.close()

    threads = [threading.Thread(target=drive, daemon=True) for _ in range(min(workers, len(jobs)))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return done


def _serve() -> None:
    out = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)  # anything else printed goes to stderr, never into the results
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    while (job := _receive(sys.stdin.buffer)) is not None:
        _send(out, run_job(job))


if __name__ == "__main__":
    from ingestion.git.jobs import _serve as serve  # this module by its name: results unpickle as ingestion.git.jobs.*

    serve()
