"""GitHub source against the loopback fake: paging, since, rate limits, retries, token hygiene,
issue/PR split, bots, idempotent reruns, renamed and separate former repos, quarantine."""

from __future__ import annotations

import logging
from datetime import datetime, time, timedelta, timezone
from pathlib import Path

import dlt
import duckdb
import pytest
import requests

from ingestion import config
from ingestion.github.source import (
    GitHubClient,
    GitHubError,
    GitHubRateLimited,
    GitHubRetryPolicy,
    github_source,
    is_bot,
    load_github,
    thread_row,
)
from worlds.sample.fake_github import _numeric_id, comments_json, running_fake_github, sample_repos
from worlds.sample.serve import sample_world, serving_sample_github
from worlds.sample.world import OBSERVATION_END, Comment, Thread, build_world

SAMPLE_IDS = [f.framework_id for f in config.frameworks() if f.in_sample]


class FakeClock:
    """Shared by client and server so waits take no real time."""

    def __init__(self) -> None:
        self.t = 1_800_000_000.0
        self.sleeps: list[float] = []

    def now(self) -> float:
        return self.t

    def sleep(self, seconds: float) -> None:
        self.sleeps.append(seconds)
        self.t += seconds


def make_pipeline(tmp_path: Path, name: str = "github") -> dlt.Pipeline:
    return dlt.pipeline(pipeline_name=name, destination=dlt.destinations.duckdb(str(tmp_path / "w.duckdb")),
                        dataset_name="raw_github", pipelines_dir=str(tmp_path / "dlt"))


def client_for(clock: FakeClock, **kw: object) -> GitHubClient:
    return GitHubClient(min_interval_s=0.0, backoff_s=0.5, sleep=clock.sleep, clock=clock.now, **kw)


def rows(tmp_path: Path, sql: str) -> list[tuple]:
    with duckdb.connect(str(tmp_path / "w.duckdb"), read_only=True) as con:
        return con.sql(sql).fetchall()


def world_counts() -> dict[str, int]:
    threads = [t for t in build_world().threads if t.framework in SAMPLE_IDS]
    return {"issues": sum(t.kind == "issue" for t in threads),
            "pull_requests": sum(t.kind == "pull_request" for t in threads),
            "comments": sum(len(t.comments) for t in threads)}


def table_counts(tmp_path: Path) -> dict[str, int]:
    return {t: rows(tmp_path, f"select count(*) from raw_github.{t}")[0][0]
            for t in ("issues", "pull_requests", "comments")}


def snapshot(tmp_path: Path) -> set[tuple]:
    out = set()
    for t, key in (("issues", "number"), ("pull_requests", "number"), ("comments", "id")):
        out |= {(t, *r) for r in rows(tmp_path, f"select framework_id, {key}, updated_at from raw_github.{t}")}
    return out


def test_sample_mode_loads_the_world_split_into_issues_and_prs_with_bots_flagged(tmp_path: Path) -> None:
    with serving_sample_github() as world:
        make_pipeline(tmp_path).run(github_source(world=world))
    assert table_counts(tmp_path) == world_counts()
    # a merged PR keeps merged_at; issues are never PRs
    merged = rows(tmp_path, "select count(*) from raw_github.pull_requests where merged_at is not null")[0][0]
    assert merged == sum(1 for t in build_world().threads if t.merged_at)
    assert rows(tmp_path, "select distinct kind from raw_github.issues") == [("issue",)]
    # replies keep their own timestamps (time to first maintainer reply is computed in dbt)
    first = rows(tmp_path, "select min(created_at) from raw_github.comments where author_association='MEMBER'")
    assert first[0][0] is not None
    # bots: the [bot] suffix, user.type == "Bot", or a login in the bot_logins seed
    bots = rows(tmp_path, "select distinct author from raw_github.pull_requests where is_bot")
    assert ("dependabot[bot]",) in bots
    assert rows(tmp_path, "select count(*) from raw_github.comments where is_bot and author <> 'github-actions[bot]'") == [(0,)]
    assert rows(tmp_path, "select count(*) from raw_github.comments where is_bot")[0][0] > 0
    assert is_bot("HuggingFaceDocBuilderDev") and is_bot("renovate[bot]") and not is_bot("qgallouedec")
    assert is_bot("someapp", "Bot")


def test_link_paging_since_and_rerun_adds_no_duplicates(tmp_path: Path) -> None:
    clock = FakeClock()
    with running_fake_github(clock=clock.now) as (base, state):
        client = client_for(clock, per_page=5)
        pipe = make_pipeline(tmp_path)
        pipe.run(github_source(world=sample_world(github_api=base), client=client))
        first_calls = list(state.calls)
        assert any("page=2" in c for c in first_calls)  # followed rel="next"
        assert table_counts(tmp_path) == world_counts()
        # issues and pull_requests read the same pages: each issues page fetched once
        issue_pages = [c for c in first_calls if "/issues?" in c]
        assert len(issue_pages) == len(set(issue_pages))
        state.calls.clear()
        pipe.run(github_source(world=sample_world(github_api=base), client=client_for(clock, per_page=5)))
    assert table_counts(tmp_path) == world_counts()
    assert all("since=" in c for c in state.calls if "/issues" in c)
    cursors = pipe.state["sources"]["github"]["resources"]["issues"]["updated_since"]
    assert set(cursors) == {f.repo for f in config.frameworks() if f.in_sample}


def test_new_reply_is_picked_up_incrementally(tmp_path: Path) -> None:
    repos, renames = sample_repos()
    pipe = make_pipeline(tmp_path)
    with running_fake_github(repos, renames) as (base, _):
        pipe.run(github_source(world=sample_world(github_api=base)))
    trl = repos["huggingface/trl"]
    t = trl[0]
    late = datetime.combine(OBSERVATION_END + timedelta(days=10), time(9), timezone.utc)  # after run 1
    trl[0] = Thread(**{**t.__dict__, "comments": (*t.comments, Comment("qgallouedec", "MEMBER", late, "Follow-up."))})
    with running_fake_github(repos, renames) as (base, state):
        pipe.run(github_source(world=sample_world(github_api=base)))
        assert any("since=" in c for c in state.calls)
    counts = world_counts()
    counts["comments"] += 1
    assert table_counts(tmp_path) == counts


def test_short_primary_rate_limit_is_waited_out_without_hammering(tmp_path: Path) -> None:
    clock = FakeClock()
    with running_fake_github(clock=clock.now) as (base, state):
        make_pipeline(tmp_path / "unlimited").run(github_source(world=sample_world(github_api=base), client=client_for(clock)))
        unlimited = len(state.calls)
    with running_fake_github(clock=clock.now, rate_limit_at_call=3, rate_limit_reset_in_s=120) as (base, state):
        make_pipeline(tmp_path).run(github_source(world=sample_world(github_api=base), client=client_for(clock)))
        limited = [c for c in state.calls]
    assert table_counts(tmp_path) == world_counts()
    assert max(clock.sleeps) >= 120  # waited until X-RateLimit-Reset
    assert len(limited) == unlimited + 1  # one refused call, then a single retry after the reset


def test_long_rate_limit_stops_cleanly_and_next_run_resumes_without_gaps(tmp_path: Path) -> None:
    clock = FakeClock()
    pipe = make_pipeline(tmp_path)
    with running_fake_github(clock=clock.now, rate_limit_at_call=4, rate_limit_reset_in_s=3600) as (base, state):
        with pytest.raises(GitHubRateLimited, match="next run resumes"):
            load_github(pipe, client=client_for(clock, per_page=4), world=sample_world(github_api=base))
        refused = sum(1 for _ in state.calls[3:])
    assert refused == 1  # stopped at the first refusal: never hammered
    assert clock.sleeps == [] or max(clock.sleeps) < 3600
    partial = table_counts(tmp_path)
    assert 0 < sum(partial.values()) < sum(world_counts().values())
    with running_fake_github() as (base, _):
        load_github(pipe, client=client_for(clock, per_page=4), world=sample_world(github_api=base))
    clean = tmp_path / "clean"
    clean.mkdir()
    with running_fake_github() as (base, _):
        load_github(make_pipeline(clean), client=client_for(clock, per_page=4),
                    world=sample_world(github_api=base))
    assert snapshot(tmp_path) == snapshot(clean)
    assert table_counts(tmp_path) == world_counts()


@pytest.mark.parametrize("fault, expected_sleeps", [
    ({"retry_after": 2}, [1.0, 1.0]),
    ({"secondary_limits": 2}, [60.0, 120.0]),
])
def test_retry_after_and_secondary_limit(tmp_path: Path, fault: dict, expected_sleeps: list) -> None:
    clock = FakeClock()
    with running_fake_github(clock=clock.now, **fault) as (base, _):
        make_pipeline(tmp_path).run(github_source(world=sample_world(github_api=base), client=client_for(clock)))
    assert clock.sleeps == expected_sleeps
    assert table_counts(tmp_path) == world_counts()


def test_server_errors_are_retried(tmp_path: Path) -> None:
    clock = FakeClock()
    with running_fake_github(clock=clock.now, server_errors=3) as (base, state):
        make_pipeline(tmp_path).run(github_source(world=sample_world(github_api=base), client=client_for(clock)))
    assert len(clock.sleeps) == 3
    assert table_counts(tmp_path) == world_counts()


def test_token_never_leaks(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    secret = "ghp_rltrackLeakCanary7Q2w9Zx"
    monkeypatch.setenv("GITHUB_TOKEN", secret)
    caplog.set_level(logging.DEBUG)
    clock = FakeClock()
    with running_fake_github(clock=clock.now, server_errors=1, secondary_limits=1) as (base, state):
        client = client_for(clock)
        pipe = make_pipeline(tmp_path)
        pipe.run(github_source(world=sample_world(github_api=base), client=client))
        assert state.authorized_calls == len(state.calls)  # the token was used
    assert secret not in caplog.text
    for f in (tmp_path / "dlt").rglob("*"):
        if f.is_file():
            assert secret.encode() not in f.read_bytes(), f
    with duckdb.connect(str(tmp_path / "w.duckdb"), read_only=True) as con:
        tables = con.sql("select table_schema, table_name from information_schema.tables").fetchall()
        assert len(tables) >= 3
        for schema, table in tables:
            cols = [c[0] for c in con.sql(f'describe "{schema}"."{table}"').fetchall()]
            hits = con.sql(f'select count(*) from "{schema}"."{table}" where '
                           + " or ".join(f'cast("{c}" as varchar) like ?' for c in cols),
                           params=[f"%{secret}%"] * len(cols)).fetchall()[0][0]
            assert hits == 0, (schema, table)


def test_renamed_repo_is_not_refetched_and_separate_former_repo_is_kept(tmp_path: Path) -> None:
    repos, renames = sample_repos()
    assert renames == {"volcengine/verl": "verl-project/verl"}
    with running_fake_github(repos, renames) as (base, state):
        make_pipeline(tmp_path).run(github_source(world=sample_world(github_api=base), frameworks=["verl"]))
        assert not any(c.startswith("/repos/volcengine/verl/issues") for c in state.calls)
    old = Thread("verl", 7, "issue", "Old repo issue", "from before the move", "lab-intern", "NONE",
                 build_world().threads[0].created_at, "closed", "completed",
                 build_world().threads[0].created_at, None, ())
    separate = tmp_path / "separate"
    separate.mkdir()
    with running_fake_github({**repos, "volcengine/verl": [old]}, {}) as (base, _):
        make_pipeline(separate).run(github_source(world=sample_world(github_api=base), frameworks=["verl"]))
    got = rows(separate, "select framework_id, repo from raw_github.issues where number = 7")
    assert got == [("verl", "volcengine/verl")]


def test_merged_at_falls_back_to_pulls_endpoint(tmp_path: Path) -> None:
    with running_fake_github(omit_merged_at=True) as (base, state):
        make_pipeline(tmp_path).run(github_source(world=sample_world(github_api=base), frameworks=["slime"]))
        assert any("/pulls/" in c for c in state.calls)
    merged = rows(tmp_path, "select count(*) from raw_github.pull_requests where merged_at is not null")[0][0]
    assert merged == sum(1 for t in build_world().threads if t.framework == "slime" and t.merged_at)


def test_malformed_items_are_quarantined_not_fatal(tmp_path: Path) -> None:
    broken = {"n": 0}

    def corrupt(endpoint: str, item: dict) -> dict:
        if endpoint == "issues" and "pull_request" not in item and broken["n"] < 2:
            broken["n"] += 1
            item["created_at"] = None if broken["n"] == 1 else "yesterday"
        if endpoint == "comments" and item["body"].startswith("+1"):
            item["issue_url"] = None
        return item

    with running_fake_github(mutate_item=corrupt) as (base, _):
        make_pipeline(tmp_path).run(github_source(world=sample_world(github_api=base), frameworks=["trl"]))
    reasons = rows(tmp_path, "select resource, reason from raw_github.github_quarantine order by 1, 2")
    assert ("issues", "missing created_at") in reasons
    assert any(r[0] == "issues" and r[1].startswith("unparseable created_at") for r in reasons)
    loaded = rows(tmp_path, "select count(*) from raw_github.issues")[0][0]
    trl_issues = sum(1 for t in build_world().threads if t.framework == "trl" and t.kind == "issue")
    assert loaded == trl_issues - 2


def test_thread_row_tolerates_optional_nulls() -> None:
    item = {"number": 3, "id": 9, "title": None, "body": None, "user": None, "labels": None,
            "state": "open", "created_at": "2025-01-02T03:04:05Z", "updated_at": "2025-01-02T03:04:05Z",
            "closed_at": None, "comments": None, "author_association": None}
    row = thread_row("trl", "huggingface/trl", item)
    assert row["author"] is None and row["labels"] == "[]" and row["title"] == "" and not row["is_bot"]


def _response(status: int, headers: dict[str, str] | None = None, body: bytes = b"[]") -> requests.Response:
    resp = requests.Response()
    resp.status_code, resp._content, resp.url = status, body, "http://fake/repos/o/r/issues"
    resp.headers.update(headers or {})
    return resp


def test_retry_policy_decisions() -> None:
    clock = FakeClock()
    policy = GitHubRetryPolicy(max_wait_s=900, clock=clock.now)
    reset = {"X-RateLimit-Remaining": "0", "X-RateLimit-Reset": str(int(clock.t) + 60)}
    assert policy(_response(403, reset)) == pytest.approx(61)
    assert policy(_response(429, {"Retry-After": "5"})) == 5
    assert policy(_response(403, body=b'{"message": "Resource not accessible"}')) is None
    assert policy(_response(502)) is None and policy(_response(200)) is None
    with pytest.raises(GitHubRateLimited):
        policy(_response(403, {"X-RateLimit-Remaining": "0", "X-RateLimit-Reset": str(int(clock.t) + 7200)}))


def test_used_up_budget_on_a_success_waits_before_the_next_call() -> None:
    clock = FakeClock()
    client = client_for(clock)
    answers = [_response(200, {"X-RateLimit-Remaining": "0", "X-RateLimit-Reset": str(int(clock.t) + 100)}),
               _response(200), _response(200, {"X-RateLimit-Remaining": "0",
                                                "X-RateLimit-Reset": str(int(clock.t) + 99_999)})]
    sent: list[str] = []
    client.http.get = lambda url, params=None: (sent.append(url), answers.pop(0))[1]  # type: ignore[method-assign]
    client.get_json("/a")
    client.get_json("/b")
    assert clock.sleeps and clock.sleeps[0] >= 100  # waited for the reset instead of calling
    client.get_json("/c")
    with pytest.raises(GitHubRateLimited):
        client.get_json("/d")
    assert len(sent) == 3  # the refused call was never sent


def test_missing_repo_is_skipped_and_reported_after_loading_the_rest(tmp_path: Path) -> None:
    with running_fake_github() as (base, _):
        with pytest.raises(GitHubError, match="NVIDIA-NeMo/RL"):
            load_github(make_pipeline(tmp_path), world=sample_world(github_api=base),
                        frameworks=["slime", "nemo_rl"])
    slime = sum(1 for t in build_world().threads if t.framework == "slime" and t.kind == "issue")
    assert rows(tmp_path, "select count(*) from raw_github.issues where framework_id = 'slime'") == [(slime,)]


def test_fake_ids_stay_distinct_positive_and_64_bit_at_300k_comments() -> None:
    """crc32-based fake ids collided at this scale, silently merging comments (id is their key)."""
    when = datetime(2025, 1, 1, tzinfo=timezone.utc)
    comment = Comment("alice", "NONE", when, "thanks")
    repos = [f"org{k}/repo-{k}" for k in range(20)]
    threads = [Thread("fw", number, "issue", "t", "b", "alice", "NONE", when, "open", None, None, None, (),
                      (comment,) * 300) for number in range(1, 51)]
    comment_ids = [c["id"] for repo in repos for t in threads for c in comments_json("http://x", repo, t)]
    assert len(comment_ids) == 300_000
    other_ids = [_numeric_id(repo, kind, n) for repo in repos for kind in ("issue", "pull", "node")
                 for n in range(1, 2001)]
    other_ids += [_numeric_id("user", f"user{n}") for n in range(5000)]
    other_ids += [_numeric_id("label", f"area/{n}") for n in range(1000)] + [_numeric_id("repo", r) for r in repos]
    ids = comment_ids + other_ids
    assert len(set(ids)) == len(ids)
    assert all(0 < i < 2**63 for i in ids)
    assert _numeric_id("a/b", 1) != _numeric_id("a", "b/1")
    assert _numeric_id("user", "alice") == 2396096601537983687  # stable across runs and machines


def test_used_up_budget_without_reset_header_is_a_rate_limit_not_a_skipped_repo() -> None:
    """403 + `X-RateLimit-Remaining: 0` and no `X-RateLimit-Reset`: back off a minute, longer each
    time; when the backoff outgrows the bound the run stops cleanly (resumable), never skips."""
    clock = FakeClock()
    policy = GitHubRetryPolicy(max_wait_s=150, clock=clock.now)
    no_reset = {"X-RateLimit-Remaining": "0", "X-RateLimit-Limit": "60", "X-RateLimit-Used": "60"}
    body = b'{"message": "API rate limit exceeded for 203.0.113.7.", "documentation_url": "https://docs.github.com"}'
    assert policy(_response(403, no_reset, body)) == 60
    assert policy(_response(403, no_reset, body)) == 120
    with pytest.raises(GitHubRateLimited, match="next run resumes"):
        policy(_response(403, no_reset, body))
    assert GitHubRetryPolicy(900, clock.now)(_response(403, {**no_reset, "X-RateLimit-Reset": "soon"}, b"{}")) == 60


def test_used_up_budget_without_reset_header_is_waited_out_in_a_run() -> None:
    clock = FakeClock()
    client = client_for(clock)
    no_reset = {"X-RateLimit-Remaining": "0"}
    answers = [_response(403, no_reset, b'{"message": "API rate limit exceeded"}'), _response(200, body=b"[1]")]
    client.http.session.get = lambda url, params=None, timeout=None: answers.pop(0)  # type: ignore[method-assign]
    assert client.get_json("/repos/o/r/issues") == ([1], None)
    assert clock.sleeps[-1] == 60 and not client.errors and client.stop_reason is None


# --- pull-request reviews and review comments (fixtures in GitHub's REST shapes) ------------------
def _review(repo: str, pr: int, rid: int, login: str, association: str, state: str, body: str,
            submitted: str | None) -> dict:
    return {"id": rid, "node_id": f"PRR_{rid}", "user": {"login": login, "id": rid + 7, "type": "User"},
            "body": body, "state": state, "html_url": f"https://github.com/{repo}/pull/{pr}#pullrequestreview-{rid}",
            "pull_request_url": f"https://api.github.com/repos/{repo}/pulls/{pr}", "author_association": association,
            "submitted_at": submitted, "commit_id": "0" * 40}


def _review_comment(repo: str, pr: int | None, cid: int, login: str, association: str, body: str, at: str,
                    reply_to: int | None = None) -> dict:
    item = {"url": f"https://api.github.com/repos/{repo}/pulls/comments/{cid}", "pull_request_review_id": cid + 1,
            "id": cid, "node_id": f"PRRC_{cid}", "diff_hunk": "@@ -1,3 +1,4 @@", "path": "trl/trainer/grpo_trainer.py",
            "commit_id": "1" * 40, "original_commit_id": "1" * 40, "user": {"login": login, "id": cid + 3, "type": "User"},
            "body": body, "created_at": at, "updated_at": at, "author_association": association,
            "html_url": f"https://github.com/{repo}/pull/{pr}#discussion_r{cid}", "line": 12, "side": "RIGHT"}
    if pr is not None:
        item["pull_request_url"] = f"https://api.github.com/repos/{repo}/pulls/{pr}"
    if reply_to is not None:
        item["in_reply_to_id"] = reply_to
    return item


def test_reviews_and_review_comments_land_with_pending_skipped_and_bad_items_quarantined(tmp_path: Path) -> None:
    repos, renames = sample_repos()
    repo = "huggingface/trl"
    pr = next(t for t in repos[repo] if t.kind == "pull_request" and not t.author.endswith("[bot]"))
    reviews = {repo: {pr.number: [
        _review(repo, pr.number, 501, "qgallouedec", "MEMBER", "APPROVED", "", "2025-08-02T10:00:00Z"),
        _review(repo, pr.number, 502, "kashif", "COLLABORATOR", "COMMENTED", "Minor comment for the docs", "2025-08-01T09:00:00Z"),
        _review(repo, pr.number, 503, "qgallouedec", "MEMBER", "PENDING", "draft", None),
    ]}}
    review_comments = {repo: [
        _review_comment(repo, pr.number, 601, "qgallouedec", "MEMBER", "Use the existing helper here.", "2025-08-01T08:00:00Z"),
        _review_comment(repo, pr.number, 602, pr.author, "CONTRIBUTOR", "Done.", "2025-08-01T12:00:00Z", reply_to=601),
        _review_comment(repo, None, 603, "someone", "NONE", "no pull request url", "2025-08-01T13:00:00Z"),
    ]}
    pipe = make_pipeline(tmp_path)
    with running_fake_github(repos, renames, reviews=reviews, review_comments=review_comments) as (base, state):
        pipe.run(github_source(world=sample_world(github_api=base)))
        first_review_calls = [c for c in state.calls if c.split("?")[0].endswith("/reviews")]
    assert len(first_review_calls) == sum(t.kind == "pull_request" for ts in repos.values() for t in ts)
    assert rows(tmp_path, "select id, pull_number, state, author_association, body, submitted_at::varchar "
                          "from raw_github.reviews order by id") == [
        (501, pr.number, "APPROVED", "MEMBER", None, "2025-08-02 10:00:00+00"),
        (502, pr.number, "COMMENTED", "COLLABORATOR", "Minor comment for the docs", "2025-08-01 09:00:00+00")]
    assert rows(tmp_path, "select id, pull_number, in_reply_to_id, review_id from raw_github.review_comments "
                          "order by id") == [(601, pr.number, None, 602), (602, pr.number, 601, 603)]
    assert rows(tmp_path, "select resource, item_key from raw_github.github_quarantine") == [("review_comments", "603")]
    # a rerun asks again only for pull requests updated since the cursor, and duplicates nothing
    with running_fake_github(repos, renames, reviews=reviews, review_comments=review_comments) as (base, state):
        pipe.run(github_source(world=sample_world(github_api=base)))
        assert len([c for c in state.calls if c.split("?")[0].endswith("/reviews")]) < len(first_review_calls)
    assert rows(tmp_path, "select count(*) from raw_github.reviews") == [(2,)]
    assert rows(tmp_path, "select count(*) from raw_github.review_comments") == [(2,)]


def test_a_malformed_review_is_quarantined_and_a_rate_limit_stops_reviews_cleanly(tmp_path: Path) -> None:
    repos, renames = sample_repos()
    repo = "huggingface/trl"
    pr = next(t for t in repos[repo] if t.kind == "pull_request")
    bad = {k: v for k, v in _review(repo, pr.number, 701, "x", "NONE", "COMMENTED", "hi", "2025-08-01T00:00:00Z").items()
           if k != "id"}
    with running_fake_github(repos, renames, reviews={repo: {pr.number: [bad]}}) as (base, _):
        make_pipeline(tmp_path).run(github_source(world=sample_world(github_api=base)))
    assert rows(tmp_path, "select resource, reason from raw_github.github_quarantine") == [("reviews", "missing or non-integer id")]
    # a long rate limit met while asking for reviews: what was fetched loads, the run stops cleanly
    clock = FakeClock()
    with running_fake_github(clock=clock.now) as (base, state):
        make_pipeline(tmp_path / "probe").run(github_source(world=sample_world(github_api=base), client=client_for(clock)))
        first_review_call = next(i for i, c in enumerate(state.calls) if c.split("?")[0].endswith("/reviews"))
    with running_fake_github(clock=clock.now, rate_limit_at_call=first_review_call + 2,
                             rate_limit_reset_in_s=3600) as (base, state):
        with pytest.raises(GitHubRateLimited):
            load_github(make_pipeline(tmp_path / "limited"), client=client_for(clock), world=sample_world(github_api=base))
        assert len(state.calls) == first_review_call + 2  # stopped at the first refusal


def test_a_thread_read_in_part_is_marked_and_read_again_next_run(tmp_path: Path) -> None:
    repos, renames = sample_repos()
    repo = "huggingface/trl"
    pr = next(t for t in repos[repo] if t.kind == "pull_request" and not t.author.endswith("[bot]"))
    reviews = {repo: {pr.number: [_review(repo, pr.number, 801, "qgallouedec", "MEMBER", "APPROVED", "ok",
                                          "2025-08-02T10:00:00Z")]}}
    reviews_path = f"/repos/{repo}/pulls/{pr.number}/reviews"
    pipe = make_pipeline(tmp_path)
    with running_fake_github(repos, renames, reviews=reviews, missing_pages={reviews_path: 1}) as (base, _):
        load_github(pipe, client=client_for(FakeClock()), world=sample_world(github_api=base))  # no error
    # the thread is kept, with its role from what was read, and marked incomplete
    assert rows(tmp_path, f"select role is not null from raw_github.pull_requests where number = {pr.number}") == [(True,)]
    assert rows(tmp_path, "select number, kind, part, reason like '%404%', state, state_at >= detected_at "
                          "from raw_github.thread_gaps") == [(pr.number, "pull_request", "reviews", True, "open", True)]
    # the next run (nothing changed upstream) reads that thread and its reviews again, and resolves the gap
    with running_fake_github(repos, renames, reviews=reviews) as (base, state):
        load_github(pipe, client=client_for(FakeClock()), world=sample_world(github_api=base))
        assert f"/repos/{repo}/issues/{pr.number}" in [c.split("?")[0] for c in state.calls]
        assert [c.split("?")[0] for c in state.calls].count(reviews_path) == 1
    assert rows(tmp_path, "select count(*) from raw_github.reviews") == [(1,)]
    assert rows(tmp_path, "select count(*), min(state) from raw_github.thread_gaps") == [(1, "resolved")]
    assert rows(tmp_path, f"select count(*) from raw_github.pull_requests where number = {pr.number}") == [(1,)]
    # a third run asks for nothing more
    with running_fake_github(repos, renames, reviews=reviews) as (base, state):
        load_github(pipe, client=client_for(FakeClock()), world=sample_world(github_api=base))
        assert f"/repos/{repo}/issues/{pr.number}" not in [c.split("?")[0] for c in state.calls]


def test_thread_rows_carry_their_role_and_the_deciding_signal(tmp_path: Path) -> None:
    with serving_sample_github() as world:
        make_pipeline(tmp_path).run(github_source(world=world))
    roles = dict(rows(tmp_path, "select title, role from raw_github.issues union all "
                                "select title, role from raw_github.pull_requests"))
    assert roles["Training hangs after the first rollout on 4 nodes"] == "failure_report"
    assert roles["How do I resume from a checkpoint?"] == "question"
    assert roles["Bump torch from 2.6.0 to 2.7.0"] == "other"
    assert all(role == "proposal" for title, role in roles.items() if title.startswith(("Add ", "[Feature] Support")))
    assert rows(tmp_path, "select count(*) from raw_github.issues where role_signal is null or role_version is null") == [(0,)]
