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
`RLTRACK_GIT_ENGINE=pydriller` switches to the slower pydriller engine (same rows).
Files (or commits) whose git objects cannot be read (partial clones, corruption) are mined without
them and listed in `git_quarantine` (merge on repo, sha, path) with the reason; the rest loads.

Incremental: the source state remembers the last mined commit per framework and branch, and a
run mines only `last..HEAD`. If `last` is no longer an ancestor of HEAD (force push), the branch
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
import sys
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path

import dlt

from ingestion import config
from ingestion.mentions import CONTEXT_RANK, word_zipf
from ingestion.contribution_rules import codeowners_summary, extract_rules
from ingestion.git_mining import (
    MAX_SCAN_BYTES_PER_FILE,
    MinedCommit,
    MiningStats,
    Quarantined,
    count_commits,
    git,
    is_ancestor,
    mine_commits,
    resolve_ref,
)
from ingestion.world import World

log = logging.getLogger(__name__)

MINED_REF = "refs/rltrack/mined/{branch}"
MAX_HEAD_FILE_BYTES = 200_000
_DELETED = {"deleted": {"name": "deleted", "data_type": "bool", "hard_delete": True}}


def _columns(text: str = "", bigint: str = "", bool_: str = "", timestamp: str = "") -> dict:
    """Column hints (names by type), so a table exists with its columns before any row arrives."""
    types = {"text": text, "bigint": bigint, "bool": bool_, "timestamp": timestamp}
    return {name: {"data_type": t, **({"timezone": True} if t == "timestamp" else {})}
            for t, names in types.items() for name in names.split()}


_KEY = "framework_id repo sha"
COMMIT_COLUMNS = {**_columns(f"{_KEY} parents author_name author_domain message branch",
                             "insertions deletions files_changed", "is_merge on_default_branch",
                             "authored_at committed_at"), **_DELETED}
FILE_COLUMNS = {**_columns(f"{_KEY} path old_path change_type", "added_lines deleted_lines",
                           "is_binary is_submodule scan_truncated"), **_DELETED}
MENTION_COLUMNS = {**_columns(f"{_KEY} path kind value location"), **_DELETED}
QUARANTINE_COLUMNS = _columns(f"{_KEY} path object_id reason", timestamp="noted_at")  # path '': whole commit
HEAD_FILE_COLUMNS = {**_columns("framework_id repo head_sha path kind content", "size_bytes"), **_DELETED}
QUARANTINE_TABLE = "git_quarantine"


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


def repository_for(fw: config.Framework, world: World) -> Path:
    """The local repository to mine for `fw` (cloning or fetching it as needed)."""
    location = world.repository(fw.framework_id)
    if location and Path(location).is_dir():
        return Path(location)
    url = location or world.remote_template.format(repo=fw.repo)
    return ensure_clone(url, Path(world.repos_dir) / fw.framework_id, fw.default_branch)


# --- rows ------------------------------------------------------------------------------------
def commit_row(fw: config.Framework, branch: str, c: MinedCommit, deleted: bool = False,
               repo: str | None = None) -> dict:
    return {
        "framework_id": fw.framework_id, "repo": repo or fw.repo, "sha": c.sha,
        "parents": json.dumps(c.parents), "is_merge": c.is_merge,
        "author_name": c.author_name, "author_domain": c.author_domain,
        "authored_at": c.authored_at, "committed_at": c.committed_at, "message": c.message,
        "insertions": sum(f.added_lines or 0 for f in c.files),
        "deletions": sum(f.deleted_lines or 0 for f in c.files),
        "files_changed": len(c.files), "branch": branch, "on_default_branch": True,
        "deleted": deleted,
    }


def file_rows(fw: config.Framework, c: MinedCommit, deleted: bool = False,
              repo: str | None = None) -> Iterator[dict]:
    for f in c.files:
        yield {
            "framework_id": fw.framework_id, "repo": repo or fw.repo, "sha": c.sha, "path": f.path,
            "old_path": f.old_path, "change_type": f.change_type, "added_lines": f.added_lines,
            "deleted_lines": f.deleted_lines, "is_binary": f.is_binary,
            "is_submodule": f.is_submodule, "scan_truncated": f.scan_truncated, "deleted": deleted,
        }


def mention_rows(fw: config.Framework, c: MinedCommit, deleted: bool = False,
                 repo: str | None = None) -> Iterator[dict]:
    """One row per (path, location, kind, value), with the strongest context it was seen in
    (a path listed twice keeps one row: the merge key must stay unique)."""
    base = {"framework_id": fw.framework_id, "repo": repo or fw.repo, "sha": c.sha, "deleted": deleted}
    best: dict[tuple[str, str, str, str], str] = {}
    for g in c.mention_groups:
        for kind, value, context in g.items:
            key = (g.path, g.location, kind, value)
            if key not in best or CONTEXT_RANK[context] < CONTEXT_RANK[best[key]]:
                best[key] = context
    for (path, location, kind, value), context in best.items():
        yield {**base, "path": path, "kind": kind, "value": value, "location": location, "context": context,
               "word_zipf": word_zipf(value) if kind == "token" else None}


def batched(rows: Iterable[dict], size: int = 5_000) -> Iterator[list[dict]]:
    """Rows in lists: dlt extracts a list of items far faster than the items one by one."""
    batch: list[dict] = []
    for row in rows:
        batch.append(row)
        if len(batch) >= size:
            yield batch
            batch = []
    if batch:
        yield batch


# --- one run ---------------------------------------------------------------------------------
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

    def deletions(self) -> Iterator[tuple[str, MinedCommit]]:
        """(repo name, commit) pairs whose rows are deleted from the warehouse."""
        for c in self.removed:
            yield self.framework.repo, c
        if self.renamed_from:
            for c in (*self.removed, *self.commits):
                yield self.renamed_from, c
    head_changed: bool = False
    _head_files: list[dict] | None = None

    def head_files(self) -> list[dict]:
        """Contribution files and docs at HEAD (computed once per run)."""
        if self._head_files is None:
            self._head_files = ([] if self.head_sha is None or self.path is None
                                else head_files(self.path, self.head_sha, self.framework.docs_paths))
        return self._head_files


def _state() -> dict:
    try:
        return dlt.current.source_state()
    except Exception:  # resources iterated outside a pipeline (tests, notebooks)
        return _LOCAL_STATE


_LOCAL_STATE: dict = {}


def _progress(total: int, label: str):
    """A tqdm bar on a terminal, nothing otherwise."""
    if not sys.stderr.isatty() or total < 50:
        return None
    try:
        from tqdm import tqdm
    except ImportError:  # pragma: no cover
        return None
    return tqdm(total=total, desc=f"mining {label}", unit="commit", file=sys.stderr, leave=False)


class MiningRun:
    """Mines each framework once per source run; every resource reads the cached result."""

    def __init__(self, frameworks: list[config.Framework], world: World, engine: str, max_scan_bytes: int,
                 full: bool) -> None:
        self.frameworks = frameworks
        self.world = world
        self.engine = engine
        self.max_scan_bytes = max_scan_bytes
        self.full = full
        self.stats = MiningStats()
        self._results: dict[str, RepoResult] = {}

    def results(self) -> Iterator[RepoResult]:
        for fw in self.frameworks:
            yield self.result(fw)

    def rows(self, to_rows: Callable[[RepoResult, MinedCommit, dict], Iterable[dict]]) -> Iterator[dict]:
        """Every framework's rows: deletions for commits a rewrite dropped (under the name they were
        stored with), then the newly mined commits. `to_rows(result, commit, row_kwargs)`."""
        for r in self.results():
            for name, c in r.deletions():
                yield from to_rows(r, c, {"deleted": True, "repo": name})
            for c in r.commits:
                yield from to_rows(r, c, {})

    def result(self, fw: config.Framework) -> RepoResult:
        if fw.framework_id not in self._results:
            self._results[fw.framework_id] = self._mine(fw)
        return self._results[fw.framework_id]

    def _mine_range(self, repo: Path, rev_range: str, stats: MiningStats, label: str,
                    quarantine: list[Quarantined] | None = None) -> list[MinedCommit]:
        if self.engine == "pydriller":
            from ingestion.git_pydriller import pydriller_commits

            return list(pydriller_commits(repo, rev_range, stats, max_scan_bytes=self.max_scan_bytes))
        bar = _progress(count_commits(repo, rev_range), label)
        try:
            return list(mine_commits(repo, rev_range, stats, max_scan_bytes=self.max_scan_bytes,
                                     on_commit=(lambda _c: bar.update(1)) if bar else None,
                                     quarantine=quarantine))
        finally:
            if bar is not None:
                bar.close()

    def _mine(self, fw: config.Framework) -> RepoResult:
        stats = MiningStats()
        repo = repository_for(fw, self.world)
        branch = fw.default_branch
        head = resolve_ref(repo, f"refs/heads/{branch}")
        if head is None:
            head = resolve_ref(repo, "HEAD")
            if head is None:
                stats.empty_repos += 1
                log.warning("git_history: %s has no commits (%s)", fw.framework_id, repo)
                self.stats.add(stats)
                return RepoResult(fw, repo, branch, None)
            stats.missing_branches += 1
            log.warning("git_history: %s has no branch %r, mining HEAD", fw.framework_id, branch)
        key = f"{fw.framework_id}@{branch}"
        remembered = _state().setdefault("last_mined", {})
        previous = remembered.get(key) or {}
        last = None if self.full else previous.get("sha")
        result = RepoResult(fw, repo, branch, head, head_changed=last != head)
        if previous.get("repo") and previous["repo"] != fw.repo:
            # renamed on GitHub: rows move to the current name (re-mined in full), old-name rows go
            result.renamed_from = previous["repo"]
            result.head_changed = True
            log.warning("git_history: %s moved %s -> %s; re-keying its rows", fw.framework_id,
                        previous["repo"], fw.repo)
            result.commits = self._mine_range(repo, head, stats, fw.framework_id, result.quarantined)
            if last and resolve_ref(repo, last) and not is_ancestor(repo, last, head):
                kept = {c.sha for c in result.commits}
                result.removed = [c for c in self._mine_range(repo, last, MiningStats(), fw.framework_id)
                                  if c.sha not in kept]
        elif last == head:
            pass
        elif last and resolve_ref(repo, last) and is_ancestor(repo, last, head):
            result.commits = self._mine_range(repo, f"{last}..{head}", stats, fw.framework_id, result.quarantined)
        elif last:
            stats.history_rewrites += 1
            base = git(repo, "merge-base", last, head, check=False) if resolve_ref(repo, last) else ""
            log.warning("git_history: %s@%s was rewritten (%s is not an ancestor of %s); "
                        "re-mining from %s", fw.framework_id, branch, last[:12], head[:12],
                        base[:12] or "the root")
            result.commits = self._mine_range(repo, f"{base}..{head}" if base else head, stats,
                                              fw.framework_id, result.quarantined)
            if resolve_ref(repo, last):
                kept = {c.sha for c in result.commits}
                gone = self._mine_range(repo, f"{base}..{last}" if base else last, MiningStats(),
                                        fw.framework_id)
                result.removed = [c for c in gone if c.sha not in kept]
            else:
                log.warning("git_history: objects of %s are gone; stale rows cannot be removed", last[:12])
        else:
            result.commits = self._mine_range(repo, head, stats, fw.framework_id, result.quarantined)
        if result.quarantined:
            log.warning("git_history: %s: %d item(s) quarantined: %s", fw.framework_id, len(result.quarantined),
                        "; ".join(f"{q.sha[:12]} {q.path or '(commit)'}" for q in result.quarantined[:20]))
        git(repo, "update-ref", MINED_REF.format(branch=branch), head, check=False)
        remembered[key] = {"sha": head, "repo": fw.repo,
                           "mined_at": datetime.now(timezone.utc).isoformat(timespec="seconds")}
        log.info("git_history: %s %s..%s: %d new commits, %d removed, stats %s", fw.framework_id,
                 (last or "root")[:12], head[:12], len(result.commits), len(result.removed), stats.as_dict())
        self.stats.add(stats)
        return result


# --- HEAD snapshot ---------------------------------------------------------------------------
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
    if any(lower.startswith(d.lower()) for d in docs_paths) and name.endswith((".md", ".mdx", ".rst")):
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
):
    """Commits, changed files, mentions and HEAD contribution files of the world's frameworks
    (default: the live world).

    `full=True` ignores the remembered state and re-mines every branch from its root."""
    world = world or World.live()
    run = MiningRun(
        _frameworks(frameworks, world), world,
        (engine or os.environ.get("RLTRACK_GIT_ENGINE", "git")).lower(), max_scan_bytes, full,
    )

    # jsonl load files: DuckDB reads them in bulk (INSERT VALUES files were ~15x slower to load)
    @dlt.resource(name="commits", primary_key=("repo", "sha"), write_disposition="merge", columns=COMMIT_COLUMNS,
                  file_format="jsonl")
    def commits() -> Iterator[list[dict]]:
        yield from batched(run.rows(lambda r, c, kw: [commit_row(r.framework, r.branch, c, **kw)]))
        log.info("git_history: run stats %s", run.stats.as_dict())

    @dlt.resource(name="commit_files", primary_key=("repo", "sha", "path"), write_disposition="merge",
                  columns=FILE_COLUMNS, file_format="jsonl")
    def commit_files() -> Iterator[list[dict]]:
        yield from batched(run.rows(lambda r, c, kw: file_rows(r.framework, c, **kw)))

    @dlt.resource(name="commit_mentions", primary_key=("repo", "sha", "path", "kind", "value", "location"),
                  write_disposition="merge", columns=MENTION_COLUMNS, file_format="jsonl")
    def commit_mentions() -> Iterator[list[dict]]:
        yield from batched(run.rows(lambda r, c, kw: mention_rows(r.framework, c, **kw)))

    @dlt.resource(name="repo_files_at_head", primary_key=("framework_id", "path"), write_disposition="merge",
                  columns=HEAD_FILE_COLUMNS, file_format="jsonl")
    def repo_files_at_head() -> Iterator[dict]:
        known = _state().setdefault("head_files", {})
        for r in run.results():
            if r.head_sha is None or r.path is None or not r.head_changed:
                continue
            fw = r.framework
            rows = r.head_files()
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
            files = r.head_files()
            rules = extract_rules(files)
            yield {"framework_id": r.framework.framework_id, "repo": r.framework.repo, "head_sha": r.head_sha,
                   **{k: rules[k] for k in ("issue_first", "tests_required", "paper_link_required",
                                            "cla_required", "pr_title_format", "pr_title_pattern")},
                   **codeowners_summary(files),
                   "evidence": json.dumps(rules["evidence"]), "source_files": json.dumps(rules["source_files"])}

    @dlt.resource(name=QUARANTINE_TABLE, primary_key=("repo", "sha", "path"), write_disposition="merge",
                  columns=QUARANTINE_COLUMNS, file_format="jsonl")
    def git_quarantine() -> Iterator[dict]:
        noted_at = datetime.now(timezone.utc)
        for r in run.results():
            for q in r.quarantined:
                yield {"framework_id": r.framework.framework_id, "repo": r.framework.repo, "sha": q.sha,
                       "path": q.path, "object_id": q.object_id, "reason": q.reason, "noted_at": noted_at}

    return commits, commit_files, commit_mentions, repo_files_at_head, contribution_rules, git_quarantine
