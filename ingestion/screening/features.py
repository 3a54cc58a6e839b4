"""What the learned screener reads of a paper: its words and phrases, and the rule screener's cues.

`document` is the text the word/phrase vectoriser sees (title twice, so a title word weighs more,
then abstract and arXiv comment); `rule_cues` the rules' named cues and verdicts (ingestion/screening/
rules.py `cues`), prefixed "cue:" so a reason shows which of the two kinds of evidence weighed.
`text_quality` says why a text cannot carry a confident decision (empty, truncated, LaTeX-heavy,
not English); the screener then answers with low confidence and says so.
"""

from __future__ import annotations

import re

from ingestion.screening.rules import PaperText, cues

CUE_PREFIX = "cue: "
_LATEX = re.compile(r"\\[a-zA-Z]+|\$[^$]*\$|[{}^_]")
_ENGLISH = re.compile(r"\b(?:the|of|and|to|a|in|we|is|for|that|on|with|this|by|are|as)\b", re.I)
_TRUNCATED = re.compile(r"(?:\.\.\.|…|\[truncated\]|[,;:(])\s*$")
MIN_WORDS = 40


def document(p: PaperText) -> str:
    return f"{p.title}. {p.title}. {p.abstract} {p.comment or ''}"


def rule_cues(p: PaperText, ruled: dict | None = None) -> dict[str, float]:
    """The rules' cues and verdicts as features; ruled: the rules' row for `p`, if already screened."""
    return {CUE_PREFIX + name: value for name, value in cues(p, ruled).items()}


def text_quality(p: PaperText) -> list[str]:
    """Why the abstract cannot carry a confident decision (empty list: it can)."""
    abstract = p.abstract.strip()
    words = re.findall(r"[A-Za-z]{2,}", abstract)
    problems = []
    if not abstract:
        return ["no abstract"]
    if len(words) < MIN_WORDS:
        problems.append(f"short abstract ({len(words)} words)")
    if sum(len(m) for m in _LATEX.findall(abstract)) > 0.2 * len(abstract):  # a fifth of it is markup or maths
        problems.append("LaTeX-heavy abstract")
    letters = sum(c.isalpha() for c in abstract)
    if letters and sum(c.isascii() for c in abstract if c.isalpha()) / letters < 0.8 \
            or len(words) >= 20 and len(_ENGLISH.findall(abstract)) / len(words) < 0.05:
        problems.append("abstract not in English")
    if _TRUNCATED.search(abstract):
        problems.append("abstract looks truncated")
    return problems
