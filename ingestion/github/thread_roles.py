"""Rule-based role of an issue or pull-request thread, from its opening post (pure Python).

A thread that names a method is not necessarily a proposal of it. Each thread gets one role,
with the signal that decided it (like `ingestion.screening.rules`), so the warehouse can show *why*:
- proposal: asks for, or brings, a method or feature the framework lacks ("Support for X",
  "[Feature] ...", "would it be possible to add", a pull request adding or implementing something);
- failure_report: a training or run that fails (NaN/inf loss, OOM, crash, hang, reward or entropy
  collapse, garbled output);
- bug_report: an existing implementation is wrong (incorrect formula, malfunctioning option, error
  traceback without a training failure);
- question: asks how or why something works;
- other: pull requests that fix, document, refactor, test or bump (maintenance), bot threads, and
  anything without a cue.
Only the opening post decides (title, body, labels, kind): the role is what the opener asked for.
Issue-template headings ("### Feature request", "### Reproduction") are strong cues, boilerplate
checklists ("- [ ] This PR fixes a typo...") are removed first. English and Chinese phrasings.
Version 2: cue families meant to hold on any repository, never one repository's habits: trackers,
roadmaps, releases and docs-tagged threads are not proposals; a training symptom (a metric that is
NaN, stuck at 0, flat, falling, spiking or exploding; divergence, collapse, degenerate output; wrong,
mismatched or unreproducible results; OOM, crash, hang) is a failure; a thread that only names a
method or paper (a bare method name, a paper-title style title, an arXiv id) asks for it.
`method_names` finds method-like names; `cue_features` gives the families as features.
Measured on real threads by scripts/thread_metrics.py (per framework; `--lofo` for a learned model).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from ingestion.cues import signal

CLASSIFIER_VERSION = "2.0"
ROLES = ("proposal", "bug_report", "failure_report", "question", "other")


@dataclass(frozen=True)
class ThreadText:
    title: str
    body: str = ""
    kind: str = "issue"  # issue | pull_request
    labels: tuple[str, ...] = ()
    by_bot: bool = False


def _rx(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern, re.IGNORECASE)


# --- clean-up -------------------------------------------------------------------------------------
_FENCE = re.compile(r"```.*?(?:```|\Z)|~~~.*?(?:~~~|\Z)", re.DOTALL)
_HTML_COMMENT = re.compile(r"<!--.*?(?:-->|\Z)", re.DOTALL)
_CHECKLIST = re.compile(r"^\s*(?:[-*+]|\d+\.)\s*\[[ xX]?\]", re.MULTILINE)
_IMAGE = re.compile(r"!\[[^\]]*\]\([^)]*\)|<img[^>]*>", re.IGNORECASE)
_QUOTE = re.compile(r"^\s*>.*$", re.MULTILINE)
_BOILERPLATE = _rx(r"who can review|anyone in the community is free to review|contributor guideline|"
                   r"feel free to tag|before submitting|pre-submission checklist|checklist before")
_LEADING_TAGS = re.compile(r"^(?:\s*(?:\[[^\]]{0,40}\]|\([^)]{0,40}\)|[^\w\s\[(`'\"]+))+\s*")


def _prose_and_code(body: str) -> tuple[str, str]:
    """(prose without code, checklists, quotes, images and template boilerplate; the code blocks)."""
    code = "\n".join(m.group(0) for m in _FENCE.finditer(body))
    prose = _FENCE.sub(" ", _HTML_COMMENT.sub(" ", body))
    prose = _IMAGE.sub(" ", _QUOTE.sub(" ", prose))
    lines = [ln for ln in prose.splitlines() if not _CHECKLIST.match(ln) and not _BOILERPLATE.search(ln)]
    return "\n".join(lines), code


def core_title(title: str) -> str:
    """The title without leading tags, scopes and emoji: '🪶 [GRPO] PPO Lite: ...' -> 'PPO Lite: ...'."""
    return _LEADING_TAGS.sub("", title).strip()


# --- cues -----------------------------------------------------------------------------------------
# bracketed or prefixed feature tags: "[Feature]", "[Feature Request]", "[feat]", "feat:", "feat(x):"
_FEATURE_TAG = _rx(r"\[\s*(?:feature(?:\s*request)?|feat|enhancement|new (?:method|algorithm)|rfc|proposal)\s*\]|"
                   r"(?:^|\]\s*|\s)(?:feat|feature)(?:\([^)]*\))?!?\s*:")
_FEATURE_VERB = _rx(r"\b(?:add(?:s|ed|ing)?|addition of|support(?:s|ed|ing)?(?: for)?|implement(?:s|ed|ing|ation)?|"
                    r"integrat(?:e|es|ed|ing|ion)|introduc(?:e|es|ed|ing)|enabl(?:e|es|ing)|"
                    r"new (?:trainer|loss|algorithm|method|estimator|option)|request(?:ing)? for)\b|"
                    r"支持|加入|添加|增加|实现|引入")
# maintenance pull requests: conventional-commit types or leading verbs
_MAINTENANCE_START = _rx(r"^(?:fix(?:es|ed|ing)?|bug ?fix|hot ?fix|docs?|documentation|refactor(?:s|ed|ing)?|"
                         r"chore|ci|tests?|typo|revert|bump(?:s|ed)?|style|lint|format(?:ting)?|clean ?up|"
                         r"remove[sd]?|delete[sd]?|deprecate[sd]?|rename[sd]?|update[sd]?|upgrade[sd]?|"
                         r"perf|misc|build|release|minor)\b")
_MAINTENANCE_ANY = _rx(r"\b(?:fix(?:es|ed)?|typo|docs?|documentation|paper index|readme|refactor|revert|"
                       r"bump|deprecat\w*|remov(?:e|es|ing) the)\b")
_PR_ADDS = _rx(r"\b(?:this|the) (?:pr|pull request|change|patch)\s+(?:\w+\s+){0,2}?(?:adds?|implements?|"
               r"introduces?|supports?|integrates?|enables?|brings?)\b|\bwe (?:add|implement|introduce)\b|"
               r"\bimplements?\b|\badd(?:s|ed)? (?:support|an? (?:new )?option)\b|\bnewly supported\b|"
               r"\busers can now\b")
_PR_FIXES = _rx(r"\b(?:this|the) (?:pr|pull request|change|patch)\s+(?:\w+\s+){0,2}?(?:fix(?:es)?|corrects?|"
                r"resolves? (?:a|the) bug|updates? the doc|documents?|refactors?|removes?)\b")
# an issue asking the framework to support something: explicit asks, then softer "does X support Y?"
_ASK_SUPPORT = _rx(
    r"\b(?:please|pls|kindly)\s+(?:\w+\s+){0,2}?(?:add|support|implement|consider|include|integrate)\b|"
    r"\bwould (?:it |this )?be (?:great|nice|useful|good|helpful|awesome|valuable) (?:to|if)\b|"
    r"\b(?:any|have you|do you have|is there (?:a|any)|are there (?:any)?)\s+(?:\w+\s+)?"
    r"(?:plans?|timeline|eta|updates?|roadmap)\b|"
    r"\bplan(?:s|ning)? to (?:support|add|implement|include|integrate|release)\b|"
    r"\b(?:i|we)(?:'d| would| want to| wanted to| am| 'm)?\s+(?:like to |love to )?"
    r"(?:propose|proposing|request|requesting|suggest|suggesting)\b|"
    r"\bfeature request\b|\b(?:is|was) wondering (?:if|whether)\b[^.?]{0,80}\b(?:include|support|add|implement)|"
    r"\b(?:happy|glad|willing|like|love|able) to (?:\w+\s+){0,2}?(?:implement|contribute|submit|open|"
    r"work on|volunteer)\b|\bwork(?:ing)? on adding\b|\bwould (?:it|this|a pr) be accepted\b|"
    r"\binterest(?:ed)? (?:in|to) (?:\w+\s+){0,3}?(?:includ|add|hav|support|implement)\w*|"
    r"\b(?:is|was) (?:there )?(?:any )?(?:way|possible|possibility) to (?:support|add|implement)\b|"
    r"\b(?:will|would|could|can) (?:you|we|it|this|they|the (?:team|maintainers)) (?:\w+\s+){0,2}?"
    r"(?:support|add|implement|include|integrate|release)\b|"
    r"\b(?:on|in) (?:the|your) road ?map\b|"
    r"是否(?:支持|考虑|会)|会支持|希望.{0,20}(?:支持|加入|添加|增加)|计划")
_ASKS_IF_SUPPORTED = _rx(r"\b(?:does|do|is|are|will|can)\s+(?:(?!not\b)\w+\s+){0,3}?(?:support(?:s|ed)?)\b|"
                         r"支持.{0,20}[吗么？?]")
# issue-template headings (GitHub issue forms of HF, verl, slime and most projects)
_PROPOSAL_TEMPLATE = _rx(r"^#{1,6}\s*(?:feature request|method description|motivation|your contribution|"
                         r"open source status|proposal|describe the solution you'?d like)\b")
_BUG_TEMPLATE = _rx(r"^#{1,6}\s*(?:reproduction|system info|expected behaviou?r|actual behaviou?r|bug description|"
                    r"steps to reproduce|describe the bug|to reproduce|information|logs?)\b")
_QUESTION_TEMPLATE = _rx(r"^#{1,6}\s*(?:your question|question(?: description)?|what i'?ve tried)\b")
# a training or run that fails
_FAILURE = _rx(
    r"\bnan\b|\bnans\b|\binf(?:inity)?\b(?= loss|\s+(?:in|values?|grad))|(?:loss|grad(?:_| )?norm|reward|"
    r"logits?|advantages?)\w*\s*(?:(?:\w+\s+){0,3}?(?:is|are|becomes?|became|goes|went|turns?|stays?|remains?|"
    r"to)\s+(?:always\s+|still\s+|constantly\s+)?(?:at\s+)?|=\s*)(?:nan|inf|0(?:\.0+)?\b|zero)|(?:reward|loss|entropy|grad\w*|output)s?\s+(?:is\s+)?abnormal|"
    r"(?:奖励|损失|loss|reward|输出)\S{0,6}异常|out of memory|\boom\b|cuda error|\bcrash(?:es|ed|ing)?\b|"
    r"\bhang(?:s|ing|ed)?\b|\bhung\b|\bstuck\b|\bdeadlock|\bfreez(?:e|es|ing)\b|\bdiverg(?:e|es|ed|ing)\b|(?<!kl )(?<!kl-)(?<!leibler )(?<!js )\bdivergence\b|"
    r"\bcollaps(?:e|es|ed|ing)\b|\bexplod(?:e|es|ed|ing)\b|\bgarbled?\b|\bgibberish\b|!!!!|"
    r"\b(?:reward|accuracy|score|performance)s?\b[^.\n]{0,40}?\b(?:drops?|dropped|decreas\w*|falls?|fell|"
    r"degrad\w*|plummet\w*|goes down|went down|going down)\b|\bentropy\b[^.\n]{0,30}?\b(?:increas\w*|ris(?:e|es|ing)|spik\w*|explod\w*|"
    r"drops?|collaps\w*)\b|\b(?:increas\w*|rise|spike)\s+in\s+entropy\b|segmentation fault|\bsigkill\b|"
    r"nccl (?:error|timeout)|\bkilled\b|训练崩|崩溃|乱码|卡住|卡死|显存不足|爆显存|"
    # a training metric that stops moving or moves the wrong way
    r"\b(?:rewards?|accuracy|scores?|loss(?:es)?|kl|entropy|grad(?:ient)?[_ ]?norms?|response[_ ]lengths?|"
    r"performance|val(?:idation)?[_ ]\w+)\b[^.\n]{0,30}?\b(?:no longer|not|n't|never|stops?|stopped|fails? to|"
    r"barely)\s+(?:\w+\s+)?(?:increas|improv|decreas|converg|go(?:es|ing)? (?:up|down)|grow|ris(?:e|es|ing)|learn|"
    r"chang|mov)\w*|"
    r"\b(?:not|never|fails? to|failed to|unable to|does ?n[o']?t|did ?n[o']?t)\s+(?:\w+\s+)?(?:converg|learn)\w*|"
    r"\b(?:training|loss|reward|kl|entropy|gradients?)\b[^.\n]{0,30}?\b(?:unstable|instabilit\w*|spik\w*|"
    r"blow(?:s|ing)? up|blew up|plateau\w*|(?:is|are|stays?|remains?|looks?) flat|stagnat\w*|oscillat\w*|fluctuat\w*|abnormal\w*|weird|strange)|"
    r"\b(?:unstable|instabilit\w*) (?:training|loss|reward|run)|\b(?:loss|reward|kl|grad\w*) spikes?\b|"
    r"\b(?:model|policy|outputs?|generations?|responses?)\b[^.\n]{0,30}?\b(?:degenerat\w*|repetit\w*|"
    r"repeat(?:s|ing|ed)? (?:itself|the same)|nonsense|empty)\b|"
    # a run that gives wrong or unreproducible results
    r"\b(?:worse|lower|much higher|much lower) than (?:expected|reported|the paper|the baseline|before)\b|"
    r"\b(?:much|significantly|far|way) worse than\b|"
    r"\b(?:below|under) (?:the |what the )?(?:paper|reported|expected|official|published)\b|"
    r"\b(?:loss(?:es)?|kl|grad(?:ient)?[_ ]?norms?)\b[^.\n]{0,30}?\b(?:goes up|went up|keeps? "
    r"(?:rising|growing|increasing|going up))\b|"
    r"\b(?:differ\w*|deviat\w*) (?:\w+ ){0,2}from (?:the )?(?:paper|reported|official|expected|published)\b|"
    r"\b(?:can ?not|can't|unable to|fail(?:s|ed)? to|could ?n[o']?t) (?:match|reach|achieve|get) (?:the )?"
    r"(?:reported|paper|expected|official|published)|"
    r"\b(?:loss|kl|grad(?:ient)?[_ ]?norm|entropy)\b[^.\n]{0,20}?\b(?:is|are|becomes?|gets?|goes)\s+"
    r"(?:huge|very (?:large|high|big)|extremely (?:large|high)|abnormally (?:large|high)|too (?:large|high))\b|"
    r"\b(?:can ?not|can't|unable to|fail(?:s|ed)? to|could ?n[o']?t|did ?n[o']?t)\s+(?:\w+\s+)?reproduce|"
    r"\b(?:results?|metrics?|logprobs?|log[_ ]probs?|rewards?|scores?|accuracy)\b[^.\n]{0,20}?"
    r"\b(?:are|is|look|looks|seem|seems|became|become)\s+(?:\w+\s+)?(?:wrong|incorrect|off|weird|strange|"
    r"abnormal|suspicious|bad|poor|terrible|very low)\b|"
    r"\b(?:abnormal|weird|strange|unusual|odd)\s+(?:training\s+|reward\s+|loss\s+)?(?:curves?|behaviou?r|results?|"
    r"loss|rewards?|training)\b|"
    r"\b(?:accuracy|performance|scores?|results?|rewards?)\b[^.\n]{0,20}?\bworse\b|"
    r"\b(?:can ?not|can't|unable to|fail(?:s|ed)? to|could ?n[o']?t)\s+(?:get|reach|achieve|match|reproduce)\b"
    r"[^.\n]{0,40}?(?:\d+(?:\.\d+)?%?|\bscores?\b|\baccuracy\b|\bresults?\b|\bperformance\b|\bnumbers?\b)|"
    r"\b(?:training|rollout|inference|train)[-/ ](?:inference|rollout|training|infer)\s+(?:\w+\s+)?mismatch|"
    r"\bdifferent (?:results|outputs|logprobs|log[_ ]probs|rewards|scores|accuracy)\b|"
    r"\b(?:logprobs?|log[_ ]probs?|results?|outputs?|rewards?)\s+(?:\w+\s+)?mismatch|"
    r"\breward hacking\b|\bgarbage (?:output|text|tokens|responses?)\b|"
    r"不收敛|不上升|不下降|(?:奖励|准确率|精度|分数|reward|acc)\S{0,6}(?:下降|降低|变差)|震荡|"
    r"(?:无法|不能|没能|未能)复现|复现不了|复现\S{0,10}(?:不一致|差|低)")
_ERROR = _rx(r"\btraceback\b|\b\w+error\b|\bexception\b|\berror\b|报错")
_BUG = _rx(r"\bbugs?\b|\bincorrect(?:ly)?\b|\bwrong\b|\binconsisten\w*\b|\bmalfunction\w*\b|\bmismatch\w*\b|"
           r"\b(?:does ?n[o']?t|not) work\w*\b|\bbroken\b|\bshould (?:be|not)\b|\btypo\b|\bmistake\b|\bfails?\b|"
           r"\bfailed\b|\bunexpected\b|\bregression\b|\bnot (?:be )?supported\b|\bunsupported\b|"
           r"\bdo(?:es)?(?:n't| not) support\b|\bcan(?:not|'t)\b|\bunable to\b|不支持")
_QUESTION = _rx(r"\?\s*$|？\s*$|^(?:how|why|what|where|when|which|who|is|are|does|do|did|can|could|should|would)\b|"
                r"\[\s*question\s*\]|\bquestion\b|请问|问题|疑问|为什么|如何|怎么|[吗么呢]\s*[？?]?\s*$")


# a method-like name: an arXiv id or link, an acronym-like token (GRPO, REINFORCE++, SimPO, GSPO-token),
# or a lower-case "...po" name; infrastructure acronyms and the framework's own vocabulary are not methods
_ARXIV_REF = _rx(r"\b\d{4}\.\d{4,5}(?:v\d+)?\b|arxiv\.org/|huggingface\.co/papers/")
_ACRONYM = re.compile(r"(?<![\w.-])[A-Z]{2,}\d*(?=[A-Z][a-z]{2,})|"  # the acronym of a class name (GRPOTrainer)
                      r"(?<![\w.-])(?:[A-Z][a-z]*){0,2}[A-Z]{2,}[a-z]*\d*(?:-[A-Za-z0-9]+)?(?:\+\+)?(?![\w/])|"
                      r"(?<![\w.-])[A-Za-z][\w-]*\+\+|(?<![\w.-])[a-z]{1,6}po\b", re.ASCII)
_NOT_A_METHOD = _rx(r"^(?:gpus?|cpus?|cuda|nccl|oom|apis?|llms?|vlms?|rl|rlhf|sft|fsdp\d?|vllm|sglang|hf|prs?|"
                    r"readme|ci|moe|tp|pp|dp|ep|cp|sp|fp\d+|bf16|nan|inf|json|yaml|cli|gpt\w*|qwen\w*|llama\w*|"
                    r"deepseek\w*|ids?|url|http\w*|ray|kv|lora|qlora|peft|rm|ppo[-_]?trainer|todo|faq|"
                    r"rfc|eta|wip|bug|docs?|ui|io|os|mac|linux|amd|nvidia|npu|tpu|a100|h100|h800|h20|repo|typo)$")
_TRACKER = _rx(r"(?<!on the )(?<!in the )(?<!on your )(?<!in your )\broad ?map\b|\brelease\b|\bpublish\w*|\bchangelog\b|\btracker\b|\bmeta[- ]issue\b|"
               r"\bsync(?:hroni[sz]e)?\b[^.]{0,30}\b(?:v\d|version|release|upstream)|^\W*v\d+\.\d+|"
               r"(?<![\w.])v\d+\.\d+(?:\.\d+)?(?![\w.])")
_MAINTENANCE_TAG = _rx(r"\[[^\]]*\b(?:docs?|documentation|ci|tests?|chore|misc|example|recipe)s?\b[^\]]*\]")


def method_names(text: str) -> list[str]:
    """Method-like names in a text, in order: arXiv ids and links, acronym-like tokens ('GRPO',
    'REINFORCE++', 'GSPO-token', 'SimPO', the GRPO of 'GRPOTrainer'), lower-case '...po' names (also
    inside identifiers: zzpo_trainer); infrastructure acronyms excluded."""
    found = [m.group(0) for m in _ARXIV_REF.finditer(text)]
    words = text.replace("_", " ")  # identifiers name methods too: loss_type="zzpo", zzpo_trainer
    found += [m.group(0) for m in _ACRONYM.finditer(words) if not _NOT_A_METHOD.match(m.group(0).strip("+"))]
    return found


def _labels_match(labels: Iterable[str], pattern: str) -> str | None:
    for label in labels:
        if re.search(pattern, label, re.IGNORECASE):
            return label
    return None


def _cue(m: re.Match[str] | None) -> str:
    return signal("", m, width=60) if m else ""


def _headings(prose: str, pattern: re.Pattern[str]) -> str | None:
    for line in prose.splitlines():
        if m := pattern.match(line.strip()):
            return _cue(m)
    return None


_TITLE_TAG = re.compile(r"\[([^\]]{1,40})\]")


def _bare_method_title(core: str) -> bool:
    """A short title that is little more than a method's name ('DPO', 'Reinforce++ baseline')."""
    words = core.split()
    return 0 < len(words) <= 2 and bool(method_names(core)) and not (
        _BUG.search(core) or _ERROR.search(core) or _QUESTION.search(core))


def _pull_request_role(title: str, core: str, prose: str) -> tuple[str, str]:
    if m := _MAINTENANCE_START.match(core):
        return "other", f"maintenance pull request: title starts with {_cue(m)!r}"
    if m := _TRACKER.search(title):
        return "other", f"release or sync pull request: {_cue(m)!r}"
    if m := _FEATURE_TAG.search(title):
        return "proposal", f"pull request tagged {_cue(m)!r}"
    if m := _MAINTENANCE_TAG.search(title):
        return "other", f"maintenance pull request: tagged {_cue(m)!r}"
    if m := _FEATURE_VERB.search(title):
        return "proposal", f"pull request title: {_cue(m)!r}"
    if m := _MAINTENANCE_ANY.search(core):
        return "other", f"maintenance pull request: title says {_cue(m)!r}"
    first = prose.strip()[:400]
    if m := _PR_FIXES.search(first):
        return "other", f"maintenance pull request: body says {_cue(m)!r}"
    if m := _PR_ADDS.search(prose):
        return "proposal", f"pull request body: {_cue(m)!r}"
    return "proposal", "pull request without a fix/docs/refactor cue: a proposed change"


def _issue_role(title: str, core: str, prose: str, code: str, labels: tuple[str, ...]) -> tuple[str, str]:
    """Title cues first (tags, asks, failures), then labels and templates, then the body's cues:
    explicit asks, failures, defects, questions; softer 'does it support X?' asks come after failures."""
    if m := _TRACKER.search(title):
        return "other", f"tracker, roadmap or release thread: {_cue(m)!r}"
    if m := _FEATURE_TAG.search(title):
        return "proposal", f"issue tagged {_cue(m)!r}"
    if m := _MAINTENANCE_TAG.search(title):
        return "other", f"documentation or maintenance thread: {_cue(m)!r}"
    title_failure = _FAILURE.search(title)
    if (m := _FEATURE_VERB.search(core)) and not (title_failure or _BUG.search(core) or _ERROR.search(core)):
        return "proposal", f"issue title asks: {_cue(m)!r}"
    if title_failure:
        return "failure_report", f"title reports a failure: {_cue(title_failure)!r}"
    if label := _labels_match(labels, r"enhancement|feature|new (?:method|algorithm)"):
        return "proposal", f"label {label!r}"
    if heading := _headings(prose, _PROPOSAL_TEMPLATE):
        return "proposal", f"feature-request template: {heading!r}"
    if m := _ASK_SUPPORT.search(f"{core}\n{prose}"):
        return "proposal", f"asks for support: {_cue(m)!r}"
    if failure := _FAILURE.search(prose) or _FAILURE.search(code):
        return "failure_report", f"body reports a failure: {_cue(failure)!r}"
    if m := _ASKS_IF_SUPPORTED.search(f"{core}\n{prose}"):
        return "proposal", f"asks whether it is supported: {_cue(m)!r}"
    if heading := _headings(prose, _BUG_TEMPLATE):
        return "bug_report", f"bug-report template: {heading!r}"
    if label := _labels_match((*labels, *_TITLE_TAG.findall(title)), r"\bbug\b"):
        return "bug_report", f"label or tag {label!r}"
    if _bare_method_title(core):
        return "proposal", f"title is a method name: {core[:60]!r}"
    if m := _BUG.search(title) or _BUG.search(prose):
        return "bug_report", f"reports a defect: {_cue(m)!r}"
    heading = _headings(prose, _QUESTION_TEMPLATE)
    if heading or (label := _labels_match(labels, r"question|help wanted|usage")):
        return "question", f"question template or label: {heading or label!r}"
    if m := _QUESTION.search(title):
        return "question", f"title asks: {_cue(m)!r}"
    if m := _ERROR.search(title) or _ERROR.search(prose) or _ERROR.search(code):
        return "bug_report", f"reports an error: {_cue(m)!r}"
    if m := _QUESTION.search(prose):
        return "question", f"body asks: {_cue(m)!r}"
    if names := method_names(core) or _ARXIV_REF.findall(prose):
        return "proposal", f"names a method or paper and nothing else: {names[0]!r}"
    return "other", "issue without a proposal, failure, bug or question cue"


def cue_features(t: ThreadText) -> dict[str, float]:
    """The cue families of the rules, each on the title and on the opening post, as 0/1 features
    (with the rule's own role): what a learned model over the rules reads."""
    prose, code = _prose_and_code(t.body or "")
    title = (t.title or "").strip()
    core = core_title(title)
    families = {"feature_tag": _FEATURE_TAG, "feature_verb": _FEATURE_VERB, "ask_support": _ASK_SUPPORT,
                "asks_if_supported": _ASKS_IF_SUPPORTED, "failure": _FAILURE, "error": _ERROR, "bug": _BUG,
                "question": _QUESTION, "maintenance": _MAINTENANCE_ANY, "tracker": _TRACKER,
                "maintenance_tag": _MAINTENANCE_TAG, "pr_adds": _PR_ADDS, "pr_fixes": _PR_FIXES,
                "arxiv_ref": _ARXIV_REF}
    features: dict[str, float] = {}
    for name, pattern in families.items():
        features[f"title_{name}"] = float(bool(pattern.search(title)))
        features[f"body_{name}"] = float(bool(pattern.search(prose)))
    features["code_failure"] = float(bool(_FAILURE.search(code)))
    features["title_method_name"] = float(bool(method_names(core)))
    features["body_method_name"] = float(bool(method_names(prose)))
    features["bare_method_title"] = float(_bare_method_title(core))
    features["maintenance_start"] = float(bool(_MAINTENANCE_START.match(core)))
    features["proposal_template"] = float(_headings(prose, _PROPOSAL_TEMPLATE) is not None)
    features["bug_template"] = float(_headings(prose, _BUG_TEMPLATE) is not None)
    features["label_feature"] = float(_labels_match(t.labels, r"enhancement|feature|new (?:method|algorithm)") is not None)
    features["label_bug"] = float(_labels_match(t.labels, r"\bbug\b") is not None)
    features["label_question"] = float(_labels_match(t.labels, r"question|help wanted|usage") is not None)
    features["pull_request"] = float(t.kind == "pull_request")
    features["empty_body"] = float(not prose.strip())
    rule_role, _ = thread_role(t)
    for role in ROLES:
        features[f"rule_{role}"] = float(rule_role == role)
    return features


def thread_role(t: ThreadText) -> tuple[str, str]:
    """(role, deciding signal) for one thread's opening post."""
    if t.by_bot:
        return "other", "opened by a bot"
    prose, code = _prose_and_code(t.body or "")
    title = (t.title or "").strip()
    core = core_title(title)
    if t.kind == "pull_request":
        return _pull_request_role(title, core, prose)
    return _issue_role(title, core, prose, code, tuple(t.labels))
