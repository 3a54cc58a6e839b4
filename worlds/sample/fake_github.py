"""A loopback GitHub REST server answering in GitHub's JSON shapes, fed by the sample world.

Serves `/repos/{o}/{r}`, `/repos/{o}/{r}/issues`, `/repos/{o}/{r}/issues/{n}`, `/repos/{o}/{r}/issues/comments`,
`/repos/{o}/{r}/pulls`, `/repos/{o}/{r}/pulls/{n}`, `/repos/{o}/{r}/pulls/comments` and
`/repos/{o}/{r}/pulls/{n}/reviews` (review objects a test passes in, served as given) with `state`, `since`, `sort`, `direction`,
`per_page` and `page`, `Link` paging headers and `X-RateLimit-*` headers. Renamed repositories answer
with a 301 to the new name, as GitHub does. `Faults` switches on the failure modes the client must
survive (primary and secondary rate limits, `Retry-After`, 5xx) so tests can exercise them.
"""

from __future__ import annotations

import hashlib
import random
import socket
import struct
import json
import threading
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime, timezone
from http.server import BaseHTTPRequestHandler
from urllib.parse import parse_qs, urlencode, urlsplit

from ingestion import config
from worlds.loopback import serve_on_loopback
from worlds.sample.world import Thread, build_world

RATE_LIMIT = 5000


@dataclass
class Faults:
    """Failure modes; counters are consumed as requests arrive (API calls only, 1-based)."""

    rate_limit_at_call: int | None = None  # from this call on, primary limit (403, remaining 0)
    rate_limit_reset_in_s: float = 30.0  # the limit lifts this long after it starts (server clock)
    retry_after: int = 0  # this many 429s with `Retry-After: 1` (first calls)
    server_errors: int = 0  # this many 502s
    secondary_limits: int = 0  # this many 403 "secondary rate limit" answers
    omit_merged_at: bool = False  # issue objects' pull_request lacks merged_at (older API shape)
    mutate_item: Callable[[str, dict], dict | None] | None = None  # (endpoint, item) -> item
    rate_limit_reset_header: bool = True  # False: the used-up budget comes without X-RateLimit-Reset
    error_rate: float = 0.0  # this share of calls, at random, answers 502 or drops the connection
    rng: random.Random = field(default_factory=lambda: random.Random(0))
    missing_pages: dict[str, int] = field(default_factory=dict)  # path -> this many 404s (a page GitHub lost)


@dataclass
class FakeGitHubState:
    repos: dict[str, list[Thread]]  # current full_name -> threads
    renames: dict[str, str]  # former full_name -> current full_name
    faults: Faults
    clock: Callable[[], float]
    calls: list[str] = field(default_factory=list)  # request paths with query, in order
    # REST objects served as given: repo -> review comments; repo -> pull number -> reviews
    review_comments: dict[str, list[dict]] = field(default_factory=dict)
    reviews: dict[str, dict[int, list[dict]]] = field(default_factory=dict)
    authorized_calls: int = 0
    limited_until: float | None = None
    lock: threading.Lock = field(default_factory=threading.Lock)


def _iso(value: datetime | None) -> str | None:
    return value.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ") if value else None


def _numeric_id(*parts: object) -> int:
    """A stable id for `parts` in [1, 2**62]: 62 bits of blake2b, so a million ids collide with odds
    near 1e-7, and adding a small offset (comments add 1e9) still fits a signed 64-bit integer.
    `parts` are encoded as JSON, so ("a/b", 1) and ("a", "b/1") stay distinct."""
    key = json.dumps(parts, separators=(",", ":"), default=str).encode()
    return (int.from_bytes(hashlib.blake2b(key, digest_size=8).digest(), "big") >> 2) + 1


def _user(login: str) -> dict:
    return {"login": login, "id": _numeric_id("user", login),
            "type": "Bot" if login.endswith("[bot]") else "User", "site_admin": False}


def thread_updated_at(t: Thread) -> datetime:
    stamps = [t.created_at, t.closed_at, t.merged_at, *(c.created_at for c in t.comments)]
    return max(s for s in stamps if s is not None)


def issue_json(base: str, repo: str, t: Thread, omit_merged_at: bool = False) -> dict:
    kind_path = "pull" if t.kind == "pull_request" else "issues"
    item = {
        "url": f"{base}/repos/{repo}/issues/{t.number}",
        "repository_url": f"{base}/repos/{repo}",
        "comments_url": f"{base}/repos/{repo}/issues/{t.number}/comments",
        "html_url": f"https://github.com/{repo}/{kind_path}/{t.number}",
        "id": _numeric_id(repo, "issue", t.number),
        "node_id": f"I_kwDO{_numeric_id(repo, 'node', t.number):x}",
        "number": t.number,
        "title": t.title,
        "user": _user(t.author),
        "labels": [{"id": _numeric_id("label", name), "name": name, "color": "ededed", "default": False}
                   for name in t.labels],
        "state": t.state,
        "locked": False,
        "assignee": None,
        "assignees": [],
        "comments": len(t.comments),
        "created_at": _iso(t.created_at),
        "updated_at": _iso(thread_updated_at(t)),
        "closed_at": _iso(t.closed_at),
        "author_association": t.association,
        "body": t.body,
        "state_reason": t.state_reason,
    }
    if t.kind == "pull_request":
        pr = {"url": f"{base}/repos/{repo}/pulls/{t.number}",
              "html_url": f"https://github.com/{repo}/pull/{t.number}",
              "diff_url": f"https://github.com/{repo}/pull/{t.number}.diff",
              "patch_url": f"https://github.com/{repo}/pull/{t.number}.patch"}
        if not omit_merged_at:
            pr["merged_at"] = _iso(t.merged_at)
        item["pull_request"] = pr
    return item


def pull_json(base: str, repo: str, t: Thread) -> dict:
    return {
        "url": f"{base}/repos/{repo}/pulls/{t.number}",
        "id": _numeric_id(repo, "pull", t.number),
        "number": t.number,
        "state": t.state,
        "title": t.title,
        "user": _user(t.author),
        "body": t.body,
        "created_at": _iso(t.created_at),
        "updated_at": _iso(thread_updated_at(t)),
        "closed_at": _iso(t.closed_at),
        "merged_at": _iso(t.merged_at),
        "merged": t.merged_at is not None,
        "author_association": t.association,
        "labels": [{"name": name} for name in t.labels],
    }


def comments_json(base: str, repo: str, t: Thread) -> list[dict]:
    out = []
    for i, c in enumerate(t.comments):
        cid = _numeric_id(repo, "comment", t.number, i) + 1_000_000_000
        out.append({
            "url": f"{base}/repos/{repo}/issues/comments/{cid}",
            "html_url": f"https://github.com/{repo}/issues/{t.number}#issuecomment-{cid}",
            "issue_url": f"{base}/repos/{repo}/issues/{t.number}",
            "id": cid,
            "node_id": f"IC_kwDO{cid:x}",
            "user": _user(c.author),
            "created_at": _iso(c.created_at),
            "updated_at": _iso(c.created_at),
            "author_association": c.association,
            "body": c.body,
        })
    return out


def _sorted(items: list[dict], params: dict[str, str], default_sort: str) -> list[dict]:
    key = {"created": "created_at", "updated": "updated_at"}.get(params.get("sort", default_sort),
                                                                 "created_at")
    direction = params.get("direction", "desc")
    return sorted(items, key=lambda i: (i.get(key) or "", i.get("id") or 0),
                  reverse=direction != "asc")


class _Handler(BaseHTTPRequestHandler):
    state: FakeGitHubState  # set on the subclass built per server

    def log_message(self, format: str, *args: object) -> None:  # keep test output quiet
        return

    # -- plumbing -------------------------------------------------------------------------
    def _base(self) -> str:
        host, port = self.server.server_address[:2]
        return f"http://{host}:{port}"

    def _send(self, status: int, payload: object, headers: dict[str, str] | None = None) -> None:
        body = json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        for k, v in (headers or {}).items():
            self.send_header(k, v)
        self.end_headers()
        self.wfile.write(body)

    def _rate_headers(self, remaining: int, reset: float) -> dict[str, str]:
        return {"X-RateLimit-Limit": str(RATE_LIMIT), "X-RateLimit-Remaining": str(remaining),
                "X-RateLimit-Used": str(RATE_LIMIT - remaining), "X-RateLimit-Reset": str(int(reset) + 1),
                "X-RateLimit-Resource": "core"}

    def _fault(self, n_call: int) -> bool:
        """Answer with a fault if one is due; returns True when a response was sent."""
        st, f = self.state, self.state.faults
        now = st.clock()
        if f.rate_limit_at_call is not None and n_call >= f.rate_limit_at_call and st.limited_until is None:
            st.limited_until = now + f.rate_limit_reset_in_s
        if st.limited_until is not None and now < st.limited_until:
            headers = self._rate_headers(0, st.limited_until)
            if not f.rate_limit_reset_header:
                headers.pop("X-RateLimit-Reset")
            self._send(403, {"message": "API rate limit exceeded for user.",
                             "documentation_url": "https://docs.github.com/rest/overview/rate-limits-for-the-rest-api"},
                       headers)
            return True
        if f.error_rate and f.rng.random() < f.error_rate:
            if f.rng.random() < 0.5:
                self._send(502, {"message": "Server Error"})
            else:  # the connection drops, as a timed-out proxy would
                self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
                self.connection.close()
                self.close_connection = True
            return True
        if f.retry_after > 0:
            f.retry_after -= 1
            self._send(429, {"message": "Too many requests"}, {"Retry-After": "1"})
            return True
        if f.server_errors > 0:
            f.server_errors -= 1
            self._send(502, {"message": "Server Error"})
            return True
        if f.secondary_limits > 0:
            f.secondary_limits -= 1
            self._send(403, {"message": "You have exceeded a secondary rate limit. Please wait a few "
                                        "minutes before you try again."})
            return True
        return False

    # -- routes ---------------------------------------------------------------------------
    def do_GET(self) -> None:  # noqa: N802 (http.server naming)
        st = self.state
        parts = urlsplit(self.path)
        params = {k: v[-1] for k, v in parse_qs(parts.query).items()}
        segs = [s for s in parts.path.split("/") if s]
        with st.lock:
            st.calls.append(self.path)
            n_call = len(st.calls)
            if (self.headers.get("Authorization") or "").startswith("Bearer "):
                st.authorized_calls += 1
            if self._fault(n_call):
                return
            remaining = max(0, RATE_LIMIT - n_call)
        with st.lock:
            missing = st.faults.missing_pages.get(parts.path, 0)
            if missing:
                st.faults.missing_pages[parts.path] = missing - 1
        if missing:
            return self._send(404, {"message": "Not Found"})
        if len(segs) < 3 or segs[0] != "repos":
            return self._send(404, {"message": "Not Found"})
        full = f"{segs[1]}/{segs[2]}"
        if full in st.renames:  # GitHub redirects renamed repositories
            target = "/".join(["", "repos", *st.renames[full].split("/"), *segs[3:]])
            self.send_response(301)
            self.send_header("Location", self._base() + target + (f"?{parts.query}" if parts.query else ""))
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        if full not in st.repos:
            return self._send(404, {"message": "Not Found"})
        rate = self._rate_headers(remaining, st.clock() + 3600)
        rest = segs[3:]
        base, threads = self._base(), st.repos[full]
        if not rest:
            return self._send(200, {"id": _numeric_id("repo", full), "full_name": full,
                                    "name": segs[2], "owner": {"login": segs[1]},
                                    "default_branch": "main"}, rate)
        if rest == ["issues"]:
            items = [issue_json(base, full, t, st.faults.omit_merged_at) for t in threads
                     if params.get("state", "open") in ("all", t.state)]
            items = [i for i in items if i["updated_at"] >= params["since"]] if "since" in params else items
            return self._page(_sorted(self._mutated("issues", items), params, "created"), params, rate)
        if len(rest) == 2 and rest[0] == "issues" and rest[1].isdigit():
            for t in threads:
                if t.number == int(rest[1]):
                    return self._send(200, issue_json(base, full, t, st.faults.omit_merged_at), rate)
            return self._send(404, {"message": "Not Found"})
        if rest == ["issues", "comments"]:
            items = [c for t in threads for c in comments_json(base, full, t)]
            items = [c for c in items if c["updated_at"] >= params["since"]] if "since" in params else items
            return self._page(_sorted(self._mutated("comments", items), params, "created"), params, rate)
        if rest == ["pulls"]:
            items = [pull_json(base, full, t) for t in threads if t.kind == "pull_request"
                     and params.get("state", "open") in ("all", t.state)]
            return self._page(_sorted(items, params, "created"), params, rate)
        if rest == ["pulls", "comments"]:
            items = st.review_comments.get(full, [])
            items = [c for c in items if c["updated_at"] >= params["since"]] if "since" in params else items
            return self._page(_sorted(self._mutated("review_comments", items), params, "created"), params, rate)
        if len(rest) == 3 and rest[0] == "pulls" and rest[1].isdigit() and rest[2] == "reviews":
            items = st.reviews.get(full, {}).get(int(rest[1]), [])  # GitHub lists them chronologically
            return self._page(self._mutated("reviews", items), params, rate)
        if len(rest) == 2 and rest[0] == "pulls" and rest[1].isdigit():
            for t in threads:
                if t.kind == "pull_request" and t.number == int(rest[1]):
                    return self._send(200, pull_json(base, full, t), rate)
        return self._send(404, {"message": "Not Found"})

    def _mutated(self, endpoint: str, items: list[dict]) -> list[dict]:
        hook = self.state.faults.mutate_item
        if hook is None:
            return items
        return [m for m in (hook(endpoint, dict(i)) for i in items) if m is not None]

    def _page(self, items: list, params: dict[str, str], headers: dict[str, str]) -> None:
        per_page = max(1, min(100, int(params.get("per_page", 30))))
        page = max(1, int(params.get("page", 1)))
        last = max(1, -(-len(items) // per_page))
        chunk = items[(page - 1) * per_page: page * per_page]
        links = []
        path = urlsplit(self.path).path

        def url(p: int) -> str:
            return f"{self._base()}{path}?{urlencode({**params, 'page': p})}"

        if page < last:
            links += [f'<{url(page + 1)}>; rel="next"', f'<{url(last)}>; rel="last"']
        if page > 1:
            links += [f'<{url(1)}>; rel="first"', f'<{url(page - 1)}>; rel="prev"']
        if links:
            headers = {**headers, "Link": ", ".join(links)}
        self._send(200, chunk, headers)


def sample_repos() -> tuple[dict[str, list[Thread]], dict[str, str]]:
    """The world's threads under each sample framework's registry repo, plus its renames."""
    world = build_world()
    repos: dict[str, list[Thread]] = {}
    renames: dict[str, str] = {}
    for fw in (f for f in config.frameworks() if f.in_sample):
        repos[fw.repo] = [t for t in world.threads if t.framework == fw.framework_id]
        for former in fw.former_repos:
            renames[former] = fw.repo
    return repos, renames


@contextmanager
def running_fake_github(
    repos: dict[str, list[Thread]] | None = None,
    renames: dict[str, str] | None = None,
    clock: Callable[[], float] | None = None,
    review_comments: dict[str, list[dict]] | None = None,
    reviews: dict[str, dict[int, list[dict]]] | None = None,
    **faults: object,
) -> Iterator[tuple[str, FakeGitHubState]]:
    """Start the fake on 127.0.0.1:<free port>; yields (base_url, state) and stops it afterwards."""
    import time

    if repos is None:
        repos, default_renames = sample_repos()
        renames = default_renames if renames is None else renames
    state = FakeGitHubState(repos=repos, renames=renames or {}, faults=Faults(**faults),  # type: ignore[arg-type]
                            clock=clock or time.time, review_comments=review_comments or {},
                            reviews=reviews or {})
    handler = type("BoundHandler", (_Handler,), {"state": state})
    with serve_on_loopback(handler, "fake-github") as base_url:
        yield base_url, state


@contextmanager
def serve_sample_github(**faults: object) -> Iterator[str]:
    """The sample world's GitHub, as a base URL to point the client at."""
    with running_fake_github(**faults) as (base_url, _state):
        yield base_url


def threads_for(framework: str) -> Iterable[Thread]:
    return [t for t in build_world().threads if t.framework == framework]
