"""GitHub issues, pull requests and comments of every registered framework, as a dlt source.

The world (`ingestion.world`) gives the API endpoint and its politeness: GitHub's REST API live,
a loopback server answering in GitHub's JSON shapes for the sample and recorded worlds.

- `/repos/{o}/{r}/issues?state=all&sort=updated&direction=asc&since=...` returns issues and pull
  requests (items with a `pull_request` key); `merged_at` comes from that key, or from
  `/pulls/{n}` when an older API shape leaves it out.
- `/repos/{o}/{r}/issues/comments?sort=updated&direction=asc&since=...` returns every reply.
- Maintainers often answer pull requests in reviews: `/repos/{o}/{r}/pulls/comments?sort=updated&
  direction=asc&since=...` returns every inline review comment (repo-wide, incremental like issue
  comments), and `/repos/{o}/{r}/pulls/{n}/reviews` the reviews (state, body, submitted_at) of each
  pull request this run loaded (GitHub has no repo-wide reviews listing; a review moves its pull
  request's updated_at, so incremental runs ask only for pull requests that changed).
- Each thread row carries its role (`ingestion.github.thread_roles`: proposal, bug_report,
  failure_report, question, other) and the signal that decided it; a new classifier version
  resets the thread cursors so every thread is classified again.
- A thread read in part (its reviews page missing) keeps what was read, gets a `thread_gaps` row
  (part, reason, detected_at, state open) and is listed in the source state; the next run fetches
  that thread again (`/issues/{n}`) and its missing part, and marks the gap resolved (state, state_at). Nothing is
  dropped, and the step does not fail for it.
- Paging follows `Link: <...>; rel="next"`. Each resource keeps one `updated_at` cursor per repo in
  its dlt state, advanced page by page, so a run stopped by a rate limit keeps what it loaded and
  the next run resumes from there (`since` is inclusive; merges drop the overlap).
- Rate limits: a primary limit (403/429 with `X-RateLimit-Remaining: 0`) is waited out when it
  resets within `max_rate_wait_s`, otherwise the run stops cleanly (`GitHubRateLimited`);
  `Retry-After` is honoured; secondary limits, and a used-up budget with no reset time, back off
  exponentially from a minute (then stop cleanly); 5xx are retried.
- The token comes only from the `GITHUB_TOKEN` environment variable, is sent as a header and is
  never logged, stored in state, or written to a table.
"""

from __future__ import annotations

import csv
import hashlib
import json
import logging
import os
import re
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from datetime import datetime, timezone
from functools import lru_cache
from typing import Any

import dlt
import requests

from ingestion import config
from ingestion.http import PoliteClient, SourceUnavailable
from ingestion.world import GITHUB_API, World
from ingestion.github.thread_roles import CLASSIFIER_VERSION, ThreadText, reply_failure, thread_role

log = logging.getLogger(__name__)

DEFAULT_BASE_URL = GITHUB_API
PER_PAGE = 100
BOT_LOGINS_SEED = config.REPO_ROOT / "dbt_project" / "seeds" / "bot_logins.csv"
QUARANTINE_TABLE = "github_quarantine"
GAPS_TABLE = "thread_gaps"
_GAPS_STATE = "incomplete_threads"  # source state: "repo#number:part" -> the open gap's row
_NEXT_LINK = re.compile(r'<([^>]+)>\s*;\s*rel="next"')
_ISSUE_NUMBER = re.compile(r"/issues/(\d+)$")
_PULL_NUMBER = re.compile(r"/pulls/(\d+)$")


class GitHubRateLimited(SourceUnavailable):
    """GitHub's limit resets later than we are willing to wait; the next run resumes from state."""


class GitHubError(RuntimeError):
    """A non-retryable HTTP error (status only: no headers, no token)."""


class MalformedItem(ValueError):
    """An API object lacking a field the raw contract needs; it goes to the quarantine table."""


# --- retry policy -------------------------------------------------------------------------------
class GitHubRetryPolicy:
    """`PoliteClient.should_retry` hook: seconds to wait before retrying a response, or None."""

    def __init__(self, max_wait_s: float, clock: Callable[[], float] = time.time,
                 secondary_backoff_s: float = 60.0) -> None:
        self.max_wait_s = max_wait_s
        self.clock = clock
        self.secondary_backoff_s = secondary_backoff_s
        self._secondary_streak = 0

    def bounded_wait(self, wait: float, why: str) -> float:
        if wait > self.max_wait_s:
            resume = datetime.fromtimestamp(self.clock() + wait, timezone.utc).strftime("%Y-%m-%d %H:%M:%SZ")
            raise GitHubRateLimited(
                f"GitHub {why}: it lifts in {wait:.0f}s (about {resume}), more than the "
                f"{self.max_wait_s:.0f}s we wait; stopping now, the next run resumes from saved cursors")
        return wait

    def __call__(self, resp: requests.Response) -> float | None:
        if resp.status_code < 400:
            self._secondary_streak = 0
            return None
        if resp.status_code not in (403, 429):
            return None  # 5xx: PoliteClient's own backoff; 4xx: not retryable
        exhausted = resp.headers.get("X-RateLimit-Remaining") == "0"
        reset = _reset_time(resp)
        if exhausted and reset is not None:
            return self.bounded_wait(max(0.0, reset - self.clock()) + 1.0, "primary rate limit")
        retry_after = PoliteClient.retry_after(resp)
        if retry_after is not None:
            return self.bounded_wait(retry_after, "Retry-After")
        # GitHub's advice when neither header says when: wait at least a minute, longer each time.
        # A used-up budget without a reset time (some proxies and Enterprise servers drop it) is a
        # rate limit too, never a hard error that skips the repository.
        if exhausted or "rate limit" in resp.text.lower():
            wait = self.secondary_backoff_s * 2**self._secondary_streak
            self._secondary_streak += 1
            return self.bounded_wait(wait, "rate limit without a reset time" if exhausted else "secondary rate limit")
        return None


def _reset_time(resp: requests.Response) -> float | None:
    """`X-RateLimit-Reset` (epoch seconds), or None when absent or unreadable."""
    try:
        return float(resp.headers["X-RateLimit-Reset"])
    except (KeyError, ValueError):
        return None


# --- client -------------------------------------------------------------------------------------
class GitHubClient:
    """Pages through GitHub REST endpoints politely. One instance per run; shared by resources."""

    def __init__(
        self,
        base_url: str | None = None,
        *,
        max_rate_wait_s: float = 900.0,
        min_interval_s: float = 0.5,
        max_retries: int = 5,
        backoff_s: float = 2.0,
        per_page: int = PER_PAGE,
        sleep: Callable[[float], None] = time.sleep,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.per_page = per_page
        self.base_url = (base_url or DEFAULT_BASE_URL).rstrip("/")
        headers = {"Accept": "application/vnd.github+json", "X-GitHub-Api-Version": "2022-11-28"}
        token = os.environ.get("GITHUB_TOKEN", "").strip()
        if token:
            headers["Authorization"] = f"Bearer {token}"
        self.authenticated = bool(token)
        self.policy = GitHubRetryPolicy(max_rate_wait_s, clock)
        self.http = PoliteClient(min_interval_s=min_interval_s, max_retries=max_retries,
                                 backoff_s=backoff_s, headers=headers, sleep=sleep,
                                 should_retry=self.policy)
        self.sleep, self.clock = sleep, clock
        self.stop_reason: str | None = None  # set when a run stopped early (rate limit, outage)
        self.errors: list[str] = []  # repos skipped this run (404, malformed pages)
        self._exhausted_until: float | None = None
        self._shared_pages: dict[str, list] = {}  # url -> [items, next_url, reads_left]
        self._lock = threading.Lock()
        self._repo_identity: dict[str, str | None] = {}

    # paths are relative to base_url; absolute URLs (Link headers) are used as given
    def _url(self, path_or_url: str) -> str:
        return path_or_url if "://" in path_or_url else f"{self.base_url}{path_or_url}"

    def _respect_exhausted_budget(self) -> None:
        """Never send a call we know will be refused: wait for the reset, or stop."""
        if self._exhausted_until is None:
            return
        wait = self._exhausted_until - self.clock()
        self._exhausted_until = None
        if wait > 0:
            self.sleep(self.policy.bounded_wait(wait + 1.0, "primary rate limit (budget used up)"))

    def get(self, path_or_url: str, params: dict[str, Any] | None = None) -> requests.Response:
        if self.stop_reason:
            raise GitHubRateLimited(self.stop_reason)
        self._respect_exhausted_budget()
        resp = self.http.get(self._url(path_or_url), params=params)
        if resp.headers.get("X-RateLimit-Remaining") == "0" and (reset := _reset_time(resp)) is not None:
            self._exhausted_until = reset
        return resp

    def get_json(self, path_or_url: str, params: dict[str, Any] | None = None) -> tuple[Any, str | None]:
        resp = self.get(path_or_url, params)
        if resp.status_code >= 400:
            raise GitHubError(f"GET {resp.url.split('?')[0]} -> HTTP {resp.status_code}")
        match = _NEXT_LINK.search(resp.headers.get("Link", ""))
        try:
            data = resp.json()
        except ValueError:
            raise GitHubError(f"GET {resp.url.split('?')[0]}: body is not JSON") from None
        return data, (match.group(1) if match else None)

    def paginate(self, path: str, params: dict[str, Any], shared_by: int = 1) -> Iterator[list]:
        """Yield each page's JSON list, following rel="next". With `shared_by` > 1 a page is fetched
        once and served from memory to that many readers (issues and pull requests share pages)."""
        url: str | None = path
        query: dict[str, Any] | None = params
        while url:
            key = self._url(url) + "?" + json.dumps(query, sort_keys=True, default=str)
            with self._lock:
                cached = self._shared_pages.get(key)
                if cached is not None:
                    cached[2] -= 1
                    if cached[2] <= 0:
                        del self._shared_pages[key]
            if cached is not None:
                items, next_url = cached[0], cached[1]
            else:
                items, next_url = self.get_json(url, query)
                if not isinstance(items, list):
                    raise GitHubError(f"GET {url.split('?')[0]}: expected a JSON list")
                if shared_by > 1:
                    with self._lock:
                        self._shared_pages[key] = [items, next_url, shared_by - 1]
            yield items
            url, query = next_url, None  # the next link carries the whole query

    def resolve_repo(self, full_name: str) -> str | None:
        """The repository's current full name (GitHub redirects renamed repos), None if gone."""
        if full_name not in self._repo_identity:
            resp = self.get(f"/repos/{full_name}")
            if resp.status_code == 404:
                self._repo_identity[full_name] = None
            elif resp.status_code >= 400:
                raise GitHubError(f"GET /repos/{full_name} -> HTTP {resp.status_code}")
            else:
                self._repo_identity[full_name] = resp.json().get("full_name") or full_name
        return self._repo_identity[full_name]

    def stop(self, exc: Exception) -> None:
        self.stop_reason = self.stop_reason or str(exc)

    def record_error(self, where: str, exc: Exception) -> None:
        log.error("github %s skipped this run: %s", where, exc)
        self.errors.append(f"{where}: {exc}")


def repos_to_fetch(client: GitHubClient, fw: config.Framework) -> list[str]:
    """The current repo plus former names that are distinct repositories. A former name that
    redirects to the current repo is a rename: its threads are already under the current name."""
    repos = [fw.repo]
    for former in fw.former_repos:
        identity = client.resolve_repo(former)
        if identity is None:
            log.info("%s: former repo %s not found, skipped", fw.framework_id, former)
        elif identity.lower() in {r.lower() for r in repos} or identity.lower() == fw.repo.lower():
            log.info("%s: former repo %s redirects to %s (renamed), skipped", fw.framework_id, former, identity)
        else:
            log.warning("%s: former repo %s is a separate repository (%s); fetched under the same "
                        "framework_id", fw.framework_id, former, identity)
            repos.append(former)
    return repos


# --- parsing ------------------------------------------------------------------------------------
@lru_cache(maxsize=1)
def bot_logins() -> frozenset[str]:
    if not BOT_LOGINS_SEED.exists():
        return frozenset()
    with BOT_LOGINS_SEED.open(newline="", encoding="utf-8") as fh:
        return frozenset(r["login"].strip().lower() for r in csv.DictReader(fh) if r.get("login"))


def is_bot(login: str | None, user_type: str | None = None) -> bool:
    if not login:
        return False
    name = login.strip().lower()
    return name.endswith("[bot]") or user_type == "Bot" or name.removesuffix("[bot]") in bot_logins()


def parse_ts(value: Any, field: str, required: bool = True) -> datetime | None:
    if value is None or value == "":
        if required:
            raise MalformedItem(f"missing {field}")
        return None
    try:
        ts = datetime.fromisoformat(str(value).replace("Z", "+00:00")).astimezone(timezone.utc)
    except (ValueError, OverflowError):  # OverflowError: e.g. year 1 with a positive UTC offset
        raise MalformedItem(f"unparseable {field}: {str(value)[:40]!r}") from None
    if not 2000 <= ts.year <= 2100:
        raise MalformedItem(f"implausible {field}: {str(value)[:40]!r}")
    return ts


def _int(item: dict, field: str) -> int:
    value = item.get(field)
    if isinstance(value, bool) or not isinstance(value, int):
        raise MalformedItem(f"missing or non-integer {field}")
    return value


def _author(item: dict) -> tuple[str | None, bool]:
    user = item.get("user")
    if user is None:  # deleted accounts can come back as null
        return None, False
    if not isinstance(user, dict):
        raise MalformedItem("user is not an object")
    login = user.get("login")
    return login, is_bot(login, user.get("type"))


def is_pull_request(item: Any) -> bool:
    return isinstance(item, dict) and item.get("pull_request") is not None


def thread_row(framework_id: str, repo: str, item: Any) -> dict:
    """An issue-endpoint object -> a raw_github.issues / pull_requests row (raises MalformedItem)."""
    if not isinstance(item, dict):
        raise MalformedItem("not a JSON object")
    author, bot = _author(item)
    labels = item.get("labels") or []
    row = {
        "framework_id": framework_id,
        "repo": repo,
        "number": _int(item, "number"),
        "id": _int(item, "id"),
        "kind": "pull_request" if is_pull_request(item) else "issue",
        "title": item.get("title") or "",
        "body": item.get("body"),
        "state": item.get("state") or None,
        "state_reason": item.get("state_reason"),
        "author": author,
        "author_association": item.get("author_association"),
        "labels": json.dumps(sorted(str(lb.get("name")) for lb in labels if isinstance(lb, dict))),
        "created_at": parse_ts(item.get("created_at"), "created_at"),
        "updated_at": parse_ts(item.get("updated_at"), "updated_at"),
        "closed_at": parse_ts(item.get("closed_at"), "closed_at", required=False),
        "comments_count": item.get("comments") if isinstance(item.get("comments"), int) else None,
        "is_bot": bot,
    }
    if row["state"] not in ("open", "closed"):
        raise MalformedItem(f"unexpected state {row['state']!r}")
    row["role"], row["role_signal"] = thread_role(ThreadText(
        row["title"], row["body"] or "", row["kind"], tuple(json.loads(row["labels"])), bot))
    row["role_version"] = CLASSIFIER_VERSION
    if row["kind"] == "pull_request":
        row["merged_at"] = parse_ts(item["pull_request"].get("merged_at"), "merged_at", required=False) \
            if isinstance(item["pull_request"], dict) else None
    return row


def _reply_row(framework_id: str, repo: str, item: Any, url_field: str, number_key: str) -> dict:
    """The fields issue comments and review comments share; the thread number comes from `url_field`."""
    if not isinstance(item, dict):
        raise MalformedItem("not a JSON object")
    author, bot = _author(item)
    match = (_ISSUE_NUMBER if url_field == "issue_url" else _PULL_NUMBER).search(str(item.get(url_field) or ""))
    if not match:
        raise MalformedItem(f"missing or unrecognised {url_field}")
    return {
        "framework_id": framework_id,
        "repo": repo,
        "id": _int(item, "id"),
        number_key: int(match.group(1)),
        "author": author,
        "author_association": item.get("author_association"),
        "body": item.get("body"),
        "created_at": parse_ts(item.get("created_at"), "created_at"),
        "updated_at": parse_ts(item.get("updated_at"), "updated_at"),
        "is_bot": bot,
    }


def comment_row(framework_id: str, repo: str, item: Any) -> dict:
    """An `/issues/comments` object -> a raw_github.comments row, with the training failure it tells
    first-hand (`thread_roles.reply_failure`; read by int_threads__unified for the thread's role)."""
    row = _reply_row(framework_id, repo, item, "issue_url", "issue_number")
    row["failure_signal"] = None if row["is_bot"] else reply_failure(row["body"])
    row["role_version"] = CLASSIFIER_VERSION
    return row


def review_comment_row(framework_id: str, repo: str, item: Any) -> dict:
    """A `/pulls/comments` object (an inline review comment) -> a raw_github.review_comments row."""
    row = _reply_row(framework_id, repo, item, "pull_request_url", "pull_number")
    review_id, reply_to = item.get("pull_request_review_id"), item.get("in_reply_to_id")
    row["review_id"] = review_id if isinstance(review_id, int) else None
    row["in_reply_to_id"] = reply_to if isinstance(reply_to, int) else None
    row["path"] = item.get("path")
    return row


def review_row(framework_id: str, repo: str, pull_number: int, item: Any) -> dict | None:
    """A `/pulls/{n}/reviews` object -> a raw_github.reviews row; None for a pending review (not
    submitted, so only its author can see it)."""
    if not isinstance(item, dict):
        raise MalformedItem("not a JSON object")
    author, bot = _author(item)
    submitted = parse_ts(item.get("submitted_at"), "submitted_at", required=False)
    if submitted is None or item.get("state") == "PENDING":
        return None
    return {
        "framework_id": framework_id,
        "repo": repo,
        "id": _int(item, "id"),
        "pull_number": pull_number,
        "state": item.get("state"),
        "author": author,
        "author_association": item.get("author_association"),
        "body": item.get("body") or None,
        "submitted_at": submitted,
        "is_bot": bot,
    }


def quarantine_row(resource: str, framework_id: str, repo: str, item: Any, reason: str) -> Any:
    """A row for `github_quarantine`, marked for that table (merge on resource, repo, item_key)."""
    raw = json.dumps(item, sort_keys=True, default=str)
    key = None
    if isinstance(item, dict):
        key = item.get("number") if resource in ("issues", "pull_requests") else item.get("id")
    row = {
        "resource": resource,
        "framework_id": framework_id,
        "repo": repo,
        "item_key": str(key) if isinstance(key, int) else "sha1:" + hashlib.sha1(raw.encode()).hexdigest()[:16],
        "reason": reason,
        "raw_json": raw[:4000],
        "fetched_at": datetime.now(timezone.utc),
    }
    # columns={} drops the resource's column hints from this table variant (types are inferred)
    hints = dlt.mark.make_hints(table_name=QUARANTINE_TABLE, write_disposition="merge", columns={},
                                primary_key=["resource", "repo", "item_key"])
    return dlt.mark.with_hints(row, hints, create_table_variant=True)


def _open_gaps() -> dict[str, dict]:
    """The threads known to be read in part, shared by the resources of a run and kept across runs."""
    return dlt.current.source_state().setdefault(_GAPS_STATE, {})


def gap_row(gap: dict, resolved: bool = False) -> Any:
    """A `thread_gaps` row (merge on framework_id, number, part): state open, or resolved now. Every
    column is set (a variant table's types are inferred from its rows, and dlt skips all-null columns)."""
    row = {**gap, "detected_at": datetime.fromisoformat(gap["detected_at"]),
           "state": "resolved" if resolved else "open", "state_at": datetime.now(timezone.utc)}
    # columns={} drops the reviews resource's hints from this variant; the thread_gaps resource declares the table
    hints = dlt.mark.make_hints(table_name=GAPS_TABLE, write_disposition="merge",
                                primary_key=["framework_id", "number", "part"], columns={})
    return dlt.mark.with_hints(row, hints, create_table_variant=True)


def _record_gap(framework_id: str, repo: str, number: int, kind: str, part: str, reason: str) -> Any:
    gaps = _open_gaps()
    key = f"{repo}#{number}:{part}"
    detected = (gaps.get(key) or {}).get("detected_at") or datetime.now(timezone.utc).isoformat()
    gaps[key] = {"framework_id": framework_id, "repo": repo, "number": number, "kind": kind, "part": part,
                 "reason": reason, "detected_at": detected}
    log.warning("github %s#%s read in part (%s missing: %s); it is read again next run", repo, number, part, reason)
    return gap_row(gaps[key])


def _resolve_gap(repo: str, number: int, part: str) -> Any | None:
    gap = _open_gaps().pop(f"{repo}#{number}:{part}", None)
    return gap_row(gap, resolved=True) if gap else None


def _page_cursor(items: list) -> str | None:
    """The newest parseable updated_at on a page, as GitHub's ISO form."""
    newest = None
    for item in items:
        if isinstance(item, dict):
            try:
                ts = parse_ts(item.get("updated_at"), "updated_at")
            except MalformedItem:
                continue
            newest = ts if newest is None or ts > newest else newest
    return newest.strftime("%Y-%m-%dT%H:%M:%SZ") if newest else None


# --- dlt source ---------------------------------------------------------------------------------


def _ts() -> dict:  # a fresh dict per column: dlt writes the column name into it
    return {"data_type": "timestamp", "timezone": True}


_THREAD_COLUMNS = {
    "framework_id": {"data_type": "text"}, "repo": {"data_type": "text"}, "kind": {"data_type": "text"},
    "number": {"data_type": "bigint", "nullable": False}, "id": {"data_type": "bigint"},
    "title": {"data_type": "text"}, "body": {"data_type": "text"}, "state": {"data_type": "text"},
    "state_reason": {"data_type": "text"}, "author": {"data_type": "text"},
    "author_association": {"data_type": "text"}, "labels": {"data_type": "text"},
    "created_at": _ts(), "updated_at": _ts(), "closed_at": _ts(), "comments_count": {"data_type": "bigint"},
    "is_bot": {"data_type": "bool"}, "role": {"data_type": "text"}, "role_signal": {"data_type": "text"},
    "role_version": {"data_type": "text"},
}
_COMMENT_COLUMNS = {
    "framework_id": {"data_type": "text"}, "repo": {"data_type": "text"},
    "id": {"data_type": "bigint", "nullable": False}, "issue_number": {"data_type": "bigint"},
    "author": {"data_type": "text"}, "author_association": {"data_type": "text"},
    "body": {"data_type": "text"}, "created_at": _ts(), "updated_at": _ts(), "is_bot": {"data_type": "bool"},
    "failure_signal": {"data_type": "text"}, "role_version": {"data_type": "text"},
}
_REVIEW_COMMENT_COLUMNS = {
    **{k: dict(v) for k, v in _COMMENT_COLUMNS.items() if k not in ("issue_number", "failure_signal", "role_version")},
    "framework_id": {"data_type": "text"}, "repo": {"data_type": "text"},
    "pull_number": {"data_type": "bigint"}, "review_id": {"data_type": "bigint"},
    "in_reply_to_id": {"data_type": "bigint"}, "path": {"data_type": "text"},
}
_GAP_COLUMNS = {
    "framework_id": {"data_type": "text"}, "repo": {"data_type": "text"},
    "number": {"data_type": "bigint", "nullable": False}, "kind": {"data_type": "text"},
    "part": {"data_type": "text"}, "reason": {"data_type": "text"}, "detected_at": _ts(),
    "state": {"data_type": "text"}, "state_at": _ts(),
}
_REVIEW_COLUMNS = {
    "id": {"data_type": "bigint", "nullable": False}, "framework_id": {"data_type": "text"},
    "repo": {"data_type": "text"}, "pull_number": {"data_type": "bigint"}, "state": {"data_type": "text"}, "author": {"data_type": "text"}, "author_association": {"data_type": "text"},
    "body": {"data_type": "text"}, "submitted_at": _ts(), "is_bot": {"data_type": "bool"},
}


class _Endpoint:
    """The client every resource of one source run shares."""

    def __init__(self, client: GitHubClient) -> None:
        self.client = client

    @contextmanager
    def open(self) -> Iterator[GitHubClient]:
        yield self.client


def _select(frameworks: Sequence[str | config.Framework] | None, world: World) -> list[config.Framework]:
    if frameworks is None:
        return world.frameworks()
    by_id = world.registry()
    return [f if isinstance(f, config.Framework) else by_id[f] for f in frameworks]


def _pages_per_repo(client: GitHubClient, fws: list[config.Framework], cursors: dict[str, str],
                    suffix: str, base_params: dict[str, Any], shared_by: int = 1) -> Iterator[tuple]:
    """(framework, repo, page) for every repo, from its cursor on. A repo's cursor moves to the
    page's newest `updated_at` once the caller has taken the page. A failing repo (404, bad JSON)
    is recorded and skipped; rate limits and outages (SourceUnavailable) propagate."""
    for fw in fws:
        try:
            repos = repos_to_fetch(client, fw)
        except GitHubError as exc:
            client.record_error(fw.framework_id, exc)
            continue
        for repo in repos:
            params = {**base_params, "per_page": client.per_page}
            if cursors.get(repo):
                params["since"] = cursors[repo]
            try:
                for page in client.paginate(f"/repos/{repo}{suffix}", params, shared_by=shared_by):
                    yield fw, repo, page
                    newest = _page_cursor(page)
                    if newest and newest > cursors.get(repo, ""):
                        cursors[repo] = newest
            except GitHubError as exc:
                client.record_error(repo, exc)


def _thread_stream(endpoint: _Endpoint, fws: list[config.Framework], want: str) -> Iterator[Any]:
    """Rows of one kind ('issue' | 'pull_request') from the issues endpoint, per repo cursor."""
    state = dlt.current.resource_state()
    if state.get("role_version") != CLASSIFIER_VERSION:  # new role rules: classify every thread again
        state["updated_since"], state["role_version"] = {}, CLASSIFIER_VERSION
    cursors: dict[str, str] = state.setdefault("updated_since", {})
    resource = "issues" if want == "issue" else "pull_requests"
    params = {"state": "all", "sort": "updated", "direction": "asc"}
    read: set[tuple[str, int]] = set()
    with endpoint.open() as client:
        try:
            for fw, repo, page in _pages_per_repo(client, fws, cursors, "/issues", params, shared_by=2):
                rows: list[dict] = []
                for item in page:
                    if is_pull_request(item) != (want == "pull_request"):
                        continue
                    try:
                        row = thread_row(fw.framework_id, repo, item)
                    except MalformedItem as exc:
                        yield quarantine_row(resource, fw.framework_id, repo, item, str(exc))
                        continue
                    if want == "pull_request" and "merged_at" not in item["pull_request"]:
                        row["merged_at"] = _merged_at_from_pulls(client, repo, row["number"])
                    rows.append(row)
                    read.add((repo, row["number"]))
                if rows:
                    yield rows
            yield from _reread_incomplete(client, fws, want, read)
        except SourceUnavailable as exc:
            client.stop(exc)
            log.error("github %s stopped early: %s", resource, exc)


def _reread_incomplete(client: GitHubClient, fws: list[config.Framework], want: str,
                       read: set[tuple[str, int]]) -> Iterator[Any]:
    """Threads of this kind an earlier run read in part, fetched again (`/issues/{n}`) unless the
    listing just delivered them; their rows bring the missing part again (reviews are a transformer
    of pull_requests). A thread that still fails stays listed for the next run."""
    wanted = {fw.framework_id for fw in fws}
    for gap in list(_open_gaps().values()):
        number, repo = gap["number"], gap["repo"]
        if gap["kind"] != want or gap["framework_id"] not in wanted or (repo, number) in read:
            continue
        read.add((repo, number))
        try:
            item, _ = client.get_json(f"/repos/{repo}/issues/{number}")
            row = thread_row(gap["framework_id"], repo, item)
            if want == "pull_request" and "merged_at" not in (item.get("pull_request") or {}):
                row["merged_at"] = _merged_at_from_pulls(client, repo, number)
        except (GitHubError, MalformedItem) as exc:
            log.warning("github %s#%s not read again this run (%s); it stays incomplete", repo, number, exc)
            continue
        yield [row]


def _merged_at_from_pulls(client: GitHubClient, repo: str, number: int) -> datetime | None:
    """Older issue payloads lack pull_request.merged_at: ask /pulls/{n}."""
    try:
        data, _ = client.get_json(f"/repos/{repo}/pulls/{number}")
        return parse_ts(data.get("merged_at"), "merged_at", required=False)
    except (GitHubError, MalformedItem, AttributeError) as exc:
        log.warning("%s#%s: merged_at unavailable (%s)", repo, number, exc)
        return None


def _reply_stream(endpoint: _Endpoint, fws: list[config.Framework], resource: str, suffix: str,
                  to_row: Callable[[str, str, Any], dict]) -> Iterator[Any]:
    """Rows of a repo-wide, `since`-incremental listing of replies (issue comments, review comments).
    Issue comments carry what the role rules read in them: new rules read every comment again."""
    state = dlt.current.resource_state()
    if resource == "comments" and state.get("role_version") != CLASSIFIER_VERSION:
        state["updated_since"], state["role_version"] = {}, CLASSIFIER_VERSION
    cursors: dict[str, str] = state.setdefault("updated_since", {})
    params = {"sort": "updated", "direction": "asc"}
    with endpoint.open() as client:
        try:
            for fw, repo, page in _pages_per_repo(client, fws, cursors, suffix, params):
                rows: list[dict] = []
                for item in page:
                    try:
                        rows.append(to_row(fw.framework_id, repo, item))
                    except MalformedItem as exc:
                        yield quarantine_row(resource, fw.framework_id, repo, item, str(exc))
                if rows:
                    yield rows
        except SourceUnavailable as exc:
            client.stop(exc)
            log.error("github %s stopped early: %s", resource, exc)


def _review_stream(endpoint: _Endpoint, items: Any) -> Iterator[Any]:
    """Reviews of the pull requests in one batch of pull_requests rows (quarantined items skipped)."""
    pulls = [r for r in (items if isinstance(items, list) else [items])
             if isinstance(r, dict) and r.get("kind") == "pull_request" and isinstance(r.get("number"), int)]
    if not pulls:
        return
    with endpoint.open() as client:
        rows: list[dict] = []
        for pr in pulls:
            if client.stop_reason:
                break
            path = f"/repos/{pr['repo']}/pulls/{pr['number']}/reviews"
            try:
                for page in client.paginate(path, {"per_page": client.per_page}):
                    for item in page:
                        try:
                            row = review_row(pr["framework_id"], pr["repo"], pr["number"], item)
                        except MalformedItem as exc:
                            yield quarantine_row("reviews", pr["framework_id"], pr["repo"], item, str(exc))
                            continue
                        if row is not None:
                            rows.append(row)
            except GitHubError as exc:  # the reviews read so far are kept; the thread is incomplete
                yield _record_gap(pr["framework_id"], pr["repo"], pr["number"], "pull_request", "reviews", str(exc))
            except SourceUnavailable as exc:
                client.stop(exc)
                log.error("github reviews stopped early: %s", exc)
            else:
                if resolved := _resolve_gap(pr["repo"], pr["number"], "reviews"):
                    yield resolved
        if rows:
            yield rows


@dlt.source(name="github", max_table_nesting=0)
def github_source(
    world: World | None = None,
    frameworks: list[str] | None = None,
    max_rate_wait_s: float = 900.0,
    client: Any = None,
) -> Any:
    """Resources `issues`, `pull_requests`, `comments`, `review_comments` and `reviews` (a transformer
    of `pull_requests`), plus tables `thread_gaps` (threads read in part) and `github_quarantine`, of the world's frameworks (default: the live
    world), from the world's GitHub endpoint.

    Pass a `GitHubClient` as `client` to control waits (tests) or to read `client.stop_reason`
    after the run (see `load_github`); it is pointed at the world's endpoint."""
    world = world or World.live()
    fws = _select(frameworks, world)
    if client is None:
        client = client_for(world, max_rate_wait_s=max_rate_wait_s)
    client.base_url = world.github_api.rstrip("/")
    endpoint = _Endpoint(client)

    @dlt.resource(name="issues", primary_key=["framework_id", "number"], write_disposition="merge",
                  columns=_THREAD_COLUMNS)
    def issues() -> Iterator[Any]:
        yield from _thread_stream(endpoint, fws, "issue")

    @dlt.resource(name="pull_requests", primary_key=["framework_id", "number"], write_disposition="merge",
                  columns={**_THREAD_COLUMNS, "merged_at": _ts()})
    def pull_requests() -> Iterator[Any]:
        yield from _thread_stream(endpoint, fws, "pull_request")

    @dlt.resource(name="comments", primary_key="id", write_disposition="merge", columns=_COMMENT_COLUMNS)
    def comments() -> Iterator[Any]:
        yield from _reply_stream(endpoint, fws, "comments", "/issues/comments", comment_row)

    @dlt.resource(name="review_comments", primary_key="id", write_disposition="merge",
                  columns=_REVIEW_COMMENT_COLUMNS)
    def review_comments() -> Iterator[Any]:
        yield from _reply_stream(endpoint, fws, "review_comments", "/pulls/comments", review_comment_row)

    @dlt.transformer(data_from=pull_requests, name="reviews", primary_key="id", write_disposition="merge",
                     columns=_REVIEW_COLUMNS)
    def reviews(items: Any) -> Iterator[Any]:
        yield from _review_stream(endpoint, items)

    @dlt.resource(name=GAPS_TABLE, primary_key=["framework_id", "number", "part"], write_disposition="merge",
                  columns=_GAP_COLUMNS)
    def thread_gaps() -> Iterator[Any]:
        """Declares the table (Dagster asset, empty table); its rows come from the reviews transformer."""
        yield from ()

    return issues, pull_requests, comments, review_comments, reviews, thread_gaps


def client_for(world: World, **kwargs: Any) -> GitHubClient:
    """A client asking the world's GitHub endpoint as politely as the world says."""
    polite = world.github_politeness
    return GitHubClient(world.github_api, min_interval_s=polite.min_interval_s, backoff_s=polite.backoff_s, **kwargs)


def load_github(pipeline: dlt.Pipeline, client: GitHubClient | None = None, **source_kwargs: Any) -> Any:
    """Run the source into `pipeline`; what was fetched is loaded (with its cursors) even when a
    rate limit stopped the run, and then `GitHubRateLimited` (or `GitHubError` for skipped repos)
    is raised so the caller sees it."""
    client = client or client_for(source_kwargs.get("world") or World.live(),
                                  max_rate_wait_s=source_kwargs.pop("max_rate_wait_s", 900.0))
    info = pipeline.run(github_source(client=client, **source_kwargs))
    if client.stop_reason:
        raise GitHubRateLimited(client.stop_reason)
    if client.errors:
        raise GitHubError("loaded the rest, but skipped: " + "; ".join(client.errors))
    return info
