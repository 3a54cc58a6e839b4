"""The same mining done with pydriller: the reference the fast miner is checked against, the
fallback engine (`RLTRACK_GIT_ENGINE=pydriller`), and the naive baseline of the benchmark.

pydriller walks commits with GitPython and builds one diff per commit; it is simple and exact
but slow, because every file's full patch (with context) is produced and decoded in Python.
Produces `MinedCommit`s with the same fields and the same mention rules as `git_mining`.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timezone
from pathlib import Path

from pydriller import ModificationType, Repository
from pydriller.domain.commit import ModifiedFile

from ingestion.git.mining import (
    MAX_SCAN_BYTES_PER_FILE,
    FileChange,
    MinedCommit,
    MiningStats,
    git,
    bound_mentions,
    mentions_in,
)

_CHANGE_TYPES = {
    ModificationType.ADD: "added",
    ModificationType.DELETE: "deleted",
    ModificationType.MODIFY: "modified",
    ModificationType.RENAME: "renamed",
    ModificationType.COPY: "copied",
    ModificationType.UNKNOWN: "unknown",
}


def _is_binary(mf) -> bool:
    raw = getattr(mf, "_c_diff", None)
    data = getattr(raw, "diff", b"") if raw is not None else b""
    return isinstance(data, bytes) and data.startswith(b"Binary files")


def _modified_files(commit) -> list:
    """pydriller leaves merge commits without files; diff them against the first parent."""
    if len(commit.parents) < 2:
        return commit.modified_files
    raw = commit._c_object
    return [ModifiedFile(d) for d in raw.parents[0].diff(raw, create_patch=True)]


def pydriller_commits(
    repo: Path,
    rev_range: str,
    stats: MiningStats | None = None,
    *,
    max_scan_bytes: int = MAX_SCAN_BYTES_PER_FILE,
    limit: int | None = None,
) -> Iterator[MinedCommit]:
    """Mine the first-parent commits of `rev_range` (e.g. `main`, `abc..main`), newest first."""
    stats = stats if stats is not None else MiningStats()
    shas = git(repo, "rev-list", "--first-parent", rev_range, check=False).split()
    if limit is not None:
        shas = shas[:limit]
    if not shas:
        return
    wanted = set(shas)
    found: dict[str, MinedCommit] = {}
    # newest first from the range's tip; `only_commits` keeps the walk to the range
    tip = git(repo, "rev-parse", rev_range.split("..")[-1] or "HEAD")
    walk = Repository(str(repo), to_commit=tip, only_commits=shas, order="reverse")
    for c in walk.traverse_commits():
        mined = MinedCommit(
            sha=c.hash, parents=list(c.parents), author_name=c.author.name or "",
            author_email=c.author.email or "",
            authored_at=c.author_date.astimezone(timezone.utc),
            committed_at=c.committer_date.astimezone(timezone.utc), message=c.msg.strip("\n"),
        )
        if mined.message:
            mined.mention_groups.extend(mentions_in(mined.message, "", "message"))
        for mf in _modified_files(c):
            path = mf.new_path or mf.old_path or ""
            binary = _is_binary(mf)
            fc = FileChange(
                path=path,
                old_path=mf.old_path if mf.change_type in (ModificationType.RENAME, ModificationType.COPY) else None,
                change_type=_CHANGE_TYPES.get(mf.change_type, "unknown"),
                added_lines=None if binary else mf.added_lines,
                deleted_lines=None if binary else mf.deleted_lines,
                is_binary=binary,
            )
            mined.files.append(fc)
            added = [text for _, text in mf.diff_parsed["added"]] if not binary else []
            if added:
                kept, size = [], 0
                for text in added:
                    if size >= max_scan_bytes:
                        fc.scan_truncated = True
                        break
                    kept.append(text)
                    size += len(text.encode("utf-8", errors="replace")) + 2
                mined.mention_groups.extend(mentions_in("\n".join(kept), path, "added_line",
                                                        fc.change_type in ("added", "renamed", "copied")))
        bound_mentions(mined, stats)
        stats.commits += 1
        stats.merge_commits += mined.is_merge
        stats.files += len(mined.files)
        stats.mentions += mined.mention_count
        found[mined.sha] = mined
        if len(found) == len(wanted):
            break
    for sha in shas:
        if sha in found:
            yield found[sha]
