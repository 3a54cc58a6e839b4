"""Fast commit mining: one `git log --raw -p -U1` pass over the first-parent history, each commit
parsed as one block of bytes.

What is mined: the first-parent history of the default branch, with each merge commit diffed
against its first parent. That is exactly the sequence of states the default branch went through,
so a method's first commit is the moment it *landed* there (a squash merge, a direct push, or the
merge of a pull request branch; the branch's own commits, which may predate the merge by weeks
or have added and removed lines that never reached the branch, are not mined). Repositories that
squash-merge (trl, verl, ...) have the same history either way.

Per commit we keep metadata, per-file change type (`--raw`) and line counts, and the mentions
(arXiv ids and identifier tokens) found in the message and in *added* lines only. Line counts
are the `+`/`-` lines of the patch: the same numbers `--numstat` prints (equal on trl's whole
history but for one pure rename of a binary file, which numstat shows as binary and we as 0/0,
as pydriller does) without making git diff every file twice.
Deleted and context lines are never scanned (`-U1` keeps git's context output small) and no
diff text is kept. Bad input is survived and counted in `MiningStats`: binary files, diffs
larger than `max_scan_bytes` per file (the rest is not scanned), long lines without spaces
(base64 notebook outputs, minified code: not scanned), non-UTF-8 messages or lines (decoded
with replacement), submodule pointer changes (not scanned), merge commits.

Unreadable objects (a partial clone without its big blobs, a corrupt repository) cost only what
they must: `git log` stops at the first one (`fatal: unable to read <sha>`); the commits it printed
whole are kept, the commit it was in is mined alone with the unreadable files left out of its diff
(they keep a `commit_files` row with unknown line counts), and mining goes on from its parent. Each
such file, or a commit that cannot be read at all, is a `Quarantined` item with the reason.
"""

from __future__ import annotations

import io
import logging
import re
import subprocess
import tempfile
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import BinaryIO

from ingestion.git.mentions import CONTEXT_RANK, contextual_mentions

log = logging.getLogger(__name__)

MAX_SCAN_BYTES_PER_FILE = 1_000_000
# Lines longer than this are scanned only when they look like prose (enough spaces): base64
# images in notebooks, minified JS and data blobs would otherwise flood the token table.
LONG_LINE_BYTES = 1_000
# Token rows kept per commit (arXiv ids are always kept): each name's strongest row first, strongest
# contexts first, repeats last. A vendored import or a mass rename would add tens of thousands; a
# framework's first public commit (200 files of its own code, about 5k distinct names) is read whole.
MAX_TOKENS_PER_COMMIT = 5000
_FORMAT = "%x1e%H%x1f%P%x1f%an%x1f%ae%x1f%aI%x1f%cI%x1f%B%x1d"
_CHANGE_TYPES = {"A": "added", "M": "modified", "D": "deleted", "R": "renamed", "C": "copied",
                 "T": "type_changed", "U": "unmerged", "X": "unknown"}
_SUBMODULE_MODE = "160000"
_NEW_FILE = frozenset({"added", "renamed", "copied"})


@dataclass(slots=True)
class FileChange:
    path: str
    old_path: str | None
    change_type: str
    added_lines: int | None = None  # None for binary files
    deleted_lines: int | None = None
    is_binary: bool = False
    is_submodule: bool = False
    scan_truncated: bool = False


@dataclass(slots=True, frozen=True)
class MentionGroup:
    """The mentions found in one text (a message or one file's added lines), kept compact:
    rows are only expanded when loaded. `items` are (kind, value, context) triples."""

    path: str  # '' for the message
    location: str  # message | added_line
    items: tuple[tuple[str, str, str], ...]

    def __len__(self) -> int:
        return len(self.items)

    @property
    def arxiv_ids(self) -> tuple[str, ...]:
        return tuple(v for k, v, _ in self.items if k == "arxiv_id")

    @property
    def tokens(self) -> frozenset[str]:
        return frozenset(v for k, v, _ in self.items if k == "token")

    def expand(self) -> Iterator[Mention]:
        for kind, value, context in self.items:
            yield Mention(self.path, kind, value, self.location, context)


@dataclass(slots=True)
class Mention:
    path: str  # '' for the message
    kind: str  # arxiv_id | token | bibtex_id (an id in a BibTeX block: what the page asks to cite)
    value: str
    location: str  # message | added_line
    context: str = ""  # one of mentions.CONTEXTS


@dataclass
class MinedCommit:
    sha: str
    parents: list[str]
    author_name: str
    author_email: str
    authored_at: datetime
    committed_at: datetime
    message: str
    files: list[FileChange] = field(default_factory=list)
    mention_groups: list[MentionGroup] = field(default_factory=list)

    @property
    def mentions(self) -> list[Mention]:
        return [m for g in self.mention_groups for m in g.expand()]

    @property
    def mention_count(self) -> int:
        return sum(len(g) for g in self.mention_groups)

    @property
    def is_merge(self) -> bool:
        return len(self.parents) > 1

    @property
    def author_domain(self) -> str:
        return self.author_email.rpartition("@")[2].strip().lower() if "@" in self.author_email else ""


@dataclass(slots=True, frozen=True)
class Quarantined:
    """A file (or, `path` '', a whole commit) that could not be mined, and why."""

    sha: str
    path: str
    object_id: str  # the unreadable git object, '' if unknown
    reason: str


@dataclass
class MiningStats:
    commits: int = 0
    merge_commits: int = 0
    files: int = 0
    binary_files: int = 0
    submodule_changes: int = 0
    truncated_files: int = 0
    bytes_not_scanned: int = 0
    non_utf8_messages: int = 0
    non_utf8_lines: int = 0
    long_lines_skipped: int = 0
    mentions: int = 0
    empty_repos: int = 0
    missing_branches: int = 0
    history_rewrites: int = 0
    quarantined_files: int = 0
    quarantined_commits: int = 0
    mentions_over_bound: int = 0

    def add(self, other: MiningStats) -> None:
        for name in self.__dataclass_fields__:
            setattr(self, name, getattr(self, name) + getattr(other, name))

    def as_dict(self) -> dict[str, int]:
        return {name: getattr(self, name) for name in self.__dataclass_fields__}


def mentions_in(text: str, path: str, location: str, file_added: bool = False) -> list[MentionGroup]:
    """Mentions in one piece of text (a message or the added lines of one file), with context."""
    found = contextual_mentions(text, path, location, file_added)
    items = tuple(sorted((kind, value, context) for (kind, value), context in found.items.items()))
    return [MentionGroup(path, location, items)] if items else []


def bound_mentions(commit: MinedCommit, stats: MiningStats, limit: int = MAX_TOKENS_PER_COMMIT) -> None:
    """Keep every arXiv id and at most `limit` token rows per commit: each distinct name's strongest
    row first (strongest contexts first), then its repeats in other files (a vendored import or a
    mass rename would otherwise add thousands of rows of no use)."""
    if sum(len(g.items) for g in commit.mention_groups) <= limit:  # most commits: nothing to cut
        return
    tokens = sorted(
        (CONTEXT_RANK[c], gi, v) for gi, g in enumerate(commit.mention_groups) for k, v, c in g.items if k == "token")
    if len(tokens) <= limit:
        return
    seen: set[str] = set()
    firsts, repeats = [], []
    for token in tokens:
        (repeats if token[2] in seen else firsts).append(token)
        seen.add(token[2])
    kept = {(gi, v) for _, gi, v in (firsts + repeats)[:limit]}
    stats.mentions_over_bound += len(tokens) - limit
    commit.mention_groups = [
        g2 for gi, g in enumerate(commit.mention_groups)
        if (g2 := MentionGroup(g.path, g.location, tuple(
            it for it in g.items if it[0] != "token" or (gi, it[1]) in kept)))
    ]


def _decode(raw: bytes, stats: MiningStats, counter: str) -> str:
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        setattr(stats, counter, getattr(stats, counter) + 1)
        return raw.decode("utf-8", errors="replace")


def _parse_time(value: str) -> datetime:
    return datetime.fromisoformat(value).astimezone(timezone.utc)


def _unquote_path(raw: bytes) -> str:
    """Paths git had to C-quote (tab, newline, quote, backslash): `"a\\tb"` -> `a<TAB>b`."""
    if not raw.startswith(b'"'):
        return raw.decode("utf-8", errors="replace")
    body = raw[1:-1]
    out = bytearray()
    i = 0
    escapes = {ord("t"): 9, ord("n"): 10, ord('"'): 34, ord("\\"): 92, ord("a"): 7, ord("b"): 8,
               ord("f"): 12, ord("r"): 13, ord("v"): 11}
    while i < len(body):
        c = body[i]
        if c == 92 and i + 1 < len(body):
            nxt = body[i + 1]
            if 48 <= nxt <= 55:  # octal byte
                out.append(int(body[i + 1:i + 4], 8))
                i += 4
                continue
            out.append(escapes.get(nxt, nxt))
            i += 2
            continue
        out.append(c)
        i += 1
    return out.decode("utf-8", errors="replace")


def _section_path(section: bytes) -> str:
    """The new path of a `diff --git` section, from its `+++ b/` line (or `/dev/null` side)."""
    for line in section.split(b"\n", 8)[:8]:
        if line.startswith(b"+++ b/"):
            return _unquote_path(line[6:].rstrip(b"\t"))
    return _unquote_path(section.split(b"\n", 1)[0].rpartition(b" b/")[2])


_DIFF_OPTIONS = ("--no-color", "--no-ext-diff", "--no-textconv", "--first-parent", "--diff-merges=first-parent")


def _git_base(repo: Path) -> list[str]:
    return ["git", "-C", str(repo), "-c", "core.quotePath=false", "-c", "log.showSignature=false",
            "-c", "diff.renames=true"]


def git_log_command(repo: Path, rev_range: str, max_count: int | None = None) -> list[str]:
    limit = [f"--max-count={max_count}"] if max_count else []
    return [*_git_base(repo), "log", *_DIFF_OPTIONS, "--raw", "-p", "-U1", f"--format={_FORMAT}", *limit,
            rev_range, "--"]


def git_show_command(repo: Path, sha: str, left_out: Iterable[str] = (), header_only: bool = False) -> list[str]:
    """One commit in `git log`'s output format, its diff without the paths `left_out`."""
    diff = ["-s"] if header_only else ["--raw", "-p", "-U1"]
    return [*_git_base(repo), "show", *_DIFF_OPTIONS, *diff, f"--format={_FORMAT}", sha, "--",
            *(f":(exclude,literal){path}" for path in left_out)]


# Lines of a hunk body that were added: `+text` at a line start. Hunk bodies are all prefixed
# lines (' ', '+', '-', '\\'), so no header or file name can match inside them.
_ADDED_LINE_RE = re.compile(rb"^\+(.*)$", re.MULTILINE)
_READ_CHUNK = 1 << 18


def commit_blocks(stream: BinaryIO) -> Iterator[bytes]:
    """The output of one `git log` run, cut into one block per commit (without the leading
    record separator). Reads big chunks; only the last, possibly incomplete block is carried."""
    pending = bytearray()
    while chunk := stream.read1(_READ_CHUNK):
        scan_from = max(0, len(pending) - 1)
        pending += chunk
        cut = pending.rfind(b"\n\x1e", scan_from)
        if cut == -1:
            continue
        ready = bytes(pending[:cut])
        del pending[:cut + 1]
        yield from ready.lstrip(b"\x1e").split(b"\n\x1e")
    if pending:
        yield bytes(pending).lstrip(b"\x1e")


class _CommitParser:
    """Turns the per-commit blocks of one `git log` run into `MinedCommit`s.

    A block is `header \x1d`, the `--raw` lines, then one `diff --git` section per raw entry
    (two for a type change). Line counts come from the sections' hunks (`+`/`-` lines), which
    is what `--numstat` prints for the same diff; scanning and counting are C-level byte
    operations per section, not a Python loop per line."""

    def __init__(self, stats: MiningStats, max_scan_bytes: int) -> None:
        self.stats = stats
        self.max_scan_bytes = max_scan_bytes

    def parse(self, blocks: Iterator[bytes]) -> Iterator[MinedCommit]:
        carried = b""
        for block in blocks:
            if carried:  # a message line that began with the record separator: rejoin
                block, carried = carried + b"\n\x1e" + block, b""
            head, sep, rest = block.partition(b"\x1d")
            if not sep:
                carried = block
                continue
            commit = self._commit_from_header(head)
            patch_at = rest.find(b"\ndiff --git ")
            raw_part, patch = (rest, b"") if patch_at == -1 else (rest[:patch_at], rest[patch_at + 12:])
            commit.files = [self._raw_entry(line) for line in raw_part.split(b"\n") if line[:1] == b":"]
            if patch:
                self._read_sections(commit, patch.split(b"\ndiff --git "))
            yield self._finish(commit)

    def _read_sections(self, commit: MinedCommit, sections: list[bytes]) -> None:
        files = commit.files
        i = -1
        second_half = False
        for section in sections:
            if i >= 0 and files[i].change_type == "type_changed" and not second_half:
                second_half = True  # a type change (file <-> symlink) has two sections
            else:
                second_half = False
                i += 1
                if i == len(files):  # a section git listed no raw entry for: keep it anyway
                    files.append(FileChange(_section_path(section), None, "modified", 0, 0))
            self._read_section(commit, files[i], section)

    def _read_section(self, commit: MinedCommit, fc: FileChange, section: bytes) -> None:
        hunks_at = section.find(b"\n@@")
        if hunks_at == -1:
            if b"\nBinary files " in section:
                fc.is_binary = True
                fc.added_lines = fc.deleted_lines = None
            return
        body = section[hunks_at + 1:]
        added = _ADDED_LINE_RE.findall(body)
        if fc.added_lines is not None:
            fc.added_lines += len(added)
            fc.deleted_lines += body.count(b"\n-") + (body[:1] == b"-")
        if fc.is_submodule or not added:
            return
        added = self._scannable(fc, added)
        if not added:
            return
        raw = b"\n".join(added)
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            self.stats.non_utf8_lines += 1
            text = raw.decode("utf-8", errors="replace")
        commit.mention_groups.extend(mentions_in(text, fc.path, "added_line", fc.change_type in _NEW_FILE))

    def _scannable(self, fc: FileChange, added: list[bytes]) -> list[bytes]:
        """Drop long space-less lines (data blobs) and stop at `max_scan_bytes` per file."""
        stats = self.stats
        if max(map(len, added)) > LONG_LINE_BYTES:
            kept = [line for line in added if len(line) <= LONG_LINE_BYTES or line.count(b" ") * 50 >= len(line)]
            stats.long_lines_skipped += len(added) - len(kept)
            added = kept
        size = sum(map(len, added)) + len(added)
        if size <= self.max_scan_bytes:
            return added
        scanned = 0
        for n, line in enumerate(added):
            if scanned >= self.max_scan_bytes:
                fc.scan_truncated = True
                stats.truncated_files += 1
                stats.bytes_not_scanned += sum(map(len, added[n:])) + len(added) - n
                return added[:n]
            scanned += len(line) + 1
        return added

    def _commit_from_header(self, raw: bytes) -> MinedCommit:
        body, _, _ = raw.partition(b"\x1d")
        fields = body.split(b"\x1f", 6)
        while len(fields) < 7:
            fields.append(b"")
        sha, parents, name, email, authored, committed, message = fields
        return MinedCommit(
            sha=sha.decode("ascii").strip(),
            parents=parents.decode("ascii").split(),
            author_name=name.decode("utf-8", errors="replace"),
            author_email=email.decode("utf-8", errors="replace"),
            authored_at=_parse_time(authored.decode("ascii")),
            committed_at=_parse_time(committed.decode("ascii")),
            message=_decode(message, self.stats, "non_utf8_messages").strip("\n"),
        )

    def _raw_entry(self, line: bytes) -> FileChange:
        # :100644 100644 abc123 def456 R086\told\tnew
        meta, _, paths = line.rstrip(b"\n").partition(b"\t")
        parts = meta.split()
        old_mode, new_mode = parts[0][1:].decode(), parts[1].decode()
        status = parts[4].decode()[:1] if len(parts) > 4 else "X"
        names = paths.split(b"\t")
        old_path = _unquote_path(names[0]) if len(names) > 1 else None
        fc = FileChange(path=_unquote_path(names[-1]), old_path=old_path,
                        change_type=_CHANGE_TYPES.get(status, "unknown"), added_lines=0, deleted_lines=0)
        fc.is_submodule = _SUBMODULE_MODE in (old_mode, new_mode)
        return fc

    def _finish(self, commit: MinedCommit) -> MinedCommit:
        stats = self.stats
        if commit.message:
            commit.mention_groups[:0] = mentions_in(commit.message, "", "message")
        bound_mentions(commit, stats)
        stats.commits += 1
        stats.merge_commits += commit.is_merge
        stats.files += len(commit.files)
        stats.binary_files += sum(f.is_binary for f in commit.files)
        stats.submodule_changes += sum(f.is_submodule for f in commit.files)
        stats.mentions += commit.mention_count
        return commit


_UNREADABLE_RE = re.compile(r"unable to read (?:tree )?\(?([0-9a-f]{40,64})")
MAX_UNREADABLE_PER_COMMIT = 50


def unreadable_object(message: str) -> str | None:
    """The object id in git's `fatal: unable to read <sha>` (None for any other failure)."""
    m = _UNREADABLE_RE.search(message)
    return m.group(1) if m else None


class _GitLogRun:
    """One streaming `git log`: its commit blocks, then (once drained) its exit code and stderr.
    When git fails, the last block may be cut short, so it is held back until the exit code is known
    and dropped on failure. git's stderr goes to a file, so it can never fill a pipe."""

    def __init__(self, command: list[str]) -> None:
        self.command = command
        self.code: int | None = None
        self.message = ""

    def blocks(self) -> Iterator[bytes]:
        with tempfile.TemporaryFile() as err:
            proc = subprocess.Popen(self.command, stdout=subprocess.PIPE, stderr=err)
            assert proc.stdout is not None
            held = None
            try:
                for block in commit_blocks(proc.stdout):
                    if held is not None:
                        yield held
                    held = block
            finally:
                proc.stdout.close()
                self.code = proc.wait()
                err.seek(0)
                self.message = err.read(2000).decode(errors="replace")
            if held is not None and self.code == 0:
                yield held


def _rev_range(exclude: str | None, tip: str) -> str:
    return f"{exclude}..{tip}" if exclude else tip


def mine_commits(
    repo: Path,
    rev_range: str,
    stats: MiningStats | None = None,
    *,
    max_scan_bytes: int = MAX_SCAN_BYTES_PER_FILE,
    on_commit: Callable[[MinedCommit], None] | None = None,
    max_count: int | None = None,
    quarantine: list[Quarantined] | None = None,
) -> Iterator[MinedCommit]:
    """Mine every commit in `rev_range` (e.g. `main` or `abc123..main`), newest first, streamed
    from one `git log` process. An unreadable object costs only its file (or its commit): see the
    module docstring; the items go to `quarantine`. Any other git failure raises RuntimeError."""
    stats = stats if stats is not None else MiningStats()
    quarantine = quarantine if quarantine is not None else []
    parser = _CommitParser(stats, max_scan_bytes)
    exclude, _, tip = rev_range.rpartition("..")
    left = max_count
    while tip and left != 0:
        run = _GitLogRun(git_log_command(repo, _rev_range(exclude, tip), left))
        last = None
        for commit in parser.parse(run.blocks()):
            last = commit
            left = None if left is None else left - 1
            if on_commit is not None:
                on_commit(commit)
            yield commit
        if run.code == 0:
            return
        if unreadable_object(run.message) is None:
            raise RuntimeError(f"git log failed in {repo} ({run.code}): {run.message}")
        # git stopped in the commit after the last whole one: mine that one alone, go on from its parent
        tip = (last.parents[0] if last.parents else "") if last else git(repo, "rev-parse", "--verify", tip)
        if not tip or not git(repo, "rev-list", "--first-parent", "-n1", _rev_range(exclude, tip), check=False):
            return
        commit = _mine_alone(repo, tip, parser, quarantine)
        if commit is not None:
            left = None if left is None else left - 1
            if on_commit is not None:
                on_commit(commit)
            yield commit
        parent = git(repo, "rev-parse", "--verify", "--quiet", f"{tip}^1", check=False)
        if not parent and git(repo, "cat-file", "-t", tip, check=False) != "commit":
            quarantine.append(Quarantined(tip, "", tip, "history before this commit is unreadable; not mined"))
            log.warning("git: %s: history before %s is unreadable; not mined", repo, tip[:12])
        tip = parent


def _raw_listing(repo: Path, sha: str) -> dict[str, list[tuple[str, str]]] | None:
    """object id -> [(path, change type)] of the files `sha` changed, read without any blob
    (no rename detection); None when even that cannot be read (a missing tree or commit)."""
    proc = subprocess.run([*_git_base(repo), "show", *_DIFF_OPTIONS, "--raw", "--no-renames", "--no-abbrev",
                           "--format=", sha, "--"], capture_output=True, check=False)
    if proc.returncode != 0:
        return None
    out: dict[str, list[tuple[str, str]]] = {}
    for line in proc.stdout.split(b"\n"):
        if line[:1] != b":":
            continue
        meta, _, path = line.partition(b"\t")
        parts = meta.split()
        change = _CHANGE_TYPES.get(parts[4].decode()[:1], "unknown")
        for obj in {parts[2].decode(), parts[3].decode()} - {"0" * len(parts[2])}:
            out.setdefault(obj, []).append((_unquote_path(path), change))
    return out


def mine_commit(repo: Path, sha: str, stats: MiningStats | None = None, *,
                max_scan_bytes: int = MAX_SCAN_BYTES_PER_FILE, quarantine: list[Quarantined] | None = None,
                left_out: Iterable[str] = ()) -> MinedCommit | None:
    """One commit alone, as `mine_commits` gives it: unreadable files are left out of its diff and
    quarantined, and so are the paths `left_out` (how an earlier run that could not read them mined
    it); None, quarantined, if the commit cannot be read."""
    listing = _raw_listing(repo, sha) or {}
    change_of = {path: (obj, change) for obj, items in listing.items() for path, change in items}
    return _mine_alone(repo, sha, _CommitParser(stats if stats is not None else MiningStats(), max_scan_bytes),
                       quarantine if quarantine is not None else [],
                       {path: change_of.get(path, ("", "modified")) for path in left_out}, listing)


def _mine_alone(repo: Path, sha: str, parser: _CommitParser, quarantine: list[Quarantined],
                left_out: dict[str, tuple[str, str]] | None = None,
                listing: dict[str, list[tuple[str, str]]] | None = None) -> MinedCommit | None:
    """Commit `sha` with the files whose objects cannot be read left out of its diff (kept as rows
    with unknown line counts, and quarantined); None, quarantined, if the commit cannot be read."""
    given = set(left_out or ())
    left_out = dict(left_out or {})  # path -> (object id, change type)
    message = ""
    for _ in range(MAX_UNREADABLE_PER_COMMIT):
        proc = subprocess.run(git_show_command(repo, sha, left_out), capture_output=True, check=False)
        if proc.returncode == 0:
            out = proc.stdout or subprocess.run(git_show_command(repo, sha, header_only=True),
                                                capture_output=True, check=False).stdout
            commit = next(parser.parse(commit_blocks(io.BytesIO(out))), None)
            if commit is None:
                break
            for path, (obj, change) in left_out.items():
                commit.files.append(FileChange(path, None, change, None, None))
                quarantine.append(Quarantined(sha, path, obj, f"unreadable git object {obj} (missing from the "
                                              "repository: a partial clone or corruption); the file is not diffed"))
            parser.stats.files += len(left_out)
            parser.stats.quarantined_files += len(left_out)
            if unreadable := [path for path in left_out if path not in given]:
                log.warning("git: %s: %s mined without %d unreadable file(s): %s", repo, sha[:12], len(unreadable),
                            ", ".join(unreadable))
            return commit
        message = proc.stderr.decode(errors="replace")[:500].strip()
        missing = unreadable_object(message)
        listing = listing if listing is not None else _raw_listing(repo, sha)
        paths = [(p, c) for p, c in (listing or {}).get(missing or "", []) if p not in left_out]
        if not paths:
            break
        left_out.update({p: (missing, c) for p, c in paths})
    quarantine.append(Quarantined(sha, "", unreadable_object(message) or "", f"commit not mined: {message}"))
    parser.stats.quarantined_commits += 1
    log.warning("git: %s: commit %s not mined: %s", repo, sha[:12], message)
    return None


# --- small git helpers -----------------------------------------------------------------------
def git(repo: Path, *args: str, check: bool = True) -> str:
    proc = subprocess.run(["git", "-C", str(repo), *args], capture_output=True, check=False)
    if check and proc.returncode != 0:
        raise RuntimeError(f"git {' '.join(args)} failed in {repo}: {proc.stderr.decode(errors='replace')[:500]}")
    return proc.stdout.decode("utf-8", errors="replace").strip() if proc.returncode == 0 else ""


def resolve_ref(repo: Path, ref: str) -> str | None:
    """The commit sha `ref` points at, or None (missing branch, empty repository)."""
    out = git(repo, "rev-parse", "--verify", "--quiet", f"{ref}^{{commit}}", check=False)
    return out or None


def is_ancestor(repo: Path, older: str, newer: str) -> bool:
    proc = subprocess.run(["git", "-C", str(repo), "merge-base", "--is-ancestor", older, newer],
                          capture_output=True, check=False)
    return proc.returncode == 0


def count_commits(repo: Path, rev_range: str) -> int:
    out = git(repo, "rev-list", "--first-parent", "--count", rev_range, check=False)
    return int(out) if out.isdigit() else 0
