"""Mining and the dlt source, on repositories these tests create with git."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import dlt
import duckdb
import pytest

from ingestion import config
from ingestion.git.source import classify_head_path, ensure_clone, git_history_source
from ingestion.git.mining import MiningStats, mine_commits
from ingestion.world import World

FW = config.Framework("toy", "Toy", "toy-org/toy", (), "main", ("Toy",), ("toy.dev",), ("docs/",), True)


class Repo:
    """A throwaway git repository with deterministic dates."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.tick = 0
        path.mkdir(parents=True, exist_ok=True)
        self.git("init", "-q", "-b", "main")

    def git(self, *args: str, input: bytes | None = None) -> str:
        self.tick += 1
        stamp = f"2025-03-{1 + self.tick % 27:02d}T12:{self.tick % 60:02d}:00+00:00"
        env = {**os.environ, "GIT_AUTHOR_NAME": "Ada", "GIT_AUTHOR_EMAIL": "ada@toy.dev",
               "GIT_COMMITTER_NAME": "Ada", "GIT_COMMITTER_EMAIL": "ada@toy.dev",
               "GIT_AUTHOR_DATE": stamp, "GIT_COMMITTER_DATE": stamp}
        out = subprocess.run(["git", "-C", str(self.path), *args], env=env, input=input,
                             capture_output=True, check=True)
        return out.stdout.decode().strip()

    def commit(self, message: str | bytes, files: dict[str, str | bytes | None]) -> str:
        for name, content in files.items():
            target = self.path / name
            if content is None:
                self.git("rm", "-q", name)
                continue
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(content if isinstance(content, bytes) else content.encode())
            self.git("add", name)
        msg = message if isinstance(message, bytes) else message.encode()
        if isinstance(message, bytes):  # raw bytes: write the object ourselves (git commit would re-encode)
            tree = self.git("write-tree")
            parent = self.git("rev-parse", "--verify", "-q", "HEAD")
            obj = (f"tree {tree}\n" + (f"parent {parent}\n" if parent else "")
                   + "author Ada <ada@toy.dev> 1740000000 +0000\ncommitter Ada <ada@toy.dev> 1740000000 +0000\n\n")
            sha = self.git("hash-object", "-t", "commit", "-w", "--stdin", "--literally", input=obj.encode() + msg + b"\n")
            self.git("update-ref", "HEAD", sha)
            return sha
        self.git("commit", "-q", "--allow-empty", "-F", "-", input=msg)
        return self.git("rev-parse", "HEAD")


def mined(path: Path, rev: str = "main", **kw) -> tuple[dict, MiningStats]:
    stats = MiningStats()
    return {c.sha: c for c in mine_commits(path, rev, stats, **kw)}, stats


def mentions(c) -> set[tuple[str, str, str]]:
    return {(m.location, m.path, m.value) for m in c.mentions}


def make_pipeline(tmp_path: Path):
    return dlt.pipeline(pipeline_name="git_test", destination=dlt.destinations.duckdb(str(tmp_path / "w.duckdb")),
                        dataset_name="raw_git", pipelines_dir=str(tmp_path / "dlt"))


def counts(tmp_path: Path) -> dict[str, int]:
    con = duckdb.connect(str(tmp_path / "w.duckdb"), read_only=True)
    try:
        return {t: con.sql(f"select count(*) from raw_git.{t}").fetchall()[0][0]
                for t in ("commits", "commit_files", "commit_mentions")}
    finally:
        con.close()


def run(tmp_path: Path, repo: Repo, **kw):
    os.environ[f"RLTRACK_GIT_REPO_{FW.framework_id.upper()}"] = str(repo.path)
    try:
        return make_pipeline(tmp_path).run(git_history_source(world=World.live(), frameworks=[FW], **kw))
    finally:
        del os.environ[f"RLTRACK_GIT_REPO_{FW.framework_id.upper()}"]


# --- mining ---------------------------------------------------------------------------------
def test_mentions_where_added_not_where_deleted(tmp_path):
    r = Repo(tmp_path / "r")
    first = r.commit("init", {"loss.py": "x = 1\n# see arXiv:2503.14476\nloss_type = 'gspo'\n"})
    second = r.commit("tidy", {"loss.py": "x = 1\nloss_type = 'cispo'\n"})
    commits, _ = mined(r.path)
    assert ("added_line", "loss.py", "2503.14476") in mentions(commits[first])
    assert ("added_line", "loss.py", "gspo") in mentions(commits[first])
    later = {v for _, _, v in mentions(commits[second])}
    assert "cispo" in later and "gspo" not in later and "2503.14476" not in later
    f = commits[second].files[0]
    assert (f.change_type, f.added_lines, f.deleted_lines) == ("modified", 1, 2)


def test_message_mentions_have_empty_path(tmp_path):
    r = Repo(tmp_path / "r")
    sha = r.commit("feat: add DAPO\n\nenables dr_grpo (https://arxiv.org/abs/2503.14476v2)", {"a.py": "pass\n"})
    found = mentions(mined(r.path)[0][sha])
    # ids anywhere in the message; names from the subject only (a squash merge's body lists every commit)
    assert {("message", "", "2503.14476"), ("message", "", "dapo")} <= found and ("message", "", "dr_grpo") not in found


def test_binary_non_utf8_submodule_and_huge_diff(tmp_path):
    r = Repo(tmp_path / "r")
    r.commit("init", {"a.py": "pass\n"})
    binary = r.commit("logo", {"logo.png": b"\x89PNG\x00\x01\x02 gspo"})
    latin1 = r.commit("fix: caf\xe9 typo".encode("latin-1"), {"b.py": "cafe = 1\n"})
    blob = r.git("hash-object", "-w", "a.py")
    r.git("update-index", "--add", "--cacheinfo", f"160000,{blob},vendor/sub")
    sub = r.commit("add submodule", {})
    huge = r.commit("big", {"big.py": "".join(f"filler_line_{i} = {i}\n" for i in range(2000)) + "late_token = 1\n"})
    commits, stats = mined(r.path, max_scan_bytes=2000)
    f = commits[binary].files[0]
    assert f.is_binary and f.added_lines is None and not commits[binary].mentions or \
        all(m.location == "message" for m in commits[binary].mentions)
    assert "\ufffd" in commits[latin1].message and stats.non_utf8_messages == 1
    assert commits[sub].files[0].is_submodule and not [m for m in commits[sub].mentions if m.location == "added_line"]
    values = {v for _, _, v in mentions(commits[huge])}
    assert "filler_line" in values and "late_token" not in values
    assert commits[huge].files[0].scan_truncated and stats.truncated_files == 1 and stats.bytes_not_scanned > 0
    assert stats.binary_files == 1 and stats.submodule_changes == 1


def test_merge_commit_is_diffed_against_first_parent(tmp_path):
    r = Repo(tmp_path / "r")
    r.commit("init", {"a.py": "pass\n"})
    r.git("checkout", "-q", "-b", "feature")
    side = r.commit("wip", {"b.py": "use_gspo = True\n"})
    removed = r.commit("drop", {"c.py": "temporary_vapo = 1\n"})
    r.commit("drop again", {"c.py": None})
    r.git("checkout", "-q", "main")
    r.commit("main work", {"d.py": "x = 2\n"})
    r.git("merge", "-q", "--no-ff", "-m", "Merge branch feature", "feature")
    merge = r.git("rev-parse", "HEAD")
    commits, stats = mined(r.path)
    assert side not in commits and removed not in commits  # not first-parent
    m = commits[merge]
    assert m.is_merge and [f.path for f in m.files] == ["b.py"]
    values = {v for _, _, v in mentions(m)}
    assert "use_gspo" in values and "temporary_vapo" not in values
    assert stats.merge_commits == 1


def test_commits_come_newest_first_and_max_count_takes_the_newest(tmp_path):
    r = Repo(tmp_path / "r")
    for i in range(7):
        r.commit(f"step {i} arXiv:2503.{14470 + i}", {f"m{i % 3}.py": f"value_{i} = {i}\nuse_gspo_{i} = True\n"})
    r.git("checkout", "-q", "-b", "side")
    r.commit("side", {"side.py": "side_token = 1\n"})
    r.git("checkout", "-q", "main")
    r.git("merge", "-q", "--no-ff", "-m", "Merge side", "side")
    r.commit("after", {"m0.py": None})

    def snapshot(**kw):
        stats = MiningStats()
        rows = [(c.sha, c.message, [(f.path, f.change_type, f.added_lines, f.deleted_lines) for f in c.files],
                 sorted(mentions(c))) for c in mine_commits(r.path, "main", stats, **kw)]
        return rows, stats.as_dict()

    every, every_stats = snapshot()
    assert len(every) == 9 and every_stats["commits"] == 9 and every_stats["merge_commits"] == 1
    assert [row[1] for row in every][:2] == ["after", "Merge side"]  # newest first
    assert snapshot(max_count=4)[0] == every[:4]


def test_message_line_starting_with_the_record_separator(tmp_path):
    r = Repo(tmp_path / "r")
    r.commit("init", {"a.py": "pass\n"})
    odd = r.commit("title\n\n\x1eodd line", {"b.py": "use_gspo = True\n"})
    commits, _ = mined(r.path)
    assert len(commits) == 2 and commits[odd].message == "title\n\n\x1eodd line"
    assert ("added_line", "b.py", "use_gspo") in mentions(commits[odd])


def test_git_failure_is_a_clear_error(tmp_path):
    r = Repo(tmp_path / "r")
    r.commit("init", {"a.py": "pass\n"})
    with pytest.raises(RuntimeError, match="failed"):
        list(mine_commits(r.path, "no-such-branch"))


def test_empty_repository_yields_nothing(tmp_path):
    r = Repo(tmp_path / "r")
    info = run(tmp_path, r)
    assert info.has_failed_jobs is False


def test_matches_pydriller(tmp_path):
    from ingestion.git.pydriller_path import pydriller_commits

    r = Repo(tmp_path / "r")
    r.commit("init", {"a.py": "def gspo_loss():\n    pass\n", "docs/x.md": "# x\n"})
    r.commit("rename", {"a.py": None, "pkg/a.py": "def gspo_loss():\n    pass\n"})
    r.commit("feat: cispo arXiv:2506.13585", {"pkg/a.py": "def gspo_loss():\n    return cispo_clip\n"})
    fast = {c.sha: c for c in mine_commits(r.path, "main")}
    slow = {c.sha: c for c in pydriller_commits(r.path, "main")}
    assert fast.keys() == slow.keys()
    for sha in fast:
        a, b = fast[sha], slow[sha]
        assert (a.message, a.parents, a.authored_at) == (b.message, b.parents, b.authored_at)
        assert sorted((f.path, f.change_type, f.added_lines, f.deleted_lines) for f in a.files) == \
            sorted((f.path, f.change_type, f.added_lines, f.deleted_lines) for f in b.files)
        assert mentions(a) == mentions(b)


# --- dlt source -----------------------------------------------------------------------------
def test_rerun_adds_nothing_and_new_commit_is_mined_alone(tmp_path):
    r = Repo(tmp_path / "r")
    r.commit("init", {"a.py": "x = 1\n", "CONTRIBUTING.md": "Please open an issue first.\n"})
    r.commit("feat: gspo (arXiv:2507.18071)", {"a.py": "x = 1\nloss = 'gspo'\n"})
    run(tmp_path, r)
    before = counts(tmp_path)
    assert before["commits"] == 2
    run(tmp_path, r)
    assert counts(tmp_path) == before
    new = r.commit("feat: cispo", {"b.py": "loss = 'cispo'\n"})
    run(tmp_path, r)
    con = duckdb.connect(str(tmp_path / "w.duckdb"), read_only=True)
    latest = con.sql("select max(_dlt_load_id) from raw_git.commits").fetchall()[0][0]
    assert con.sql(f"select sha from raw_git.commits where _dlt_load_id = '{latest}'").fetchall() == [(new,)]
    assert con.sql("select count(*) from raw_git.commits").fetchall()[0][0] == 3
    head = con.sql("select path, kind, content from raw_git.repo_files_at_head").fetchall()
    assert head == [("CONTRIBUTING.md", "contributing", "Please open an issue first.\n")]
    con.close()


def test_force_push_removes_rows_of_dropped_commits(tmp_path):
    r = Repo(tmp_path / "r")
    base = r.commit("init", {"a.py": "x = 1\n"})
    dropped = r.commit("feat: vapo", {"a.py": "x = 1\nuse_vapo = True\n"})
    run(tmp_path, r)
    r.git("reset", "-q", "--hard", base)
    kept = r.commit("feat: gspo", {"a.py": "x = 1\nuse_gspo = True\n"})
    run(tmp_path, r)
    con = duckdb.connect(str(tmp_path / "w.duckdb"), read_only=True)
    shas = {s for (s,) in con.sql("select sha from raw_git.commits").fetchall()}
    assert shas == {base, kept}
    for table in ("commit_files", "commit_mentions"):
        orphans = con.sql(f"select count(*) from raw_git.{table} where sha = '{dropped}'").fetchall()[0][0]
        assert orphans == 0, table
    values = {v for (v,) in con.sql("select value from raw_git.commit_mentions").fetchall()}
    assert "use_gspo" in values and "use_vapo" not in values
    con.close()


def test_live_clone_then_fetch_follows_renamed_remote(tmp_path):
    origin = Repo(tmp_path / "old-name")
    origin.commit("init", {"a.py": "x = 1\n"})
    cache = tmp_path / "cache" / "toy"
    ensure_clone(str(origin.path), cache, "main")
    moved = tmp_path / "new-name"
    origin.path.rename(moved)
    origin.path = moved
    sha = origin.commit("more", {"b.py": "y = 2\n"})
    ensure_clone(str(moved), cache, "main")
    assert subprocess.run(["git", "-C", str(cache), "rev-parse", "refs/heads/main"], capture_output=True,
                          text=True).stdout.strip() == sha


@pytest.mark.parametrize("path,kind", [
    ("CONTRIBUTING.md", "contributing"), (".github/CONTRIBUTING.md", "contributing"),
    (".github/PULL_REQUEST_TEMPLATE.md", "pr_template"), (".github/pull_request_template.md", "pr_template"),
    (".github/ISSUE_TEMPLATE/bug.yml", "issue_template"), ("CODEOWNERS", "codeowners"),
    ("docs/source/index.md", "docs"), ("src/contributing.py", None), ("README.md", None),
])
def test_classify_head_paths(path, kind):
    assert classify_head_path(path, ("docs/",)) == kind


def test_renamed_repository_rekeys_rows_without_duplicates(tmp_path):
    global FW
    r = Repo(tmp_path / "r")
    r.commit("init", {"a.py": "x = 1\n"})
    r.commit("feat: gspo", {"a.py": "x = 1\nuse_gspo = True\n"})
    old = FW
    try:
        run(tmp_path, r)
        FW = config.Framework("toy", "Toy", "new-org/toy", ("toy-org/toy",), "main", (), (), ("docs/",), True)
        run(tmp_path, r)
    finally:
        FW = old
    con = duckdb.connect(str(tmp_path / "w.duckdb"), read_only=True)
    for table in ("commits", "commit_files", "commit_mentions"):
        repos = con.sql(f"select distinct repo from raw_git.{table}").fetchall()
        assert repos == [("new-org/toy",)], table
    assert con.sql("select count(*) from raw_git.commits").fetchall()[0][0] == 2
    con.close()


def test_pydriller_engine_loads_the_same_rows(tmp_path):
    r = Repo(tmp_path / "r")
    r.commit("init", {"a.py": "x = 1\n", "CONTRIBUTING.md": "PR titles must follow `type: description`.\n"})
    r.commit("feat: cispo arXiv:2506.13585", {"a.py": "x = 1\nloss = 'cispo'\n"})
    run(tmp_path / "git", r)
    run(tmp_path / "pyd", r, engine="pydriller")
    assert counts(tmp_path / "git") == counts(tmp_path / "pyd")
    con = duckdb.connect(str(tmp_path / "git" / "w.duckdb"), read_only=True)
    rules = con.sql("select pr_title_format, pr_title_pattern, issue_first from raw_git.contribution_rules").fetchall()
    assert rules == [(True, "type: description", False)]
    con.close()


def test_live_mode_clones_from_remote_template_then_fetches(tmp_path):
    remote = Repo(tmp_path / "remotes" / "toy-org" / "toy")
    remote.commit("init", {"a.py": "x = 1\n"})
    kw = dict(world=World(repos_dir=tmp_path / "cache", remote_template=str(tmp_path / "remotes" / "{repo}")),
              frameworks=[FW])
    pipe = make_pipeline(tmp_path)
    pipe.run(git_history_source(**kw))
    assert (tmp_path / "cache" / "toy" / "HEAD").exists()  # a bare clone
    remote.commit("feat: gspo", {"a.py": "x = 1\nuse_gspo = True\n"})
    pipe.run(git_history_source(**kw))
    assert counts(tmp_path)["commits"] == 2


def test_type_change_keeps_later_files_aligned(tmp_path):
    r = Repo(tmp_path / "r")
    r.commit("init", {"AGENTS.md": "one\ntwo\n", "b.py": "x = 1\n"})
    (r.path / "AGENTS.md").unlink()
    (r.path / "AGENTS.md").symlink_to("b.py")
    r.git("add", "AGENTS.md")
    sha = r.commit("symlink", {"b.py": "x = 1\nuse_gspo = True\n"})
    c = mined(r.path)[0][sha]
    files = {f.path: (f.change_type, f.added_lines, f.deleted_lines) for f in c.files}
    assert files == {"AGENTS.md": ("type_changed", 1, 2), "b.py": ("modified", 1, 0)}
    assert ("added_line", "b.py", "use_gspo") in mentions(c)


# --- unreadable objects (partial clones, corruption) -----------------------------------------
def _delete_object(repo: Repo, spec: str) -> str:
    """Remove the loose object `spec` names (e.g. `HEAD~1:big.bin`), as a partial clone lacks it."""
    obj = repo.git("rev-parse", spec)
    (repo.path / ".git" / "objects" / obj[:2] / obj[2:]).unlink()
    return obj


def _repo_with_missing_blobs(path: Path) -> tuple[Repo, dict[str, str]]:
    r = Repo(path)
    shas = {"init": r.commit("init", {"a.py": "x = 1\n"})}
    shas["big"] = r.commit("add weights and grpo loss", {"weights.bin": "0" * 5000 + "\n",
                                                         "loss.py": "def grpo_loss():\n    pass\n"})
    shas["merge_like"] = r.commit("two big files", {"w2.bin": "1" * 5000 + "\n", "w3.bin": "2" * 5000 + "\n",
                                                    "b.py": "use_dapo = True\n"})
    shas["renamed"] = r.commit("move weights", {"weights.bin": None, "ckpt/weights.bin": "0" * 5000 + "\n"})
    shas["after"] = r.commit("feat: gspo arXiv:2507.18071", {"a.py": "x = 1\nloss = 'gspo'\n"})
    for spec in ("HEAD~3:weights.bin", "HEAD~2:w2.bin", "HEAD~2:w3.bin"):
        _delete_object(r, spec)
    return r, shas


def test_missing_blobs_cost_only_their_files(tmp_path):
    r, shas = _repo_with_missing_blobs(tmp_path / "r")
    with pytest.raises(subprocess.CalledProcessError):  # git itself cannot read the history
        subprocess.run(["git", "-C", str(r.path), "log", "-p", "main"], capture_output=True, check=True)
    quarantine: list = []
    commits, stats = mined(r.path, quarantine=quarantine)
    assert set(commits) == set(shas.values())  # every commit, none dropped or duplicated
    big = commits[shas["big"]]
    assert {(f.path, f.added_lines) for f in big.files} == {("weights.bin", None), ("loss.py", 2)}
    assert ("added_line", "loss.py", "grpo_loss") in mentions(big)  # the readable file was still scanned
    assert {(f.path, f.added_lines) for f in commits[shas["merge_like"]].files} == {
        ("w2.bin", None), ("w3.bin", None), ("b.py", 1)}
    assert ("message", "", "2507.18071") in mentions(commits[shas["after"]])
    assert sorted((q.sha, q.path) for q in quarantine) == sorted(
        [(shas["big"], "weights.bin"), (shas["merge_like"], "w2.bin"), (shas["merge_like"], "w3.bin"),
         (shas["renamed"], "ckpt/weights.bin"), (shas["renamed"], "weights.bin")])
    assert all("unreadable git object" in q.reason and len(q.object_id) == 40 for q in quarantine)
    assert stats.quarantined_files == 5 and stats.quarantined_commits == 0 and stats.commits == 5
    # a range that starts after the damage needs no quarantine
    assert set(mined(r.path, f"{shas['renamed']}..main")[0]) == {shas["after"]}


def test_unreadable_commit_is_quarantined_whole_and_the_rest_is_mined(tmp_path):
    r = Repo(tmp_path / "r")
    init = r.commit("init", {"a.py": "x = 1\n"})
    broken = r.commit("broken", {"b.py": "y = 2\n"})
    top = r.commit("top", {"c.py": "z = 3\n"})
    _delete_object(r, f"{broken}^{{tree}}")  # neither `broken` nor `top` (diffed against it) can be read
    quarantine: list = []
    commits, stats = mined(r.path, quarantine=quarantine)
    assert list(commits) == [init]
    assert [(q.sha, q.path) for q in quarantine] == [(top, ""), (broken, "")]
    assert all(q.reason.startswith("commit not mined: fatal: unable to read") for q in quarantine)
    assert stats.quarantined_commits == 2


def test_partial_repository_loads_with_a_quarantine_table_and_other_repositories_load(tmp_path):
    r, shas = _repo_with_missing_blobs(tmp_path / "r")
    other = Repo(tmp_path / "other")
    other.commit("init", {"x.py": "ok = 1\n"})
    fw2 = config.Framework("other", "Other", "o/other", (), "main", (), (), ("docs/",), True)
    os.environ.update(RLTRACK_GIT_REPO_OTHER=str(other.path), RLTRACK_GIT_REPO_TOY=str(r.path))
    try:
        for _ in range(2):  # a re-run changes nothing
            make_pipeline(tmp_path).run(git_history_source(world=World.live(), frameworks=[FW, fw2]))
    finally:
        del os.environ["RLTRACK_GIT_REPO_OTHER"], os.environ["RLTRACK_GIT_REPO_TOY"]
    con = duckdb.connect(str(tmp_path / "w.duckdb"), read_only=True)
    try:
        assert con.sql("select framework_id, count(*) from raw_git.commits group by 1 order by 1").fetchall() == [
            ("other", 1), ("toy", 5)]
        rows = con.sql("select framework_id, sha, path, reason from raw_git.git_quarantine order by sha, path").fetchall()
        assert len(rows) == 5 and {r[0] for r in rows} == {"toy"}
        assert con.sql("select added_lines from raw_git.commit_files where path = 'weights.bin' "
                       f"and sha = '{shas['big']}'").fetchall() == [(None,)]
    finally:
        con.close()


# --- a repository that cannot be had; quarantine retried; parallel mining ---------------------
def _quarantine(tmp_path: Path) -> list[tuple]:
    with duckdb.connect(str(tmp_path / "w.duckdb"), read_only=True) as con:
        return con.sql("select framework_id, sha, path, reason, resolved_at is not null from raw_git.git_quarantine "
                       "order by framework_id, sha, path").fetchall()


def test_a_repository_that_cannot_be_had_costs_only_its_framework(tmp_path):
    good = Repo(tmp_path / "good")
    good.commit("feat: gspo", {"a.py": "loss = 'gspo'\n"})
    not_a_repo = tmp_path / "plain-folder"
    not_a_repo.mkdir()
    broken = [config.Framework(f"bad{i}", "Bad", f"o/bad{i}", (), "main", (), (), ("docs/",), True) for i in (1, 2)]
    env = {"RLTRACK_GIT_REPO_TOY": str(good.path), "RLTRACK_GIT_REPO_BAD1": str(tmp_path / "no" / "such" / "repo"),
           "RLTRACK_GIT_REPO_BAD2": str(not_a_repo)}
    os.environ.update(env)
    try:
        load = make_pipeline(tmp_path).run(git_history_source(world=World.live().replace(repos_dir=tmp_path / "clones"),
                                                              frameworks=[*broken, FW]))
        assert not load.has_failed_jobs
        assert counts(tmp_path)["commits"] == 1
        rows = _quarantine(tmp_path)
        assert [(f, s, p, done) for f, s, p, _, done in rows] == [("bad1", "", "", False), ("bad2", "", "", False)]
        assert "repository unavailable: git clone" in rows[0][3] and "not a git repository" in rows[1][3]
        # the repository comes back: it loads, and its quarantine row is resolved
        Repo(not_a_repo).commit("init", {"b.py": "x = 1\n"})
        make_pipeline(tmp_path).run(git_history_source(world=World.live().replace(repos_dir=tmp_path / "clones"),
                                                       frameworks=[*broken, FW]))
    finally:
        for key in env:
            del os.environ[key]
    assert counts(tmp_path)["commits"] == 2
    assert [(f, done) for f, _, _, _, done in _quarantine(tmp_path)] == [("bad1", False), ("bad2", True)]


def _loose(repo: Repo, spec: str) -> tuple[Path, bytes]:
    obj = repo.git("rev-parse", spec)
    path = repo.path / ".git" / "objects" / obj[:2] / obj[2:]
    return path, path.read_bytes()


def test_quarantined_files_are_mined_again_once_readable(tmp_path):
    r = Repo(tmp_path / "r")
    r.commit("init", {"a.py": "x = 1\n"})
    added = r.commit("add the loss", {"algo.py": "def gspo_loss():\n    pass\n", "b.py": "y = 2\n"})
    moved = r.commit("move it", {"algo.py": None, "pkg/algo.py": "def gspo_loss():\n    pass\n"})
    blob, saved = _loose(r, f"{added}:algo.py")
    blob.unlink()  # as a partial clone lacks it
    run(tmp_path, r)
    with duckdb.connect(str(tmp_path / "w.duckdb"), read_only=True) as con:
        before = con.sql("select sha, path, added_lines from raw_git.commit_files order by all").fetchall()
    assert (moved, "algo.py", None) in before and (added, "algo.py", None) in before
    assert [(s, p, done) for _, s, p, _, done in _quarantine(tmp_path)] == sorted(
        [(added, "algo.py", False), (moved, "algo.py", False), (moved, "pkg/algo.py", False)])
    run(tmp_path, r)  # still unreadable: nothing changes
    assert all(not done for *_, done in _quarantine(tmp_path))

    blob.write_bytes(saved)  # fetched again
    for _ in range(2):  # the second run finds nothing to do
        run(tmp_path, r)
        assert {k: n for k, n in counts(tmp_path).items() if k != "commit_mentions"} == {"commits": 3, "commit_files": 4}
        assert all(done for *_, done in _quarantine(tmp_path)) and len(_quarantine(tmp_path)) == 3
    with duckdb.connect(str(tmp_path / "w.duckdb"), read_only=True) as con:
        files = con.sql("select sha, path, old_path, change_type, added_lines from raw_git.commit_files "
                        "order by all").fetchall()
        found = con.sql("select sha, path from raw_git.commit_mentions where value = 'gspo_loss' order by all").fetchall()
        dupes = con.sql("select count(*) - count(distinct (sha, path, kind, value, location)) "
                        "from raw_git.commit_mentions").fetchall()[0][0]
        insertions = con.sql(f"select insertions from raw_git.commits where sha = '{added}'").fetchall()
    assert (added, "algo.py", None, "added", 2) in files
    assert (moved, "pkg/algo.py", "algo.py", "renamed", 0) in files  # the rename is seen again
    assert not any(s == moved and p == "algo.py" for s, p, *_ in files)  # the stale row is gone
    assert (added, "algo.py") in found and dupes == 0 and insertions == [(3,)]


def test_parallel_workers_load_the_same_rows(tmp_path, monkeypatch):
    import ingestion.git.source as gh
    from ingestion.git.jobs import run_in_workers

    repos = []
    for name in ("toy", "other"):
        r = Repo(tmp_path / name)
        for i in range(3):
            r.commit(f"feat: step {i} arXiv:2507.1807{i}", {f"m{i}.py": f"def method_{name}_{i}():\n    pass\n"})
        repos.append(r)
    fws = [FW, config.Framework("other", "Other", "o/other", (), "main", (), (), ("docs/",), True)]
    monkeypatch.setenv("RLTRACK_GIT_REPO_TOY", str(repos[0].path))
    monkeypatch.setenv("RLTRACK_GIT_REPO_OTHER", str(repos[1].path))
    in_workers = []
    monkeypatch.setattr(gh, "run_in_workers", lambda jobs, n: in_workers.append(run_in_workers(jobs, n)) or in_workers[-1])
    monkeypatch.setattr(gh, "PARALLEL_MIN_COMMITS", 0)
    tables = []
    for workers, folder in ((1, "serial"), (2, "parallel")):
        monkeypatch.setenv("RLTRACK_GIT_WORKERS", str(workers))
        make_pipeline(tmp_path / folder).run(git_history_source(world=World.live(), frameworks=fws))
        with duckdb.connect(str(tmp_path / folder / "w.duckdb"), read_only=True) as con:
            tables.append([con.sql(f"select * exclude (_dlt_load_id, _dlt_id) from raw_git.{t} order by all").fetchall()
                           for t in ("commits", "commit_files", "commit_mentions")])
    assert tables[0] == tables[1] and len(tables[0][0]) == 6
    assert len(in_workers) == 1 and set(in_workers[0]) == {"toy", "other"}  # the second load ran in two workers
