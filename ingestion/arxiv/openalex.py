"""OpenAlex: the authors' affiliations of arXiv papers (the arXiv API almost never carries them).

A work is found by the DOI arXiv registers for every paper, 10.48550/arXiv.<id>: the works API is
asked for up to `BATCH` DOIs at once (`filter=doi:a|b|...`), paged with OpenAlex's cursor
(`cursor=*`, then `meta.next_cursor`). Requests carry `mailto` (OpenAlex's polite pool) from
`RLTRACK_OPENALEX_MAILTO`; it is sent as a query parameter and never logged by us.
Read per author: `authorships[].author.display_name`, `authorships[].institutions[].display_name`
and `authorships[].raw_affiliation_strings`.

`paper_affiliations` is the dlt resource (`raw_arxiv.paper_affiliations`, merge on arxiv_id);
`AffiliationLookup` is what the arXiv source uses while screening (live mode, when
`RLTRACK_OPENALEX_MAILTO` or `RLTRACK_OPENALEX_API` is set), so an author's lab reaches
`maintainer_framework_ids` (ingestion/screening/rules.py). An unreachable OpenAlex never stops the arXiv
load: the lookup logs once, switches itself off for the run and papers keep arXiv's affiliations.
"""

from __future__ import annotations

import json
import logging
import os
from collections.abc import Iterable, Iterator
from datetime import datetime, timezone

import dlt
import requests

from ingestion.http import PoliteClient, SourceUnavailable

log = logging.getLogger(__name__)

API_URL = "https://api.openalex.org"
BATCH = 50  # DOIs per filter (OpenAlex accepts up to 100 OR-ed values)
PER_PAGE = 50
MIN_INTERVAL_S = 0.1  # the polite pool allows 10 requests a second
MAILTO_ENV = "RLTRACK_OPENALEX_MAILTO"
API_ENV = "RLTRACK_OPENALEX_API"  # a mirror or a test server
DOI_PREFIX = "10.48550/arxiv."


def arxiv_doi(arxiv_id: str) -> str:
    return DOI_PREFIX + arxiv_id.lower()


def arxiv_id_of(work: dict) -> str | None:
    """The arXiv id of a work from its DOI ("https://doi.org/10.48550/arxiv.2503.14476")."""
    doi = (work.get("doi") or (work.get("ids") or {}).get("doi") or "").lower()
    _, sep, rest = doi.partition(DOI_PREFIX)
    return rest or None if sep else None


def authors_of(work: dict) -> list[dict]:
    """[{name, affiliation}] in author order; affiliation joins institution names and raw strings."""
    out = []
    for a in work.get("authorships") or []:
        parts: list[str] = []
        for name in [i.get("display_name") for i in a.get("institutions") or []] + list(a.get("raw_affiliation_strings") or []):
            if name and name not in parts:
                parts.append(name)
        out.append({"name": (a.get("author") or {}).get("display_name") or a.get("raw_author_name") or "",
                    "affiliation": "; ".join(parts) or None, "source": "OpenAlex"})
    return out


class OpenAlexClient:
    def __init__(self, base_url: str = API_URL, *, http: PoliteClient | None = None, mailto: str | None = None):
        self.base_url = base_url.rstrip("/")
        self.http = http or PoliteClient(min_interval_s=MIN_INTERVAL_S, max_retries=3, max_backoff_s=30.0)
        self.mailto = mailto if mailto is not None else os.environ.get(MAILTO_ENV) or None

    def works(self, arxiv_ids: Iterable[str]) -> Iterator[dict]:
        """The works OpenAlex holds for these papers (ids it does not know are simply absent)."""
        ids = list(dict.fromkeys(arxiv_ids))
        for i in range(0, len(ids), BATCH):
            params = {"filter": "doi:" + "|".join(arxiv_doi(x) for x in ids[i:i + BATCH]),
                      "per-page": PER_PAGE, "cursor": "*"}
            if self.mailto:
                params["mailto"] = self.mailto
            while True:
                resp = self.http.get(f"{self.base_url}/works", params=params)
                if resp.status_code != 200:
                    raise SourceUnavailable(f"OpenAlex answered HTTP {resp.status_code} for /works")
                page = resp.json()
                yield from page.get("results") or []
                cursor = (page.get("meta") or {}).get("next_cursor")
                if not cursor or not page.get("results"):
                    break
                params = {**params, "cursor": cursor}


def default_lookup() -> AffiliationLookup | None:
    """The live lookup, when the environment asks for it (a polite-pool e-mail or an endpoint)."""
    base_url = os.environ.get(API_ENV)
    if not (base_url or os.environ.get(MAILTO_ENV)):
        return None
    return AffiliationLookup(OpenAlexClient(base_url or API_URL))


class AffiliationLookup:
    """{arxiv_id: [{name, affiliation}]} per batch of papers; off for the run after a failure."""

    def __init__(self, client: OpenAlexClient) -> None:
        self.client = client
        self.failed: str | None = None

    def __call__(self, arxiv_ids: Iterable[str]) -> dict[str, list[dict]]:
        if self.failed:
            return {}
        try:
            return {aid: authors_of(w) for w in self.client.works(arxiv_ids) if (aid := arxiv_id_of(w))}
        except (SourceUnavailable, requests.RequestException, ValueError) as exc:
            self.failed = str(exc)
            log.warning("OpenAlex unavailable, screening with arXiv's affiliations only this run: %s", exc)
            return {}


def with_affiliations(row: dict, authors: list[dict] | None) -> dict:
    """The paper row (for screening) with OpenAlex's affiliated authors added to arXiv's."""
    found = [a for a in authors or () if a["affiliation"]]
    if not found:
        return row
    own = row.get("authors") or []
    own = json.loads(own) if isinstance(own, str) else list(own)
    return {**row, "authors": json.dumps(own + found)}


@dlt.resource(name="paper_affiliations", primary_key="arxiv_id", write_disposition="merge")
def paper_affiliations(arxiv_ids: Iterable[str], client: OpenAlexClient | None = None) -> Iterator[list[dict]]:
    """One row per paper OpenAlex knows: arxiv_id, openalex_id, authors (JSON text), fetched_at."""
    client = client or OpenAlexClient()
    now = datetime.now(timezone.utc)
    batch = []
    for work in client.works(arxiv_ids):
        if aid := arxiv_id_of(work):
            batch.append({"arxiv_id": aid, "openalex_id": work.get("id"), "authors": json.dumps(authors_of(work)),
                          "fetched_at": now})
        if len(batch) >= PER_PAGE:
            yield batch
            batch = []
    if batch:
        yield batch
