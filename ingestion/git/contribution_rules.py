"""Contribution rules read from a repository's CONTRIBUTING, PR/issue templates and CODEOWNERS.

Pure functions over the HEAD files (`repo_files_at_head` rows): each rule is decided sentence by
sentence, and the sentences that decided it are kept as evidence, so a reader can check why a
framework is marked as, e.g., requiring an issue before a pull request.

Rules: issue_first, tests_required, paper_link_required, cla_required, pr_title_format (with the
pattern when the text gives one in backticks, or "conventional commits").
"""

from __future__ import annotations

import re
from collections.abc import Iterable

RULE_KINDS = ("contributing", "pr_template", "issue_template")
_SENTENCE_SPLIT = re.compile(r"(?<=[.!?])\s+|\n\s*\n|\n(?=\s*(?:[-*+]|\d+\.)\s)")
_SOFT = re.compile(r"\b(appreciated|optional|encouraged|welcome|nice to have|if possible|consider)\b", re.I)
_MUST = re.compile(r"\b(must|required?|requires|need|needs|mandatory|have to|has to|always|make sure to add)\b", re.I)

_ISSUE_FIRST = re.compile(
    r"\b(open|file|create|raise|start)\b[^.]{0,40}\bissue\b[^.]{0,80}\b(first|before|prior)\b"
    r"|\bissue first\b|\bdiscuss\w*\b[^.]{0,60}\b(in an issue|before)\b", re.I)
_TESTS = re.compile(r"\b(unit |integration )?tests?\b", re.I)
_TESTS_EXISTING_ONLY = re.compile(r"\bexisting tests\b", re.I)
_PAPER = re.compile(r"\b(paper|arxiv|publication)\b", re.I)
_LINK = re.compile(r"\b(link|cite|reference|url)\b", re.I)
_IMPERATIVE_LINK = re.compile(r"^\W*(please\s+)?(link|cite|reference)\b", re.I)
_CLA = re.compile(r"\bCLA\b|contributor license agreement|\bDCO\b|developer certificate of origin|signed-off-by", re.I)
_CLA_ACTION = re.compile(r"\b(sign|signed|must|required?|agree)\b", re.I)
_TITLE = re.compile(r"\b(pr|pull request)s?\b[^.]{0,20}\btitles?\b|\btitles?\b[^.]{0,20}\b(prs?|pull requests?)\b", re.I)
_TITLE_RULE = re.compile(r"\b(format|follow|must|convention|conventional|prefix|style)\b", re.I)
_BACKTICK = re.compile(r"`([^`\n]{3,80})`")
_QUESTION_CHECKBOX = re.compile(r"^\s*[-*]\s*\[[ xX]\]\s*(did|have|has|is|are)\b", re.I)


_HEADING = re.compile(r"^\s{0,3}#{1,6}\s.*$", re.M)


def _sentences(text: str) -> Iterable[str]:
    text = _HEADING.sub("\n", text)  # headings name sections, they state no rule
    for chunk in _SENTENCE_SPLIT.split(text):
        sentence = " ".join(chunk.split())
        if sentence and not sentence.startswith(("<!--", "---")):
            yield sentence


def _title_pattern(sentence: str) -> str | None:
    if re.search(r"conventional commit", sentence, re.I):
        return "conventional commits"
    for candidate in _BACKTICK.findall(sentence):
        if "{" in candidate or ":" in candidate:
            return candidate
    return None


def extract_rules(files: Iterable[dict]) -> dict:
    """Rules from HEAD files (`path`, `kind`, `content`); evidence is {rule: [{path, text}]}."""
    rules = {"issue_first": False, "tests_required": False, "paper_link_required": False,
             "cla_required": False, "pr_title_format": False}
    evidence: dict[str, list[dict]] = {name: [] for name in rules}
    pattern: str | None = None
    sources: list[str] = []

    def hit(rule: str, path: str, sentence: str) -> None:
        rules[rule] = True
        if len(evidence[rule]) < 5:
            evidence[rule].append({"path": path, "text": sentence[:300]})

    for f in files:
        if f.get("kind") not in RULE_KINDS or not f.get("content"):
            continue
        path = f["path"]
        sources.append(path)
        for raw in _sentences(f["content"]):
            if _QUESTION_CHECKBOX.match(raw):  # checklist questions ask, they do not require
                continue
            soft = bool(_SOFT.search(raw))
            if _ISSUE_FIRST.search(raw) and not soft:
                hit("issue_first", path, raw)
            if (_TESTS.search(raw) and _MUST.search(raw) and not soft
                    and not (_TESTS_EXISTING_ONLY.search(raw) and not re.search(r"\b(add|new|include)\b", raw, re.I))):
                hit("tests_required", path, raw)
            if _PAPER.search(raw) and _LINK.search(raw) and not soft and (
                    _MUST.search(raw) or _IMPERATIVE_LINK.search(raw)):
                hit("paper_link_required", path, raw)
            if _CLA.search(raw) and _CLA_ACTION.search(raw) and not soft:
                hit("cla_required", path, raw)
            if _TITLE.search(raw) and _TITLE_RULE.search(raw):
                hit("pr_title_format", path, raw)
                pattern = pattern or _title_pattern(raw)
    return {**rules, "pr_title_pattern": pattern, "evidence": evidence, "source_files": sorted(set(sources))}


def codeowners_summary(files: Iterable[dict]) -> dict:
    """Whether CODEOWNERS exists and how many ownership rules it has."""
    entries = 0
    found = False
    for f in files:
        if f.get("kind") == "codeowners":
            found = True
            entries += sum(1 for line in (f.get("content") or "").splitlines()
                           if line.strip() and not line.lstrip().startswith("#"))
    return {"has_codeowners": found, "codeowners_entries": entries}
