"""Text helpers every source and the screener share: arXiv's old-style ids, code links in free text,
and the text of a fetched page."""

from __future__ import annotations

import re

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
