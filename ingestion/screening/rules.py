"""Rule-based paper screening over title, abstract, comment and affiliations (pure Python).

Every classifier returns its value together with the signal that decided it, so the warehouse can
show *why* a paper was screened the way it was. Scope of each feature:
- is_rl_related: the paper is about reinforcement learning *for language models* (RLHF, RLVR,
  preference optimisation, GRPO/PPO...); classic control/robotics RL without an LLM is not.
- paper_kind: general_method | system | application | benchmark | dataset | survey | analysis | not_rl.
  `system` is training infrastructure (frameworks, rollout engines, asynchronous trainers).
- model_report: the paper is a model's technical report (the study counts their methods apart).
- in_pool: the study's candidate-pool query matches the paper (ingestion/arxiv/pool.py).
- policy_size_b: largest *trained policy* size in billions of parameters (RL papers only); sizes
  of reward models, judges, teachers, compared-against models and token counts are ignored.
- changes_loss: the proposed method (general_method papers) changes a coefficient, clip, mask,
  weight or normalisation inside an existing policy loss.
- releases_code: the paper links its own code (not a framework it builds on) or states it is out.
- defined_methods: names the paper defines (title acronym before a colon, "we propose X").
- maintainer_framework_ids: frameworks whose maintainer orgs/domains appear in the affiliations
  (arXiv's, or OpenAlex's added by ingestion/arxiv/openalex.py while loading).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from ingestion.arxiv.pool import in_pool
from ingestion.cues import Cue, first_cue
from ingestion.text import find_code_urls

SCREENER_VERSION = "2.3"

KINDS = ("general_method", "system", "application", "benchmark", "dataset", "survey", "analysis", "not_rl")


@dataclass(frozen=True)
class PaperText:
    title: str
    abstract: str = ""
    comment: str | None = None
    affiliations: tuple[str, ...] = ()
    affiliation_sources: tuple[str, ...] = ()  # where each affiliation was read ("" = arXiv)
    links: tuple[str, ...] = ()  # the row's code_urls (abstract, comment, or a page's footnotes)

    @property
    def text(self) -> str:
        return f"{self.title}. {self.abstract}"

    @classmethod
    def from_row(cls, row: dict) -> PaperText:
        """From a `raw_arxiv.papers` row (authors as JSON text or a list of dicts)."""
        authors = row.get("authors") or []
        if isinstance(authors, str):
            authors = json.loads(authors)
        found = [a for a in authors if isinstance(a, dict) and a.get("affiliation")]
        links = row.get("code_urls") or []
        links = json.loads(links) if isinstance(links, str) else links
        return cls(row.get("title") or "", row.get("abstract") or "", row.get("comment"),
                   tuple(a["affiliation"] for a in found), tuple(a.get("source") or "" for a in found), tuple(links))


def _rx(pattern: str, flags: int = re.IGNORECASE) -> re.Pattern[str]:
    return re.compile(pattern, flags)


# --- RL relevance --------------------------------------------------------------------------------
_RL_TERM = _rx(
    r"reinforcement[- ]learning|\b(?:RL|RLHF|RLVR|RLAIF|RLOO|PPO|GRPO|DPO|REINFORCE(?:\+\+)?)\b|"
    r"policy[- ]optimi[sz]ation|policy[- ]gradients?|reward model(?:s|ing)?|verifiable rewards?|"
    r"preference optimi[sz]ation|actor[- ]critic|reward shaping|reward maximi[sz]ation|maximi[sz]ing (?:the )?reward|"
    r"policy objective|rollouts?\b|(?-i:\b[A-Z][A-Za-z\-]*(?:PO|RL))\b"
)
# upper-case words ending in PO or RL that are not *PO / *RL methods; arXiv's abstract pages (and sites
# copying them) print every link as "this https URL"
_NOT_RL_PO = {"EXPO", "TYPO", "REPO", "UPO", "URL", "CURL"}
_RL_ALT = r"(?:reinforcement[- ]learning|RL|RLHF|PPO|reward models?)\b"
_RL_NEGATED = _rx(
    r"(?:(?<!with and )without|no need for|instead of|unlike|rather than|alternative to|free of|avoids?|"
    r"no)\s+(?:[\w\-]+\s+(?:or|and)\s+)?(?:(?:any|costly|expensive|the|explicit)\s+)?" + _RL_ALT
    + r"(?:\s+(?:or|and)\s+" + _RL_ALT + ")?"
)
_LLM_TERM = _rx(
    r"language models?|\bLLMs?\b|\bLMs?\b|reasoning models?|\bVLMs?\b|vision[- ]language|chatbots?|"
    r"\b(?:Qwen|Llama|Mistral|Mixtral|DeepSeek|Gemma|Phi|GPT|OLMo|InternLM|GLM)[\w.\-]*|post-train|"
    r"chain[- ]of[- ]thought|\bRLHF\b|\bRLVR\b|\bRLAIF\b|\bGRPO\b|\bDPO\b|alignment|instruction[- ]tun|"
    r"tokens?\b|\bAIME\b|\bMATH\b|GSM8K|reasoning|\b\d+(?:\.\d+)?\s*[BT]\b|\d[BT]-parameter|mixture-of-experts|"
    r"\bMoE\b|tool[- ]call\w*|code models?|programming problems|prompts?\b"
)


_RL_SETTING = _rx(r"\bagents?\b|\bagentic\b|\benvironments?\b|\breasoning models?\b|\btool[- ]use\b")


def _rl_resource(p: PaperText) -> str | None:
    """A benchmark, dataset or environment suite for language-model agents or reasoning models: what RL
    post-training trains and evaluates on, even when its abstract never names RL."""
    resource = (_BENCH_TITLE.search(p.title) or _DATA_TITLE.search(p.title) or _ENV_TITLE.search(p.title)
                or _BENCH_ABS.search(p.abstract) or _DATA_ABS.search(p.abstract))
    setting = _RL_SETTING.search(p.text)
    if resource and setting and _LLM_TERM.search(p.text):
        return f"{resource.group(0)} for {setting.group(0)}"
    return None


def is_rl_related(p: PaperText) -> tuple[bool, str]:
    text = p.text
    negated = {m.span() for m in _RL_NEGATED.finditer(text)}
    hits = [m for m in _RL_TERM.finditer(text)
            if not any(a <= m.start() < b for a, b in negated) and m.group(0) not in _NOT_RL_PO]
    if not hits:
        if not negated and (m := _rl_resource(p)):
            return True, m
        return False, "negated RL mention only" if negated else "no RL term"
    if _RL_NEGATED.search(p.title) and not any(m.start() < len(p.title) for m in hits):
        return False, "title negates RL"
    llm = _LLM_TERM.search(text)
    if not llm:
        return False, f"RL term '{hits[0].group(0)}' without a language-model term"
    return True, f"RL term '{hits[0].group(0)}'"


# --- kind ---------------------------------------------------------------------------------------
_SURVEY_TITLE = _rx(r"\b(?:survey|review|overview|tutorial|primer|taxonomy|roadmap|landscape)\b")
_SURVEY_ABS = _rx(r"\b(?:this|our) (?:survey|review|paper surveys)|\bwe (?:survey|review|systematically review)\b")
_ENV_TITLE = _rx(r"\bgym\b|(?-i:[a-z]Gym)\b")  # an environment suite is a benchmark
_BENCH_TITLE = _rx(r"\bbench(?:marks?)?\b|(?-i:[a-z]Bench)\b|\barena\b|\bleaderboard\b|\bevaluation suite\b")
_BENCH_ABS = _rx(r"\bwe (?:introduce|present|propose|construct|build|release|develop)\s+(?:\w+[\s,:-]+){0,4}?"
                 r"(?:a |an |the )?(?:new |novel |challenging |comprehensive )*(?:benchmark|evaluation suite|leaderboard)")
_DATA_TITLE = _rx(r"\b(?:dataset|corpus|corpora|data collection|\d+k problems|collection of \w+ problems)\b")
_DATA_ABS = _rx(r"\b(?:data|dataset|problem|task) (?:synthesis|generation|curation|construction) (?:framework|pipeline)\b|\bwe (?:introduce|present|release|construct|build|curate|collect|open-source)\s+(?:\w+[\s,:-]+){0,4}?"
                r"(?:a |an |the )?(?:new |novel |large-scale |high-quality |open )*(?:dataset|corpus)"
                # "we introduce X, a permissively licensed, multilingual preference dataset"; a framework that makes data
                r"|\bwe (?:introduce|present|release|construct|build|curate|collect|open-source) [\w.\-]+, (?:a|an) "
                r"(?:(?!(?:for|on|with|to|that|which|using|via|by|from|of|in)\b)\S+ ){0,8}?(?:dataset|corpus)\b"
                r"|\bframework for (?:[\w\-]+ ){0,3}?(?:data|environment|task|problem)s? (?:generation|synthesis|construction|curation)\b")
_METHOD_NOUN = (r"(?:algorithm|method|change|modification|bonus(?:es)?|scheme|correction|schedule|objective|loss|"
                r"estimator|technique|training (?:recipe|scheme|method)|(?:policy )?optimi[sz]er|variant|"
                r"regulari[sz]er|baseline|approach|framework|strategy|recipe|mechanism|paradigm|formulation|"
                r"(?-i:[A-Z][\w-]*) RL)(?:e?s)?")
# "we (also) propose", "this paper proposes", "and propose", "by introducing", "allows us to propose"
_PROPOSER = (r"(?:\bwe (?:also |further |then |first |additionally |therefore |instead )?|\b(?:this|our) (?:paper|work) |"
             r"\band (?:then )?|\bby |\bus to |\bwe \w+ and )")
_PROPOSE_VERB = r"(?:propos|introduc|present|develop|design|deriv)(?:e|es|ed|ing|s)?"
_NOT_A_METHOD = r"(?!\s+(?:a |an |the )?(?:[\w-]+ ){0,3}?(?:study|analysis|investigation|evaluation|examination|comparison|guidelines|insights|findings|lessons)\b)"
_METHOD_ABS = _rx(_PROPOSER + _PROPOSE_VERB + r"\b" + _NOT_A_METHOD + r"[^.]{0,160}?\b" + _METHOD_NOUN + r"\b"
                  r"|\bwe propose (?:to \w+|\w+ing)\b|\bwe (?:\w+ )?improve \w+ by \w+ing\b")
# a task family that general methods also report on: a domain only when the proposal is built for it
_TASK_DOMAIN = _rx(r"\bcode generation\b")
# the proposal is built for one domain or product ("an agentic model tailored for itinerary planning")
_TARGETED = _rx(r"\b(?:models?|LLMs?|agents?),? (?:that is |which is )?(?:speciali[sz]ed|tailored|dedicated|customi[sz]ed) "
                r"(?:for|to)\b")
_METHOD_TITLE = _rx(r"policy optimi[sz]ation|policy gradient|advantage estimat|\bobjective\b|\bloss\b|"
                    r"\bclipp?(?:ing)?\b|\bbaseline\b|\bestimator\b|\btrust region\b")
_APPLY_ABS = _rx(r"\bwe (?:apply|adapt|use|employ|leverage) (?:reinforcement learning|RL|GRPO|PPO|DPO|RLVR|RLHF)"
                 r"[^.]{0,80}?\b(?:to|for)\b|task-specific reward|domain-specific reward")
_DOMAIN = _rx(
    r"\b(?:medical|medicine|clinical|radiology|health|biomedical|patient|molecul\w*|drug|protein|chemi\w+|"
    r"materials? (?:design|discovery)|chip|circuit|\bEDA\b|legal|financ\w*|trading|text-to-sql|sql|"
    r"(?:machine )?translation|recommend\w*|robot\w*|autonomous driving|driving|web navigation|web agents?|"
    r"gui|e-commerce|advertis\w+|education\w*|tutoring|speech|asr|tts|music|theorem proving|lean ?4|in lean|"
    r"tool[- ](?:calling|use)|function calling|search engines?|retrieval-augmented|rag|customer service|"
    r"cybersecurity|vulnerabilit\w+|game playing|poker|chess|weather|geospatial|remote sensing|"
    r"humor|poetry|story generation|summari[sz]ation|ocr|captioning|image generation|text-to-image|video|"
    r"coding agents?|software engineering|SWE|unit tests?|program repair|search capabilit\w*|search agents?|"
    r"\w*searcher|deep research|browsing|tool-integrated|tool-using|tool learning|livestream\w*|explanations?|audio)\b"
)
_ANALYSIS_TITLE = _rx(r"^(?:understanding|rethinking|revisiting|investigating|on the|what|why|when|how|does|do|is|can|"
                      r"are|towards? (?:a )?(?:better )?understanding)\b|\banalys[ie]s\b|\bempirical study\b|"
                      r"\bperspective\b|\bposition\b|\bdemystif|\bunderstanding\b|\breally\b|\blessons\b|\?")
_ANALYSIS_ABS = _rx(r"\bwe (?:analy[sz]e|study|investigate|examine|characteri[sz]e|measure|find|show that|"
                    r"revisit|ask|conduct (?:a |an )?(?:systematic |large-scale |extensive )?(?:empirical )?"
                    r"(?:study|analysis))\b|\bempirical study\b|\bour (?:analysis|findings)\b")


# Training infrastructure: a system paper talks about the machines and the schedule, not the objective.
# Each family counts once; a paper naming several families is a system paper.
_SYSTEM_FAMILIES = {
    "hardware": _rx(r"\bGPUs?\b|\bTPUs?\b|accelerators?\b|\bhardware\b(?! (?:design|description|verification|code))"),
    "utilisation": _rx(r"utili[sz]ation|\bidle\b|\bbubbles?\b"),
    "speed": _rx(r"throughput|speed-?ups?|\d+(?:\.\d+)?\s*[x×]\s+(?:faster|speed|higher|improvement)|\bfaster\b"),
    "memory": _rx(r"\bmemory (?:usage|footprint|overhead|consumption|efficien\w+)|\bOOM\b|out-of-memory|GPU memory"),
    "latency": _rx(r"\blatency\b|\bruntime\b|wall-?clock|end-to-end training time"),
    "distributed": _rx(r"parallelism|\bdistributed\b|\bclusters?\b|multi-node|\bnodes\b"),
    "asynchrony": _rx(r"\basynchron\w+|weight synchroni[sz]ation|in-flight|\bstaleness\b"),
    "system": _rx(r"\b(?:RL|training|post-training|serving|distributed|efficient|scalable) (?:systems?|frameworks?|infrastructure)\b"
                  r"|\binfrastructure\b|\bsystem design\b|\bopen-source (?:framework|library|system|toolkit)\b"),
    "scheduling": _rx(r"\bschedul(?:er|ing) (?:of )?(?:rollouts?|requests|jobs|generation|resources|GPUs?)\b"
                      r"|load[- ]balanc\w+|disaggregat\w+|co-?locat\w+|resource allocation|\bplacement\b"),
    "engine": _rx(r"inference engines?|generation engines?|rollout engines?|speculative decoding|\bvLLM\b|\bSGLang\b|\bMegatron\b|\bFSDP\b|"
                  r"\bDeepSpeed\b|\bRay\b"),
    "precision": _rx(r"\bquantiz\w+|\bFP8\b|\bFP4\b|\bNVFP4\b|mixed[- ]precision|\bkernels?\b"),
    "transfer": _rx(r"weight (?:sync\w*|updates? (?:to|from|between)|transfer)|\breshard\w*|\bcommunication overhead\b"),
}
# what the proposal says it is: "X, a dataflow-oriented RL system", "an interactive data middleware system for
# agentic RL"; qualified ("a system" alone is generic), and not a reward, agent or dialogue system (methods
# and applications)
_PROPOSES_A = (r"\b(?:we (?:\w+ )?(?:propose|present|introduce|develop|build|design|open-source)|this (?:paper|work) "
               r"(?:presents|introduces|proposes))\s+(?:[\w.\-]+,? )?(?:(?:a|an|the)\s+)?(?:[\w\-]+\s+){0,6}?")
_NOT_INFRA = r"(?<!reward )(?<!rating )(?<!scoring )(?<!agent )(?<!agentic )(?<!multi-agent )(?<!dialogue )(?<!feedback )(?<!expert )"
_SYSTEM_ARTEFACT = _rx(_PROPOSES_A + r"(?<! a )(?<! an )(?<! the )" + _NOT_INFRA + r"(?:system|infrastructure|middleware|engine|platform)\b")
_FRAMEWORK_ARTEFACT = _rx(_PROPOSES_A + r"framework\b")
_SYSTEM_TITLE = _rx(r"\bsystems?\b|\binfrastructure\b|\bmiddleware\b|\basynchronous\b|\baccelerat\w+|\bfaster\b|\bthroughput\b|"
                    r"\bscalable\b.*\bframework\b|\bframework\b.*\bscal\w+")


# kinds a title says outright, then a survey's abstract: these decide before anything else
_KIND_FIRST = (Cue("survey", _SURVEY_TITLE, "title"), Cue("benchmark", _BENCH_TITLE, "title"),
               Cue("dataset", _DATA_TITLE, "title"), Cue("benchmark", _ENV_TITLE, "title"),
               Cue("survey", _SURVEY_ABS, "abstract"))


def _also_algorithm(abstract: str, proposal: re.Match[str]) -> bool:
    """Does the proposal's sentence also propose an algorithm ("a training system and a new algorithm")?"""
    end = abstract.find(". ", proposal.end())
    return bool(re.search(r"\b(?:algorithm|objective|loss|estimator)s?\b", abstract[proposal.start():end if end >= 0 else None]))


def system_cues(p: PaperText) -> list[str]:
    """The infrastructure families a paper names (see _SYSTEM_FAMILIES)."""
    return [f"{name}: {m.group(0)}" for name, rx in _SYSTEM_FAMILIES.items() if (m := rx.search(p.text))]


def paper_kind(p: PaperText, rl: tuple[bool, str] | None = None) -> tuple[str, str]:
    """(kind, deciding signal). Titles decide first; then abstracts; method beats analysis."""
    related, why = rl or is_rl_related(p)
    if not related:
        return "not_rl", why
    title, abstract = p.title, p.abstract
    if hit := first_cue(_KIND_FIRST, title=title, abstract=abstract):
        return hit
    cues = system_cues(p)
    if len(cues) >= 4 or (len(cues) >= 3 and _SYSTEM_TITLE.search(title)):
        return "system", "infrastructure cues: " + "; ".join(cues)
    domain = _DOMAIN.search(title)
    apply = _APPLY_ABS.search(abstract)
    method = _METHOD_ABS.search(abstract) or _named_proposal(abstract)
    title_method = _METHOD_TITLE.search(title) or _title_acronym(title)
    if domain:
        return "application", f"title domain: {domain.group(0)}"
    # the proposal is a system, or a framework the abstract describes in infrastructure terms (unless the
    # same sentence also proposes an algorithm: "a training system and a staleness-aware algorithm")
    if (m := _SYSTEM_ARTEFACT.search(abstract)) and (cues or _SYSTEM_TITLE.search(title)) and not _also_algorithm(abstract, m):
        return "system", f"proposes a system: {m.group(0)[-60:]}"
    if (m := _FRAMEWORK_ARTEFACT.search(abstract)) and len(cues) >= 2 and not _also_algorithm(abstract, m):
        return "system", f"proposes an infrastructure framework: {m.group(0)[-60:]}; " + "; ".join(cues)
    if apply and (not method or apply.start() < method.start()):
        return "application", f"abstract: {apply.group(0)}"
    if m := _BENCH_ABS.search(abstract):
        if not method or m.start() < method.end():  # before the proposal, or what it proposes
            return "benchmark", f"abstract: {m.group(0)[:80]}"
    if m := _DATA_ABS.search(abstract):
        if not method or m.start() < method.end():
            return "dataset", f"abstract: {m.group(0)[:80]}"
    adomain = _DOMAIN.search(abstract)
    if method:
        end = abstract.find(". ", method.end())
        sentence = abstract[method.start():end if end >= 0 else len(abstract)]
        if d := (_DOMAIN.search(sentence) or _TASK_DOMAIN.search(sentence) or _TARGETED.search(sentence)):
            return "application", f"domain in proposal: {d.group(0)}"
        return "general_method", f"abstract: {method.group(0)[:80]}"
    if title_method and not _ANALYSIS_TITLE.search(title):
        sig = title_method if isinstance(title_method, str) else title_method.group(0)
        return "general_method", f"title: {sig}"
    if adomain and not _ANALYSIS_TITLE.search(title):
        return "application", f"abstract domain: {adomain.group(0)}"
    if m := model_report(p)[1]:
        return "general_method", f"model report: {m}"
    if m := (_ANALYSIS_TITLE.search(title) or _ANALYSIS_ABS.search(abstract)):
        return "analysis", f"analysis cue: {m.group(0)}"
    if m := re.search(r"\bwe propose\b", abstract, re.I):
        return "general_method", f"abstract: {m.group(0)}"
    return "analysis", "RL paper without a proposal cue"


# --- method names -------------------------------------------------------------------------------
_NAME = r"(?:Dr\. )?[A-Z][A-Za-z0-9]*(?:[-.+][A-Za-z0-9+]+)*\+*"
_TITLE_PREFIX = re.compile(r"^\s*(" + _NAME + r")\s*:")
_PROPOSE_NAME = re.compile(
    r"\b[Ww]e (?:propose|introduce|present|develop|design|call|name|term|dub)\s+"
    r"(?:(?:a|an|the) )?(?:(?:new|novel|simple|effective|principled|general|lightweight|scalable|efficient)"
    r"[ ,]+)*(?:(?:RL |reinforcement learning |policy optimi[sz]ation |training )?"
    r"(?:algorithm|method|approach|objective|framework|technique|variant|recipe)\s*,?\s*"
    r"(?:called|named|dubbed|termed)?\s*)?(" + _NAME + r")(?=[\s,.;:)(]|$)"
)
_PAREN_ACRONYM = re.compile(
    r"\b[Ww]e (?:propose|introduce|present|develop|design)\s+(?:(?:a|an|the) )?(?:[a-z\-]+ ){0,3}"
    r"((?:[A-Z][\w\-]*\s+){1,7})\((" + _NAME + r")\)"
)
_OUR_NAME = re.compile(r"\b[Oo]ur (?:method|algorithm|approach|objective|framework),? (" + _NAME + r")\b")
_AND_NAME = re.compile(r"^\s+and (?:the )?(" + _NAME + r")(?= (?:algorithm|method|objective|loss)\b)")
_MODEL_LIKE = re.compile(r"-(?:[A-Z]?\d+(?:\.\d+)?[A-Za-z]?)$|\d+(?:\.\d+)?[BM]\b")
_NOT_NAMES = {"A", "An", "The", "We", "Our", "In", "This", "To", "On", "LLM", "LLMs", "RL", "RLHF", "RLVR", "PPO",
              "GRPO", "DPO", "AI", "It", "Large", "Reinforcement", "Towards", "Beyond"}


def _acronym_like(name: str) -> bool:
    if name.startswith("Dr. "):  # "Dr. GRPO" is a new name even though GRPO alone is not
        return len(name) <= 30
    upper = sum(c.isupper() for c in name)
    if re.fullmatch(r"(?:FP|BF|INT|FP)\d+|[A-Z]?\d+(?:\.\d+)?[BMK]?", name):  # FP16, 7B: not method names
        return False
    return (upper >= 2 or "+" in name or any(c.isdigit() for c in name)) and name not in _NOT_NAMES and len(name) <= 30


def _title_acronym(title: str) -> str | None:
    m = _TITLE_PREFIX.match(title)
    return m.group(1) if m and _acronym_like(m.group(1)) else None


def _named_proposal(abstract: str) -> re.Match[str] | None:
    for m in _PROPOSE_NAME.finditer(abstract):
        if _acronym_like(m.group(1)):
            return m
    return None


def defined_methods(p: PaperText, kind: str | None = None) -> list[str]:
    """Method names the paper defines (only for method and application papers)."""
    kind = kind or paper_kind(p)[0]
    if kind not in ("general_method", "application"):
        return []
    names: list[str] = []
    for m in _PROPOSE_NAME.finditer(p.abstract):
        if _acronym_like(m.group(1)):
            names.append(m.group(1))
            if (more := _AND_NAME.match(p.abstract[m.end():])) and _acronym_like(more.group(1)):
                names.append(more.group(1))
    for m in _OUR_NAME.finditer(p.abstract):
        if _acronym_like(m.group(1)):
            names.append(m.group(1))
    for m in _PAREN_ACRONYM.finditer(p.abstract):
        if _acronym_like(m.group(2)):
            names.append(m.group(2))
    prefix = _title_acronym(p.title)
    if prefix and not (names and prefix not in names and _MODEL_LIKE.search(prefix)):
        names.insert(0, prefix)
    out: list[str] = []
    for n in names:
        if n not in out:
            out.append(n)
    return out


# --- policy size --------------------------------------------------------------------------------
_SIZE = re.compile(
    r"(?<![\w.])(?:(?P<experts>\d+)\s*[x×]\s*)?(?P<num>\d+(?:\.\d+)?)\s*(?P<unit>[BMT])(?:-A\d+(?:\.\d+)?B)?(?![\w])"
    r"|(?<![\w.])(?P<num2>\d+(?:\.\d+)?)[\s-]*(?P<unit2>billion|million|trillion)(?:[\s-]+parameters?)?",
)
_SIZE_UNIT = {"B": 1.0, "M": 0.001, "T": 1000.0, "billion": 1.0, "million": 0.001, "trillion": 1000.0}
_NOT_POLICY_AFTER = _rx(r"^[\s-]*(?:tokens?|token|words|images|samples|examples|steps|pairs|hours|problems|"
                        r"prompts|trajectories|\$)")
_NOT_POLICY_BEFORE = _rx(
    r"(?:distil\w* (?:\w+ )?from|"
    r"outperform(?:s|ing)?|surpass(?:es|ing)?|rival(?:s|ing)?|compared? (?:to|with)|(?:compare|comparison) against|"
    r"matches|match|frozen|fixed|below|under|less than|fewer than|smaller than|"
    r"than|versus|vs\.?|generated by|annotated by|labell?ed by|from the|tokens? from|"
    r"corpus of|dataset of|(?:larger|bigger|stronger) (?:[\w-]+ ){0,2}models)(?:[^.;]|\.(?=\S)){0,50}$"
)
# a role noun right before the model name: "a reward model based on Qwen2.5-72B", "judges from 7B to 72B"
_ROLE_BEFORE = _rx(r"(?:reward[- ]models?|\bRMs?|judges?|verifiers?|teachers?|critics?|graders?)"
                   r"(?:\s+(?:is|are|of|from|based on|initiali[sz]ed from|such as|like|uses?|with))?"
                   r"(?:\s+(?:a|an|the))?\s*(?:[\w\-]|\.(?=\S))*(?:\s+to\s+(?:[\w\-]|\.(?=\S))*)?$")
_NOT_POLICY_NAME_AFTER = _rx(r"^[\w.\-]*\s*(?:as (?:the |a )?(?:reward model|judge|verifier|teacher|critic|grader)|"
                             r"(?:reward model|judge|verifier|teacher|critic)\b)")
_MONEY_BEFORE = re.compile(r"[$€£<>≤≥]\s*$")  # money, or a bound ("medium-sized (<100B) LLMs")
# the model right after a verb of training or use is the paper's own, whatever came before it
_OWN_MODEL_BEFORE = _rx(r"\b(?:using|train(?:s|ed|ing)?|fine-tun\w+|post-train\w+|RL-train\w+|initiali[sz]ed from|on)\s+"
                        r"(?:the |a |an |our )?[\w.\-]*$")
# the size sits inside a data artefact's name, e.g. OpenR1-7B-Traces
_DATA_NAME_AFTER = _rx(r"^[\w.]*-(?:traces|data|dataset|corpus|pairs|prefs|preferences|rollouts|sft|mix)\b")


def _named_after_paper(before: str, title: str) -> bool:
    """The model carries the paper's own name ("DLER-7B" in a paper titled "DLER: ...")."""
    own = _title_acronym(title)
    return bool(own and re.search(rf"\b{re.escape(own)}[\w.\-]*-$", before))


def policy_size_b(p: PaperText, rl: bool | None = None, kind: str | None = None) -> tuple[float | None, str | None]:
    """Largest trained-policy size in billions of parameters, with the matched text (None for surveys)."""
    if rl is None:
        rl = is_rl_related(p)[0]
    if not rl or kind == "survey":
        return None, None
    text = p.text
    best: tuple[float, str] | None = None
    for m in _SIZE.finditer(text):
        num = float(m.group("num") or m.group("num2"))
        unit = m.group("unit") or m.group("unit2")
        size = num * _SIZE_UNIT[unit] * (int(m.group("experts")) if m.group("experts") else 1)
        before, after = text[max(0, m.start() - 100):m.start()], text[m.end():m.end() + 40]
        if _MONEY_BEFORE.search(before) or _NOT_POLICY_AFTER.search(after) or _DATA_NAME_AFTER.search(after):
            continue
        own = _OWN_MODEL_BEFORE.search(before) or _named_after_paper(before, p.title)
        if (_NOT_POLICY_BEFORE.search(before) and not own) or _ROLE_BEFORE.search(before) or _NOT_POLICY_NAME_AFTER.search(after):
            continue
        if unit in ("M", "million") and not re.search(r"param|model|policy|\bLM\b", text[m.start():m.end() + 25], re.I):
            continue
        if best is None or size > best[0]:
            best = (size, m.group(0).strip())
    return (round(best[0], 3), best[1]) if best else (None, None)


# --- loss change --------------------------------------------------------------------------------
_LOSS_CONTEXT = r"(?:loss|objective|surrogate|policy[- ]gradient|importance (?:sampling )?ratio|probability ratio|ratio)"
_LOSS_CHANGE = [
    _rx(r"\b(?:clip(?:ping|ped|s)?|clip-higher|decoupled clip|asymmetric clip\w*|clipping range)\b[^.]{0,60}?\b"
        + _LOSS_CONTEXT + r"\b"),
    _rx(r"\b" + _LOSS_CONTEXT + r"\b[^.]{0,40}?\bclip(?:ping|ped|s)?\b"),
    _rx(r"\b(?:mask(?:s|ing|ed)?)\b[^.]{0,60}?\b(?:out of|from|in) the (?:\w+[- ])?" + _LOSS_CONTEXT + r"\b"),
    _rx(r"\b(?:weight(?:s|ing)?|reweight(?:s|ing)?|coefficient|normali[sz]ation|normali[sz]es?|aggregation|"
        r"penalty|regulari[sz]ation term|scaling|margin|importance sampling)\b[^.]{0,60}?\b(?:to|in|of|from|on) the (?:\w+[- ]){0,2}"
        + _LOSS_CONTEXT + r"\b"),
    _rx(r"\badds? (?:an? )?[\w\- ]{0,40}?(?:term|penalty|bonus|regulari[sz]er)\b[^.]{0,60}?\bto the (?:\w+[- ]){0,2}"
        + _LOSS_CONTEXT + r"\b"),
    _rx(r"\breweights? (?:the )?token-level (?:advantages|losses|gradients)\b"),
    _rx(r"\b(?:KL|entropy) (?:coefficient|penalty|bonus|term)\b[^.]{0,50}?\b(?:remov|drop|chang|adapt|replac|"
        r"schedul|tun)\w*|\b(?:remov|drop|chang|adapt|replac)\w* (?:the )?(?:KL|entropy) (?:coefficient|penalty|term)\b"),
    _rx(r"\bclip\w* (?:the )?importance (?:sampling )?(?:weights?|ratios?)\b"),
    _rx(r"\b(?:decoupled|modified|revised|reweighted|unbiased) (?:\w+ )?(?:objective|loss)\b|\bgradient weights\b"),
    # a new loss in place of the existing one: "we propose a novel loss function derived from ..."
    _rx(r"\bwe (?:propose|introduce|derive|design) (?:a |an )?(?:novel |new |simple |principled |stable )+(?:[\w\-]+ )?loss(?: functions?)?\b"),
    _rx(r"\btoken-level (?:policy[- ]gradient )?loss\b|\bsequence-level (?:importance )?(?:ratio|clipping)\b"),
]
# The components of a policy loss as real abstracts name them: a paper whose method talks about one of
# them is changing the loss ("decouples the clipping range", "removes length normalisation", "clips the
# importance-sampling weights", "token-level masking", "global advantage normalisation").
_LOSS_COMPONENTS = _rx(
    r"\bclip(?:s|ped|ping)?\b|\bclip-higher\b|"
    r"\b(?:truncat\w+|bound\w*|constrain\w*|cap(?:s|ped|ping)?|asymmetric|token-level|sequence-level|modif\w+|"
    r"normali[sz]\w+|smooth\w*|flip\w*|adjust\w*|reshap\w+|second moment of)\s+(?:\w+[- ]){0,3}?"
    r"(?:importance|probability) (?:sampling )?(?:weights?|ratios?)\b|"
    r"\bmask(?:s|ed|ing)? (?:out )?(?:\w+[- ]){0,2}(?:tokens?|tokens'|gradients?|losses|loss|responses?)\b|"
    r"\b(?:token|sequence|response)-level mask\w*|\b\w+[- ]entropy mask\w*|"
    r"\b(?:length|advantage|reward|loss|token|global|group|batch|std|standard[- ]deviation) normali[sz]\w+|"
    r"\bnormali[sz]\w* (?:the )?(?:advantages?|losses|loss|rewards?|by (?:the )?(?:length|standard deviation))\b|"
    r"\bre-?weight\w*|\b(?:scales?|scaling|rescal\w+|modulat\w+) (?:the )?(?:[\w\-]+ )?(?:loss|objective)\b|"
    r"\bmask(?:s|ed|ing)? (?:them|it|these|those) out\b|\bmask(?:s|ed|ing)? out (?:\w+[- ]){0,2}samples?\b|"
    r"\btoken[- ](?:level )?weight\w*|\bweights? (?:each |every |the )?(?:tokens?|samples?|responses?)\b|"
    r"\bentropy (?:regulari[sz]\w+|bonus|coefficient|term|loss|penalty)\b|"
    r"\bKL (?:penalty|coefficient|term|regulari[sz]\w+)\b|"
    r"\badvantage (?:estimat\w+|normali[sz]\w+|shaping|function|weight\w*|calculation|computation|baseline)\b|"
    r"\b(?:policy[- ]gradient|gradient) estimators?\b|\bsurrogate (?:objective|loss|reward)\b|"
    r"\breward (?:function )?shapes?\b|\blength penalt\w+\b"
)
_LOSS_FALSE_FRIENDS = _rx(r"gradient[- ]norm clipping|gradient clipping|clip(?:ped)? rewards?|reward clipping|"
                          r"(?-i:\bCLIP\b)|video clips?|audio clips?|masked language model|attention masks?|weight decay|"
                          r"model weights|open[- ]weights?|mask tokens for diffusion")


_LOSS_CUES = (*(Cue(True, rx, label="") for rx in _LOSS_CHANGE), Cue(True, _LOSS_COMPONENTS, label="loss component"))


def changes_loss(p: PaperText, kind: str | None = None) -> tuple[bool, str | None]:
    """Does the proposed method change a coefficient/clip/mask/weight in an existing loss?"""
    kind = kind or paper_kind(p)[0]
    if kind != "general_method":
        return False, None
    return first_cue(_LOSS_CUES, text=_LOSS_FALSE_FRIENDS.sub(" ", p.text)) or (False, None)


# --- code release -------------------------------------------------------------------------------
_ARTEFACT = r"(?:code|codes|implementation|source code|codebase|framework|library|toolkit|models?|weights|data|datasets?|checkpoints)"
_CODE_NOUN = r"(?:code|codes|source code|codebase|implementations?|scripts|harness(?:es)?)"
_NOT_OWN_CODE = r"(?![\w-]*\s+(?:generation|benchmarks?|tasks?|reasoning|completion|domains?|problems|models?|LLMs?|agents?|editing|search|localization|execution|snippets))"
_RELEASE_VERB = r"(?:release[sd]?|open[- ]?sourc(?:e|ed|es|ing)|publish(?:ed)?|share)"
# "our code, model and data are open source", "code will be made publicly available", "all code is open-source"
_CODE_AVAILABLE = _rx(
    r"\b(?:code|codes|implementation|source code|codebase)s?\b(?:(?:,| and| &) (?:the )?(?:\w+ ){0,2}?" + _ARTEFACT + r")*,?"
    r" (?:is|are|will be|has been|have been|can be|is being)? ?(?:also )?(?:fully |publicly |made |openly |freely )*"
    r"(?:available|released|open[- ]?sourced?|found|accessible|public)\b"
    # "an open-source implementation of X is released", "the first open-source implementation"
    r"|\bopen[- ]source (?:implementation|code|codebase)\b")
# "we fully open-source our model weights, training code and data", "we release the framework"
_WE_RELEASE = _rx(r"\bwe (?:also |will |further |fully |publicly )*(?:release|open-source|open source|opensource|make public)\b"
                  r"(?: (?:our|the|all|its|[\w-]+,?)){0,6}? (?:and )?(?:\w+ )?"
                  r"(?:code|codes|implementation|codebase|framework|library|toolkit|system)\b" + _NOT_OWN_CODE)
# one sentence that releases code among other things: "we release the model family, X, along with all our
# code and data", "we have open-sourced the task schema, the harness and a public subset"
_RELEASE_SENTENCE = _rx(r"\bwe (?:\w+ ){0,2}?" + _RELEASE_VERB + r"\b[^.]{0,150}?\b" + _CODE_NOUN + r"\b" + _NOT_OWN_CODE)
_NOT_RELEASED = _rx(r"\b(?:not|no|never)\b[^.]{0,20}?\b(?:code|implementation|source|release|open)")
# code as a task domain beside others ("prompts spanning math, code and science") is not a release
_CODE_AS_DOMAIN = _rx(r"\b(?:math\w*|science|STEM|logic|puzzles?|writing|reasoning)(?:,? (?:and |or )?|/)(?:code|coding)\b|"
                      r"\b(?:code|coding)(?:,? (?:and |or )?|/)(?:math\w*|science|STEM|logic|puzzles?|writing|reasoning)\b")
# code named anywhere in a sentence that then says it is out: "the model, code, and dataset are all open-sourced",
# "all code, prompts and transcripts are released", "code and data are in the supplementary material"
_CODE_IN_A_LIST_OUT = _rx(r"\b(?:source )?codes?\b" + _NOT_OWN_CODE + r"[^.]{0,80}? (?:is|are|will be|has been|have been)"
                          r"(?: all| also| fully| publicly| made| openly| freely| now)* (?:available|released|open[- ]?sourced?|"
                          r"accessible|public|(?:included )?in (?:the )?supplementary)\b|\bcodes? (?:is |are )?(?:coming soon|forthcoming)\b")
# the paper's own software is open source: "we introduce X, an open-source framework for ...", "X is open-sourced",
# "as an open-source platform, X ..." (an open model or data set alone is not code)
_OWN_SOFTWARE = r"(?:framework|tool|toolkit|toolbox|platform|library|environment|gym|server|runtime|simulator|package|system|codebase)s?"
_OPEN_SOURCE_SOFTWARE = _rx(r"\b(?:we (?:introduce|present|propose|develop|build|release|design)|introduces|presents)\s+(?:[\w+-]+,?\s+)?"
                            r"(?:an?|the first|the) (?:[\w-]+ ){0,2}?open[- ]?source[d]? (?:[\w-]+ ){0,2}?" + _OWN_SOFTWARE + r"\b"
                            r"|\bas an open[- ]?source(?:,? [\w-]+)*,? " + _OWN_SOFTWARE + r"\b"
                            r"|(?:^|(?<=\. ))(?:(?!\b(?:models?|weights|checkpoints|data|datasets?|LLMs?)\b)[^.])*\b(?:is|are|has been|have been) "
                            r"(?:fully |now |also )?open[- ]?sourced\b")
# "we release our GitHub repository", "we release the full pipeline"
_RELEASE_REPOSITORY = _rx(r"\bwe (?:also |will |further |fully |publicly )*(?:release|open-source|open source|opensource)"
                          r"(?: (?:our|the|its|full|complete|entire)){0,3} (?:github|repository|repo|pipeline|scripts)\b")
_CODE_CUES = (Cue(True, _CODE_AVAILABLE, label="code available"), Cue(True, _WE_RELEASE, label="release"),
              Cue(True, _RELEASE_SENTENCE, label="release in a sentence"),
              Cue(True, _CODE_IN_A_LIST_OUT, label="code among what is out"),
              Cue(True, _RELEASE_REPOSITORY, label="release of the repository"),
              Cue(True, _OPEN_SOURCE_SOFTWARE, label="open-source software of its own"))
# a link right after a cue that it is the paper's own: "Project page and code: <url>", "available at <url>"
_OWN_LINK_BEFORE = _rx(r"(?:\bcodes?\b|project page|repository|repo\b|implementation|available|released|open[- ]?sourced?|"
                       r"github|homepage|website)[^.]{0,40}$")
# ... unless what is available there is only models or data ("All our datasets and models are available on <url>")
_ONLY_MODELS_OR_DATA = _rx(r"^(?:(?!\bcodes?\b|implementation|repositor|\brepo\b|project|github|homepage|website|"
                           r"framework|library|toolkit)[^.])*\b(?:models?|datasets?|data|weights|checkpoints)\b[^.]*$")
_ANY_URL = re.compile(r"https?://[^\s,;()\[\]{}<>\"'`]+|\bthis https? URL\b", re.I)
_NOT_OURS_BEFORE = _rx(r"(?:based on|buil[dt]s? (?:up)?on|building on|on top of|using|uses|we use|via|extends?|"
                       r"fork of|from)\s*(?:the )?(?:\w+[\s-]){0,3}\(?\s*$")
_NOT_CODE_URL = _rx(r"huggingface\.co/(?!spaces/)")


def _alnum(text: str) -> str:
    return re.sub(r"[^a-z0-9]", "", text.lower())


def _names_the_paper(url: str, title: str) -> bool:
    """Is the link's repository (or project site) named after the paper: a title word or its acronym?"""
    parts = [x for x in re.split(r"[/.]", url.split("://", 1)[-1]) if x][1:]  # drop the host
    names = {_alnum(x) for x in parts if len(_alnum(x)) >= 3} - {"github", "com", "io", "www", "html", "index"}
    words = {_alnum(w) for w in re.findall(r"[\w+-]+", title) if len(_alnum(w)) >= 3}
    squashed = _alnum(title)
    return any(n in words or (len(n) >= 5 and n in squashed) for n in names)


def releases_code(p: PaperText) -> tuple[bool, str | None]:
    """Does the paper release its own code? Reads the abstract, arXiv's comment and the row's code links;
    the signal names the cue that decided ("link", "code available", "release", ...)."""
    return code_release_in(f"{p.abstract} {p.comment or ''}", p.title,
                           [*find_code_urls(p.abstract, p.comment), *p.links])


def own_code_link(urls: Iterable[str], text: str, title: str) -> str | None:
    """The first of `urls` that is the paper's own code as `releases_code` judges a link: not a model
    or data set on Hugging Face; found in `text` and not after "based on", "built on", ... (unless
    "our"/"code" says otherwise), or, when not in `text`, named after the paper (`_names_the_paper`)."""
    for url in dict.fromkeys(urls):
        if _NOT_CODE_URL.search(url):
            continue
        bare = url.split("://", 1)[-1]
        pos = text.find(bare)
        if pos < 0 and not _names_the_paper(url, title):
            continue  # a link from elsewhere on the paper's page (footnotes cite other work too)
        before = text[max(0, pos - 50):pos].removesuffix("https://").removesuffix("http://")
        if pos >= 0 and _NOT_OURS_BEFORE.search(before) and not re.search(r"\b(?:our|code|we release)\b", before, re.I):
            continue
        return url
    return None


def link_after_cue(text: str) -> str | None:
    """A link right after a cue that it is the paper's own ("Project page and code: <url>"), unless
    only models or data are said to be there, and not a Hugging Face model or data set."""
    for m in _ANY_URL.finditer(text):
        before = text[max(0, m.start() - 60):m.start()]
        own = _OWN_LINK_BEFORE.search(before) and not _ONLY_MODELS_OR_DATA.search(before.rsplit(". ", 1)[-1])
        if own and not _NOT_CODE_URL.search(m.group(0)):
            return m.group(0).rstrip(".:!?")
    return None


def code_release_in(text: str, title: str, links: Iterable[str]) -> tuple[bool, str | None]:
    """`releases_code`'s rules over any text of the paper (its abstract and comment, or its front
    matter) with the code links found in or beside it: an own link ("link: <url>"), a release cue
    ("code available", "release", ...), or a link after a cue ("link after a cue: <url>")."""
    if url := own_code_link(links, text, title):
        return True, f"link: {url}"
    if hit := first_cue(_CODE_CUES, text=_NOT_RELEASED.sub(" ", _CODE_AS_DOMAIN.sub("domains", text))):
        return hit
    if url := link_after_cue(text):
        return True, f"link after a cue: {url}"
    return False, None


# --- maintainer affiliation ---------------------------------------------------------------------
def maintainer_framework_ids(p: PaperText, frameworks: Iterable) -> list[str]:
    return maintainer_match(p, frameworks)[0]


def maintainer_match(p: PaperText, frameworks: Iterable) -> tuple[list[str], str | None]:
    """Frameworks whose maintainer org or domain is an author's lab, and the affiliation that said so.

    The lab is the first comma-separated unit of an affiliation ("Qwen Team, Alibaba Inc." -> "Qwen
    Team"), so a parent company alone does not make every team of it a maintainer; a domain counts in
    an e-mail address (alice@nvidia.com, bob@cs.lab.org), not in a link (huggingface.co/datasets/...).
    """
    units = []  # (lab, whole affiliation, source)
    for aff, source in zip(p.affiliations, p.affiliation_sources or ("",) * len(p.affiliations)):
        for one in aff.split(";"):
            units.append((one.split(",")[0].strip(), one.strip(), source or "arXiv"))
    out, signals = [], []
    for fw in frameworks:
        for lab, full, source in units:
            org = any(re.search(rf"(?<![\w-]){re.escape(o)}(?![\w-])", lab, re.I) for o in fw.maintainer_orgs if o)
            dom = any(re.search(rf"@(?:[\w-]+\.)*{re.escape(d)}\b(?![./\w-])", full, re.I) for d in fw.maintainer_domains if d)
            if org or dom:
                out.append(fw.framework_id)
                signals.append(f"{fw.framework_id}: {source} affiliation '{full[:80]}'")
                break
    return out, "; ".join(signals) or None


# --- model technical reports ---------------------------------------------------------------------
_REPORT = _rx(r"\btech(?:nical)? report\b|\b(?:this|the) (?:technical )?report (?:presents|introduces|describes|details)\b|"
              r"\bwe report on the training\b|\bour (?:latest|newest|flagship|new) (?:[\w-]+ )?(?:LLMs?|models?)\b|"
              r"\b(?:family|series|suite) of (?:open[- ](?:weight|source) )?(?:[\w-]+ )?(?:language |foundation |reasoning )?models\b")


def model_report(p: PaperText) -> tuple[bool, str | None]:
    """Is the paper a model's technical report? (The study counts the methods they state apart.)"""
    return first_cue((Cue(True, _REPORT, label=""),), text=p.text) or (False, None)


# --- one row of raw_arxiv.paper_features -----------------------------------------------------------
def screen(row: dict, frameworks: Sequence) -> dict:
    p = PaperText.from_row(row)
    rl = is_rl_related(p)
    kind, kind_signal = paper_kind(p, rl)
    size, size_signal = policy_size_b(p, rl[0], kind)
    loss, loss_signal = changes_loss(p, kind)
    code, code_signal = releases_code(p)
    report, report_signal = model_report(p)
    maintainers, maintainer_signal = maintainer_match(p, frameworks)
    return {
        "arxiv_id": row["arxiv_id"],
        "is_rl_related": rl[0],
        "paper_kind": kind,
        "kind_signal": kind_signal if kind != "not_rl" else rl[1],
        "policy_size_b": size,
        "size_signal": size_signal,
        "changes_loss": loss,
        "loss_signal": loss_signal,
        "releases_code": code,
        "code_signal": code_signal,
        "model_report": report,
        "model_report_signal": report_signal,
        "in_pool": in_pool(p.title, p.abstract),
        "defined_methods": json.dumps(defined_methods(p, kind)),
        "maintainer_framework_ids": json.dumps(maintainers),
        "maintainer_signal": maintainer_signal,
        "screener_version": SCREENER_VERSION,
    }


# --- the rules' cues as inputs of the learned screener -------------------------------------------
def cues(p: PaperText, ruled: dict | None = None) -> dict[str, float]:
    """Every cue the rules read, each 0/1 (a count scaled to 0..1 for infrastructure families), plus
    the rules' own verdicts: the learned screener weighs them as features instead of obeying them.
    ruled: the rules' `screen` row for the same paper, whose verdicts are taken instead of judging again."""
    text, title, abstract = p.text, p.title, p.abstract
    if ruled is None:
        rl = is_rl_related(p)
        kind = paper_kind(p, rl)[0]
        ruled = {"is_rl_related": rl[0], "paper_kind": kind, "releases_code": releases_code(p)[0],
                 "changes_loss": changes_loss(p, kind)[0]}
    kind = ruled["paper_kind"]
    loss_text = _LOSS_FALSE_FRIENDS.sub(" ", text)
    code_text = _NOT_RELEASED.sub(" ", _CODE_AS_DOMAIN.sub("domains", f"{abstract} {p.comment or ''}"))
    found = {
        "rl term": bool(_RL_TERM.search(text)), "rl negated": bool(_RL_NEGATED.search(text)),
        "language-model term": bool(_LLM_TERM.search(text)), "rl resource": bool(_rl_resource(p)),
        "survey title": bool(_SURVEY_TITLE.search(title)), "survey abstract": bool(_SURVEY_ABS.search(abstract)),
        "benchmark title": bool(_BENCH_TITLE.search(title) or _ENV_TITLE.search(title)),
        "benchmark abstract": bool(_BENCH_ABS.search(abstract)),
        "dataset title": bool(_DATA_TITLE.search(title)), "dataset abstract": bool(_DATA_ABS.search(abstract)),
        "method proposal": bool(_METHOD_ABS.search(abstract)), "named proposal": bool(_named_proposal(abstract)),
        "method title": bool(_METHOD_TITLE.search(title)), "title acronym": bool(_title_acronym(title)),
        "applies rl": bool(_APPLY_ABS.search(abstract)), "domain title": bool(_DOMAIN.search(title)),
        "domain abstract": bool(_DOMAIN.search(abstract)), "tailored model": bool(_TARGETED.search(abstract)),
        "analysis title": bool(_ANALYSIS_TITLE.search(title)), "analysis abstract": bool(_ANALYSIS_ABS.search(abstract)),
        "infrastructure families": min(len(system_cues(p)), 4) / 4, "system title": bool(_SYSTEM_TITLE.search(title)),
        "proposes a system": bool(_SYSTEM_ARTEFACT.search(abstract)),
        "proposes a framework": bool(_FRAMEWORK_ARTEFACT.search(abstract)),
        "model report": bool(_REPORT.search(text)),
        "loss change": any(rx.search(loss_text) for rx in _LOSS_CHANGE),
        "loss component": bool(_LOSS_COMPONENTS.search(loss_text)),
        "code available": bool(_CODE_AVAILABLE.search(code_text)), "we release": bool(_WE_RELEASE.search(code_text)),
        "release in a sentence": bool(_RELEASE_SENTENCE.search(code_text)),
        "not released": bool(_NOT_RELEASED.search(f"{abstract} {p.comment or ''}")),
        "any link": bool(p.links or _ANY_URL.search(f"{abstract} {p.comment or ''}")),
        "rules: rl related": ruled["is_rl_related"], "rules: releases code": ruled["releases_code"],
        "rules: changes loss": ruled["changes_loss"],  # False for every kind but general_method
    }
    found.update({f"rules: {k}": kind == k for k in KINDS})
    return {name: float(v) for name, v in found.items()}
