"""Pure text scanners shared by the sources: arXiv ids and normalised identifier tokens.

`find_arxiv_ids` recognises an id only where the text says it is one (an arXiv or Hugging Face
papers URL, `arXiv:`/`arXiv ` prefixes, or an old-style `archive/YYMMNNN` id), so version
numbers and floats in code are not mistaken for papers. Ids are returned without version.

`find_tokens` turns code and prose into lower snake-case identifiers (`DrGRPOLoss` ->
`dr_grpo_loss`, `REINFORCE++` -> `reinforce_plus_plus`, `clip-cov` -> `clip_cov`) and adds the
runs of up to three parts inside longer identifiers (`compute_dr_grpo_loss` -> `dr_grpo`,
`grpo`, ...), so linking a method alias to code is an equality join in SQL.
"""

from __future__ import annotations

import keyword
import re
from functools import lru_cache

from ingestion.arxiv_parse import canonical_old_id

# --- arXiv ids -------------------------------------------------------------------------------
_NEW_ID = r"(?P<new>(?:0[7-9]|[1-9]\d)(?:0[1-9]|1[0-2])\.\d{4,5})(?:v\d+)?(?!\d)"
_OLD_ARCHIVES = (
    "astro-ph|cond-mat|gr-qc|hep-ex|hep-lat|hep-ph|hep-th|math-ph|nlin|nucl-ex|nucl-th|"
    "physics|quant-ph|math|cs|q-bio|q-fin|stat|chao-dyn|cmp-lg|solv-int|patt-sol|adap-org|"
    "alg-geom|dg-ga|funct-an|q-alg|supr-con|comp-gas|chem-ph|atom-ph|plasm-ph|bayes-an|acc-phys|ao-sci"
)
_OLD_ID = (
    r"(?<![\w/.-])(?P<old>(?:" + _OLD_ARCHIVES + r")(?:\.[A-Z]{2})?/\d{2}(?:0[1-9]|1[0-2])\d{3})"
    r"(?:v\d+)?(?!\d)"
)
# Contexts that announce an arXiv id: URLs of arXiv and its mirrors/readers, and `arXiv:` / `arXiv `.
_CONTEXT = (
    r"(?:(?:export\.)?arxiv\.org/(?:abs|pdf|html|format|ps)/"
    r"|(?:huggingface|hf)\.co/papers/"
    r"|alphaxiv\.org/(?:abs|overview)/"
    r"|papers\.cool/arxiv/"
    r"|semanticscholar\.org/arxiv/"
    r"|arxiv(?:[ _-]?id)?\s*[:=]?\s*[\"'\[(]?\s*)"
)
_ARXIV_RE = re.compile(_CONTEXT + r"(?:" + _NEW_ID + r"|" + _OLD_ID.replace("(?<![\\w/.-])", "") + r")",
                       re.IGNORECASE)
_BARE_OLD_RE = re.compile(_OLD_ID)
_SLASH_SEVEN_DIGITS = re.compile(r"/\d{7}")


def find_arxiv_ids(text: str | None) -> list[str]:
    """arXiv ids in `text`, without version, in order of first appearance."""
    if not text:
        return []
    # Cheap pre-filters first (most code mentions no paper): every context contains "arxiv" or
    # "papers", so the full pattern only runs in small windows around those words.
    lowered = text.lower()
    hits: list[tuple[int, str]] = []
    for key in ("arxiv", "papers"):
        idx = lowered.find(key)
        while idx != -1:
            lo = max(0, idx - 24)
            for m in _ARXIV_RE.finditer(text, lo, min(len(text), idx + 64)):
                hits.append((m.start(), m.group("new") or _canonical_old(m.group("old"))))
            idx = lowered.find(key, idx + 1)
    if _SLASH_SEVEN_DIGITS.search(text):
        for m in _BARE_OLD_RE.finditer(text):
            hits.append((m.start(), _canonical_old(m.group("old"))))
    seen: dict[str, None] = {}
    for _, aid in sorted(hits):
        seen.setdefault(aid, None)
    return list(seen)


def _canonical_old(old: str) -> str:
    return canonical_old_id(*old.split("/", 1))


# --- identifier tokens -----------------------------------------------------------------------
_WORD_RE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(?:\+\+)?(?:-[A-Za-z0-9]+(?:\+\+)?)*")
_CAMEL_RE = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+\d*|[A-Z]+\d*|\d+")
_HEXISH_RE = re.compile(r"^(?=[a-z]*\d)[0-9a-f]{7,}$", re.IGNORECASE)
MIN_TOKEN_LEN = 3
MAX_TOKEN_LEN = 64
MAX_PART_RUN = 3
MAX_PARTS_FOR_RUNS = 8  # longer identifiers are data (base64 and the like), not names

_NOISE = frozenset(
    {k.lower() for k in keyword.kwlist}
    | {k.lower() for k in getattr(keyword, "softkwlist", [])}
    | set(
        """
        self cls none true false print len range str int float bool list dict set tuple object type
        super init main args kwargs isinstance getattr setattr hasattr open enumerate zip map min max
        sum abs any all sorted iter next repr format append extend items keys values get update pop
        the and for with this that from are not you your was were will can has have had but all its
        our out use used using into than then there their them they what when where which who why how
        also only just like more most must may should would could each other some such any one two
        new add fix see via per let set get run var val tmp foo bar baz todo fixme xxx http https www
        com org html png jpg svg pdf txt md py yaml yml json toml cfg ini sh
        """.split()
    )
)


def _normalise(word: str) -> str:
    word = word.replace("++", "_plus_plus").replace("-", "_")
    parts: list[str] = []
    for chunk in word.split("_"):
        if chunk:
            parts.extend(p.lower() for p in _CAMEL_RE.findall(chunk))
    return "_".join(parts)


def _keep(token: str) -> bool:
    if len(token) < MIN_TOKEN_LEN or len(token) > MAX_TOKEN_LEN or token in _NOISE:
        return False
    if token[0].isdigit() or _HEXISH_RE.match(token):
        return False
    return True


@lru_cache(maxsize=262_144)
def _word_tokens(word: str) -> tuple[str, ...]:
    """Tokens of one raw word (cached: code vocabularies repeat across commits)."""
    if _HEXISH_RE.match(word):  # commit shas, hashes
        return ()
    if word.islower() and word.isidentifier():  # fast path: snake_case needs no camel split
        token = "_".join(p for p in word.split("_") if p)
    else:
        token = _normalise(word)
    if not token:
        return ()
    out = [token] if _keep(token) else []
    if "_" not in token:
        return tuple(out)
    parts = token.split("_")
    n = len(parts)
    if n <= MAX_PARTS_FOR_RUNS:
        for size in range(1, min(MAX_PART_RUN, n - 1) + 1):
            for i in range(n - size + 1):
                run = parts[i:i + size]
                if size > 1 and (run[0] in _NOISE or run[-1] in _NOISE):
                    continue
                sub = "_".join(run)
                if _keep(sub):
                    out.append(sub)
    return tuple(out)


def find_tokens(text: str | None) -> set[str]:
    """Normalised identifier tokens in `text` (see the module docstring)."""
    if not text:
        return set()
    return set().union(*map(_word_tokens, set(_WORD_RE.findall(text))))
