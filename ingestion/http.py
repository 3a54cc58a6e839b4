"""A polite HTTP client (GET and POST): minimum spacing between calls, retries with exponential
backoff on 429/5xx and connection resets, and `Retry-After`. Headers (which may hold a token) are never logged."""

from __future__ import annotations

import logging
import random
import time
from collections.abc import Callable, Mapping

import requests

log = logging.getLogger(__name__)
RETRY_STATUSES = frozenset({429, 500, 502, 503, 504})
MAX_FAILED_IN_A_ROW = 2  # pages in a row a site would not serve before a run stops asking it


class SourceUnavailable(RuntimeError):
    """The source kept failing after every retry; the run stops cleanly and resumes next time."""


class PoliteClient:
    def __init__(
        self,
        *,
        min_interval_s: float = 0.0,
        max_retries: int = 5,
        backoff_s: float = 2.0,
        max_backoff_s: float = 120.0,
        timeout_s: float = 60.0,
        headers: Mapping[str, str] | None = None,
        sleep: Callable[[float], None] = time.sleep,
        should_retry: Callable[[requests.Response], float | None] | None = None,
    ) -> None:
        self.session = requests.Session()
        self.session.headers.update({"User-Agent": "rltrack/0.1 (RL framework adoption warehouse)"})
        if headers:
            self.session.headers.update(headers)
        self.min_interval_s = min_interval_s
        self.max_retries = max_retries
        self.backoff_s = backoff_s
        self.max_backoff_s = max_backoff_s
        self.timeout_s = timeout_s
        self.sleep = sleep
        # Source-specific hook: return seconds to wait before retrying this response, or None.
        self.should_retry = should_retry
        self._last_call = 0.0
        self.calls = 0

    def _space(self) -> None:
        wait = self._last_call + self.min_interval_s - time.monotonic()
        if wait > 0:
            self.sleep(wait)
        self._last_call = time.monotonic()

    def _backoff(self, attempt: int) -> float:
        return min(self.max_backoff_s, self.backoff_s * 2**attempt) * (1 + 0.1 * random.random())

    @staticmethod
    def retry_after(resp: requests.Response) -> float | None:
        value = resp.headers.get("Retry-After")
        if value and value.strip().isdigit():
            return float(value)
        return None

    def get(self, url: str, params: Mapping[str, object] | None = None) -> requests.Response:
        return self.request("GET", url, params=params)

    def post(self, url: str, json: object) -> requests.Response:
        return self.request("POST", url, json=json)

    def request(self, method: str, url: str, **kwargs: object) -> requests.Response:
        """Send, spaced and retried; returns the last response (raises SourceUnavailable when none came)."""
        last_error = ""
        for attempt in range(self.max_retries + 1):
            self._space()
            self.calls += 1
            try:
                resp = getattr(self.session, method.lower())(url, timeout=self.timeout_s, **kwargs)
            except (requests.ConnectionError, requests.Timeout) as exc:
                last_error = f"{type(exc).__name__}"
                log.warning("%s %s failed (%s), attempt %d", method, url, last_error, attempt + 1)
                self.sleep(self._backoff(attempt))
                continue
            wait = self.should_retry(resp) if self.should_retry else None
            if wait is None and resp.status_code in RETRY_STATUSES:
                wait = self.retry_after(resp) or self._backoff(attempt)
            if wait is None:
                return resp
            last_error = f"HTTP {resp.status_code}"
            log.warning("%s %s -> %s, retrying in %.1fs", method, url, last_error, wait)
            self.sleep(wait)
        raise SourceUnavailable(f"{method} {url} failed after {self.max_retries + 1} attempts ({last_error})")
