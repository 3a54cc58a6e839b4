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

from ingestion.text import canonical_old_id

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
    r"|(?:huggingface|hf)(?:\.co)?/papers/"  # `huggingface/papers/` (a dropped `.co`) is seen too
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
                if text[m.end():m.end() + 1].isdigit():  # an id the window's end cut short: its own window reads it
                    continue
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
# a two-letter title before an acronym is part of the name: `Dr.GRPO`, `Dr. GRPO` -> dr_grpo
_WORD_RE = re.compile(r"(?:[A-Z][a-z]\. ?(?=[A-Z]{2}))?[A-Za-z_][A-Za-z0-9_]*(?:\+\+)?(?:-[A-Za-z0-9]+(?:\+\+)?)*")
_CAMEL_RE = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+\d*|[A-Z]+\d*|\d+")
_VERSIONED_RE = re.compile(r"^([a-z][a-z_]*[a-z]{2})v\d+$")
# a mixed-case word of letters and digits with a lower-to-upper step (ReTool, DeepScaleR, ProRL)
_CAMEL_NAME_RE = re.compile(r"(?<![\w-])(?=[A-Za-z0-9]*[a-z][A-Z])[A-Za-z][A-Za-z0-9]{2,30}(?![\w-])")
_HEXISH_RE = re.compile(r"^(?=[a-z]*\d)[0-9a-f]{7,}$", re.IGNORECASE)
_COUNT_RE = re.compile(r"_\d+_?[km](?:_|$)")  # a number of items (17k, 1m): the size of a data set
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
    word = word.replace("++", "_plus_plus").replace("-", "_").replace(". ", "_").replace(".", "_")
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
        return _with_unversioned(out)
    parts = token.split("_")
    n = len(parts)
    if _COUNT_RE.search(token):  # `dapo_17k_processed`, `DeepMath-103K`: a data set of that size, whole only
        return _with_unversioned(out)
    if n <= MAX_PARTS_FOR_RUNS:
        for size in range(1, min(MAX_PART_RUN, n - 1) + 1):
            for i in range(n - size + 1):
                run = parts[i:i + size]
                if size > 1 and (run[0] in _NOISE or run[-1] in _NOISE):
                    continue
                sub = "_".join(run)
                if _keep(sub):
                    out.append(sub)
    return _with_unversioned(out)


def _with_unversioned(tokens: list[str]) -> tuple[str, ...]:
    """`prorlv2` -> `prorl` too: a method's next version keeps its name."""
    return tuple(tokens) + tuple(m.group(1) for t in tokens if (m := _VERSIONED_RE.match(t)))


def find_tokens(text: str | None) -> set[str]:
    """Normalised identifier tokens in `text` (see the module docstring)."""
    if not text:
        return set()
    return set().union(*map(_word_tokens, set(_WORD_RE.findall(text))))


# --- mentions with their context --------------------------------------------------------------
# Where a mention sits decides what it can be evidence of: a name defined in code, a config key or
# option value, a new file or folder named after it, a docs heading implement or document a method;
# an id in a list, a news line or a related-work section only cites it. Strongest first: a value
# found in several places of one file keeps the strongest.
CONTEXTS = (
    "path",          # a folder or file name of a file the commit added
    "code_def",      # a def/class name
    "option_value",  # a string literal or config/CLI value (loss_type="gspo", adv_estimator=gspo)
    "config_key",    # a YAML/TOML/JSON key, a --flag, a key=value override, a dataclass field
    "docs_heading",  # a heading of a docs page or README
    "code_comment",  # an arXiv id in a code file (docstring, comment, URL)
    "docs_text",     # prose of a docs page (ids; names only as link texts)
    "feature_link",  # a docs/README link to a file of the repository ("[GSPO](examples/gspo/run.sh)")
    "message",       # the commit subject (tokens) or message (ids)
    "code_name",     # an assignment target (plentiful: kept last among the method contexts)
    "docs_list",     # a list item or table row of a docs page or README (ids, link texts)
    "inline_citation",  # an id cited inside a sentence of prose ("motivated by [X](arxiv...) which ...")
    "news",          # a dated news line or section (ids, link texts, headings)
    "related_work",  # a citation, bibtex entry, related-work / "built with" / awesome section
    "data",          # data, patches of other projects, lock files (ids only)
)
CONTEXT_RANK = {c: i for i, c in enumerate(CONTEXTS)}

_CODE_EXT = frozenset("py pyx pyi c cc cpp cu cuh h hpp rs go js ts java scala jl lua".split())
_CONFIG_EXT = frozenset("yaml yml toml json cfg ini conf".split())
_SCRIPT_EXT = frozenset("sh bash zsh slurm sbatch".split())
# docs pages (qmd: Quarto); dbt reads the same list from the `docs_extensions` var
DOCS_EXTENSIONS = ("md", "mdx", "qmd", "rst", "markdown")
_DOCS_EXT = frozenset(DOCS_EXTENSIONS)
_DATA_EXT = frozenset("jsonl csv tsv parquet patch diff lock txt log xml svg html".split())

_DEF_RE = re.compile(r"^\s*(?:async\s+)?(?:def|class|struct|fn|func|function)\s+([A-Za-z_]\w*)", re.M)
_FIELD_RE = re.compile(r"^\s+([A-Za-z_]\w*)\s*:\s*[\w\[\]., |]{1,80}=(?!=)", re.M)
_ASSIGN_RE = re.compile(r"^\s*(?:self\.)?([A-Za-z_]\w*)\s*=(?!=)", re.M)
_LITERAL_RE = re.compile(r"(?<![\w\\])([\"'])([A-Za-z][\w.+-]{2,48})\1")
_FLAG_RE = re.compile(r"(?<![\w-])--([A-Za-z][\w.-]{1,60})(?:[ =]+[\"']?([A-Za-z][\w.+-]{1,48}))?")
_OVERRIDE_RE = re.compile(r"(?<![\w-])([A-Za-z_][\w.]{1,80})=[\"']?([A-Za-z][\w.+-]{1,48})")
# one key and its value on one line: a nested key's parent ("algorithm:" over "  adv_estimator: gspo")
# has no value of its own (a newline is no separator)
_KEY_RE = re.compile(r"^[ \t]*-?[ \t]*[\"']?([A-Za-z_][\w.-]{1,60})[\"']?[ \t]*[:=][ \t]*[\"']?([A-Za-z][\w.+-]{0,48})?",
                     re.M)
_HEADING_RE = re.compile(r"^\s{0,3}#{1,6}\s+(.+)$|^([^\n]+)\n[=~^\-*]{3,}\s*$", re.M)
_LINK_TEXT_RE = re.compile(r"\[([^\[\]]{2,40})\]\(\s*<?([^)\s>]*)")
_FENCE_RE = re.compile(r"^\s*(```|~~~)")
_LIST_RE = re.compile(r"^\s*(?:[-*+•]|\d+[.)]|\|)\s")
_NEWS_RE = re.compile(r"\b20\d\d[/.\-](?:0?[1-9]|1[0-2])\b|\bnews\b|🔥|📢|🎉", re.I)
_BIBTEX_RE = re.compile(r"@(?:article|misc|inproceedings|techreport|book)\s*\{|"
                        r"\b(?:journal|booktitle|eprint|archiveprefix)\s*=", re.I)
_RELATED_RE = re.compile(
    r"related work|awesome|built (?:with|on|upon)|powered by|projects? (?:using|based)|community|"
    r"citation|cite|bibtex|reference|acknowledg|publications?|papers? using|adopted by|used by|"
    r"参考|引用|相关工作|致谢|"  # references, citing, related work, acknowledgements (Chinese docs)
    r"img\.shields\.io|\bbadge\b|"  # a badge links the project's own paper
    + _BIBTEX_RE.pattern, re.I)


def file_kind(path: str) -> str:
    """code | config | script | docs | notebook | data | other, from the file's name."""
    name = path.rsplit("/", 1)[-1].lower()
    ext = name.rsplit(".", 1)[-1] if "." in name else ""
    if ext in _CODE_EXT:
        return "code"
    if ext in _CONFIG_EXT:
        return "config"
    if ext in _SCRIPT_EXT or name in ("makefile", "dockerfile"):
        return "script"
    if ext in _DOCS_EXT or name.startswith("readme"):
        return "docs"
    if ext == "ipynb":
        return "notebook"
    if ext in _DATA_EXT:
        return "data"
    return "other"


class _Found:
    """Values found in one text, each with its strongest context."""

    def __init__(self) -> None:
        self.items: dict[tuple[str, str], str] = {}

    def add(self, kind: str, value: str, context: str) -> None:
        key = (kind, value)
        old = self.items.get(key)
        if old is None or CONTEXT_RANK[context] < CONTEXT_RANK[old]:
            self.items[key] = context

    def tokens(self, text: str, context: str) -> None:
        for tok in find_tokens(text):
            self.add("token", tok, context)

    def name_tokens(self, text: str, context: str) -> None:
        """Prose that names things (a commit subject, a heading, a link text): a CamelCase word
        there is a name as its paper spells it (`ReTool`, `ProRL`), so it is also kept whole
        (`retool`, `prorl`: how a name's alias is normalised), besides its parts."""
        self.tokens(text, context)
        for word in _CAMEL_NAME_RE.findall(text):
            token = word.lower().replace("-", "_")
            if _keep(token):
                self.add("token", token, context)

    def ids(self, text: str, context: str) -> None:
        for aid in find_arxiv_ids(text):
            self.add("arxiv_id", aid, context)


_TODO_RE = re.compile(r"^.*\b(?:TODO|FIXME)\b.*$", re.M)
# Words around an id saying the text borrows something else from the paper, or that others use what
# the text describes: "adapted from [id]", "also used in [id]", "has since been used in the training
# of [id]", "[id] also adopts it", "from [id]'s prompt", "the dataset structure used in [id]",
# "reproduce the results of [id]", "adopted in recent work such as [id]". The id is cited, not the
# method implemented.
_BORROWED_RE = re.compile(
    r"\b(?:adapted|borrowed|copied) from\b|\balso adopts?\b|\badopts? the same\b|"
    r"\b(?:adopted|used|applied) (?:in|by) (?:recent|other|many|several|prior|popular|follow[- ]up) "
    r"(?:works?|papers?|projects?|models?|methods?)\b|"
    r"\b(?:also|since|previously|has been|have been) (?:been )?(?:used|adopted|applied|shown)\b|"
    r"\bprompts?\b|\bdata(?:set)? (?:structure|format)\b|\breward curves\b|\bresults (?:from|of|in)\b|"
    r"\breproduc", re.I)


def _borrows(lines: list[str], i: int) -> bool:
    return bool(find_arxiv_ids(lines[i])) and bool(_BORROWED_RE.search(" ".join(lines[max(0, i - 1):i + 2])))


def split_borrowed(text: str) -> tuple[str, str]:
    """(lines citing an id for something borrowed or used elsewhere, the other lines). A sentence
    may wrap, so an id's line is read with the lines before and after it."""
    if not _BORROWED_RE.search(text):
        return "", text
    lines = text.split("\n")
    cited = [i for i in range(len(lines)) if _borrows(lines, i)]
    if not cited:
        return "", text
    keep = set(cited)
    return ("\n".join(lines[i] for i in cited),
            "\n".join(line for i, line in enumerate(lines) if i not in keep))


def _scan_code(text: str, found: _Found) -> None:
    for rx, context in ((_DEF_RE, "code_def"), (_FIELD_RE, "config_key"), (_ASSIGN_RE, "code_name")):
        found.tokens(" ".join(m.group(1) for m in rx.finditer(text)), context)
    found.tokens(" ".join(m.group(2) for m in _LITERAL_RE.finditer(text)), "option_value")
    _scan_script(text, found)
    if _TODO_RE.search(text):  # a paper a TODO names is not implemented yet: cited, the rest is code
        found.ids("\n".join(m.group(0) for m in _TODO_RE.finditer(text)), "inline_citation")
        text = _TODO_RE.sub("", text)
    borrowed, text = split_borrowed(text)
    found.ids(borrowed, "inline_citation")
    found.ids(text, "code_comment")


def _scan_script(text: str, found: _Found) -> None:
    keys, values = [], []
    for rx in (_FLAG_RE, _OVERRIDE_RE) if "--" in text else (_OVERRIDE_RE,):  # a flag needs "--"
        for m in rx.finditer(text):
            keys.append(m.group(1).rsplit(".", 1)[-1])
            values.append(m.group(2) or "")
    found.tokens(" ".join(keys), "config_key")
    found.tokens(" ".join(values), "option_value")


def _scan_config(text: str, found: _Found) -> None:
    keys, values = [], []
    for m in _KEY_RE.finditer(text):
        keys.append(m.group(1).rsplit(".", 1)[-1])
        values.append(m.group(2) or "")
    found.tokens(" ".join(keys), "config_key")
    found.tokens(" ".join(values), "option_value")
    _scan_script(text, found)


def _line_context(line: str, section: str) -> str:
    if _RELATED_RE.search(line) or _RELATED_RE.search(section):
        return "related_work"
    if _NEWS_RE.search(line) or _NEWS_RE.search(section):
        return "news"
    return "docs_list" if _LIST_RE.match(line) else "docs_text"


# a section listing the models a framework runs ("Supported models", "Model zoo"): a link there names
# a model (whose report is a paper), not a method the framework implements
_MODELS_SECTION_RE = re.compile(r"\b(?:supported|available|tested|validated) (?:base )?models?\b|"
                                r"\bmodels? (?:zoo|support(?:ed)?|list|matrix|cards?)\b|支持的模型|模型支持", re.I)
_URL_OR_TARGET_RE = re.compile(r"\]\([^)]*\)|https?://\S+")
_PROSE_WORD_RE = re.compile(r"[^\W\d_]{2,}")
INLINE_WORDS_AFTER = 5


def _cited_inline(line: str, arxiv_id: str) -> bool:
    """The id sits inside a sentence that goes on (a citation), not on a line that is the reference
    itself (a label and a link, a bibliography entry, a quoted reference)."""
    after = line[line.rfind(arxiv_id) + len(arxiv_id):]
    return len(_PROSE_WORD_RE.findall(_URL_OR_TARGET_RE.sub(" ", after))) >= INLINE_WORDS_AFTER


def _is_underline(line: str, previous: str) -> bool:
    """`~~~~` under a line of text underlines a heading (reStructuredText), it opens no fence."""
    return bool(previous.strip()) and not line.strip().strip("~")


def _scan_docs(text: str, found: _Found) -> None:
    """Headings and link texts give tokens; ids take the context of their line and section (a
    heading under a related-work/news heading inherits it); fenced code is scanned as code, a fenced
    config snippet (```yaml, ```toml, ```json) as config."""
    sections: list[tuple[int, str]] = []  # (level, heading) of the open sections
    fenced, code, config, block, language = False, [], [], [], ""
    lines = text.split("\n")
    for i, line in enumerate(lines):
        if _FENCE_RE.match(line) and (fenced or not _is_underline(line, lines[i - 1] if i else "")):
            block_text = "\n".join(block)
            if fenced and _BIBTEX_RE.search(block_text):  # a citation block ("cite us") cites
                for aid in find_arxiv_ids(block_text):  # and says which papers the page asks to cite
                    found.add("arxiv_id", aid, "related_work")
                    found.add("bibtex_id", aid, "related_work")
            elif fenced:  # a config snippet (```yaml) is scanned as config, other code as code
                (config if language in _CONFIG_EXT else code).append(block_text)
            language = "" if fenced else line.strip().lstrip("`~").strip().split(" ")[0].strip("{}.").lower()
            fenced, block = not fenced, []
            continue
        if fenced:
            block.append(line)
            continue
        heading = _HEADING_RE.match(line if i + 1 >= len(lines) else f"{line}\n{lines[i + 1]}")
        if heading and line.strip():
            title = heading.group(1) or heading.group(2) or ""
            level = len(line) - len(line.lstrip("#")) if heading.group(1) else 1
            sections = [s for s in sections if s[0] < level] + [(level, title)]
            outer = " ".join(t for _, t in sections[:-1])
            context = _line_context(title, outer) if outer else "docs_heading"
            found.name_tokens(title, "docs_heading" if context in ("docs_text", "docs_list") else context)
            found.ids(line, "related_work" if _RELATED_RE.search(line) else "docs_heading")
            continue
        section = " ".join(t for _, t in sections)
        links = _LINK_TEXT_RE.findall(line)
        if links:
            context = _line_context(line, section)
            models_list = context in ("docs_text", "docs_list") and bool(_MODELS_SECTION_RE.search(section))
            for link, target in links:
                if models_list:  # a supported-models table lists models, it documents no method
                    found.tokens(link, "docs_list")
                elif not target.startswith(("http", "#", "mailto:")) and context in ("docs_text", "docs_list"):
                    found.tokens(link, "feature_link")  # it links to the framework's own code
                elif context == "docs_text" and _cited_inline(line, link):
                    found.tokens(link, "inline_citation")
                else:
                    found.tokens(link, context)
        if "arxiv" in line.lower() or "papers" in line.lower():
            context = _line_context(line, section)
            borrowed = context in ("docs_text", "docs_list") and _borrows(lines, i)
            for aid in find_arxiv_ids(line):
                found.add("arxiv_id", aid, "inline_citation" if borrowed or (
                    context == "docs_text" and _cited_inline(line, aid)) else context)
    if block:  # a block left open runs to the end of the text
        (config if language in _CONFIG_EXT else code).append("\n".join(block))
    if code:
        _scan_code("\n".join(code), found)
    if config:
        _scan_config("\n".join(config), found)


def _path_tokens(path: str) -> str:
    parts = path.split("/")
    parts[-1] = parts[-1].rsplit(".", 1)[0]
    return " ".join(parts)


def contextual_mentions(text: str, path: str, location: str, file_added: bool = False) -> _Found:
    """Mentions of one message or one file's added lines, each with its strongest context."""
    found = _Found()
    if location == "message":
        borrowed, rest = split_borrowed(text)
        found.ids(borrowed, "inline_citation")
        found.ids(rest, "message")
        found.name_tokens(text.split("\n", 1)[0], "message")
        return found
    if file_added:
        found.tokens(_path_tokens(path), "path")
    kind = file_kind(path)
    if kind == "notebook":
        text = text.replace('\\"', '"').replace("\\n", "\n")
    if kind in ("code", "notebook"):
        _scan_code(text, found)
    elif kind == "config":
        _scan_config(text, found)
    elif kind == "script":
        _scan_script(text, found)
        found.ids(text, "code_comment")
    elif kind == "docs":
        _scan_docs(text, found)
    else:
        found.ids(text, "data")
    return found
