"""Text helpers every source and the screener share: arXiv's old-style ids, code links in free text,
the text of a fetched page, and a method name's identifier form and how common its words are."""

from __future__ import annotations

import re
from functools import lru_cache

import requests

MAX_UNDECODABLE_SHARE = 0.1  # more U+FFFD / NUL characters: binary or UTF-16 (about half), not stray bytes

# Code links: GitHub, Hugging Face, GitLab (incl. self-hosted gitlab.* hosts), Gitee, Bitbucket, Codeberg and
# anonymised review repositories (anonymous.4open.science), scheme optional.
_CODE_URL_RE = re.compile(
    r"(?:https?://)?(?:www\.)?(?:github\.com|huggingface\.co|gitlab\.com|gitlab\.[a-z0-9\-]+(?:\.[a-z]{2,})+|"
    r"gitee\.com|bitbucket\.org|codeberg\.org|anonymous\.4open\.science)"
    r"/[^\s,;()\[\]{}<>\"'`]+",
    re.IGNORECASE,
)


def method_token(name: str) -> str:
    """The identifier form of a method name, as dbt's `method_token` macro computes it
    ('Dr. GRPO' -> 'dr_grpo', 'REINFORCE++' -> 'reinforce_plus_plus')."""
    text = name.lower().replace("++", "_plus_plus")
    text = re.sub(r"[^a-z0-9]+", "_", text)
    return re.sub(r"_+", "_", text).strip("_")


@lru_cache(maxsize=262_144)
def word_zipf(token: str) -> float:
    """How common the token's words are in English (wordfreq's Zipf scale: 3 = once per million
    words; 0 = unknown): the least common of its parts, so `test_time` is ordinary words and
    `dr_grpo` is not. A name made of ordinary words needs a method context to be evidence."""
    if "plus_plus" in token or not token.strip("_"):  # a symbol in the name (REINFORCE++): no phrase
        return 0.0
    from wordfreq import zipf_frequency  # imported on first use: its word lists load slowly

    return min(zipf_frequency(part, "en") for part in token.split("_") if part)


def canonical_old_id(archive: str, number: str) -> str:
    """An old-style id as arXiv keys it: archive in lower case, no subject class
    ('math.GT', '0309136' -> 'math/0309136'). The one rule for papers, mentions and report seeds."""
    return f"{archive.split('.')[0].lower()}/{number}"


def find_code_urls(*texts: str | None) -> list[str]:
    """Repository/model links in the given texts, in order, de-duplicated, with a https:// scheme."""
    urls: list[str] = []
    for text in texts:
        for m in _CODE_URL_RE.finditer(text or ""):
            url = m.group(0).rstrip(".:!?")
            if not url.lower().startswith("http"):
                url = "https://" + url
            if url not in urls:
                urls.append(url)
    return urls


def page_text(resp: requests.Response) -> str:
    """The body as text: UTF-8 (arXiv's, and HTML's default) unless the server names a charset;
    requests would read an undeclared text/html body as Latin-1."""
    if "charset=" not in resp.headers.get("Content-Type", "").lower():
        resp.encoding = "utf-8"
    return resp.text


def undecodable(page: str) -> bool:
    """Mostly bytes that are not text (a binary or mis-encoded body), beyond a few stray ones."""
    return page.count("\ufffd") + page.count("\x00") > MAX_UNDECODABLE_SHARE * len(page)
