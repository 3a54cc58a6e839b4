"""Cue families of an issue or pull-request thread's opening post (pure Python, no thread text kept).

Each family is a regular expression written from how threads of RL training repositories read in
general, never from one repository's habits:
- asks and contributions: feature tags, request verbs, "would it be possible", roadmap questions,
  "this PR adds", a checked "New feature" box, a method-like name or an arXiv reference;
- training failures, split by symptom: non-finite values (NaN/inf), collapse or divergence,
  degenerate output, a metric that stops improving, a metric that gets worse, instability, wrong or
  unreproducible results (a gap to the paper, a trainer/rollout-engine log-prob mismatch, abnormal
  values), a run that breaks (crash, hang, killed) and, apart, running out of memory;
- maintenance, trackers and releases, bug templates, errors and questions.
English and Chinese phrasings; boundaries are written so that a symptom next to CJK text still reads
("grad_norm为NAN"). `cue_features` turns the families into 0/1 features (title and opening post
apart), the inputs of the rules (`thread_roles`) and of the learned combination (`thread_model`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from ingestion.github import thread_methods
from ingestion.text import word_zipf


@dataclass(frozen=True)
class ThreadText:
    title: str
    body: str = ""
    kind: str = "issue"  # issue | pull_request
    labels: tuple[str, ...] = ()
    by_bot: bool = False


def _rx(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern, re.IGNORECASE)


# a word boundary that also holds next to CJK characters (Python's \b treats them as word characters)
_L, _R = r"(?<![A-Za-z0-9_])", r"(?![A-Za-z0-9_]|\.\d)"

# --- clean-up -------------------------------------------------------------------------------------
_FENCE = re.compile(r"```.*?(?:```|\Z)|~~~.*?(?:~~~|\Z)", re.DOTALL)
_HTML_COMMENT = re.compile(r"<!--.*?(?:-->|\Z)", re.DOTALL)
_CHECKLIST = re.compile(r"^\s*(?:[-*+]|\d+\.)\s*\[[ xX]?\]", re.MULTILINE)
_IMAGE = re.compile(r"!\[[^\]]*\]\([^)]*\)|<img[^>]*>", re.IGNORECASE)
_QUOTE = re.compile(r"^\s*>.*$", re.MULTILINE)
_BOILERPLATE = _rx(r"who can review|anyone in the community is free to review|contributor guideline|"
                   r"feel free to tag|before submitting|pre-submission checklist|checklist before")
_LEADING_TAGS = re.compile(r"^(?:\s*(?:\[[^\]]{0,40}\]|\([^)]{0,40}\)|[^\w\s\[(`'\"]+))+\s*")


def prose_and_code(body: str) -> tuple[str, str]:
    """(prose without code, checklists, quotes, images and template boilerplate; the code blocks)."""
    code = "\n".join(m.group(0) for m in _FENCE.finditer(body))
    prose = _FENCE.sub(" ", _HTML_COMMENT.sub(" ", body))
    prose = _IMAGE.sub(" ", _QUOTE.sub(" ", prose))
    lines = [ln for ln in prose.splitlines() if not _CHECKLIST.match(ln) and not _BOILERPLATE.search(ln)]
    return "\n".join(lines), code


def core_title(title: str) -> str:
    """The title without leading tags, scopes and emoji: '🪶 [GRPO] PPO Lite: ...' -> 'PPO Lite: ...'."""
    return _LEADING_TAGS.sub("", title).strip()


# --- asks and contributions -----------------------------------------------------------------------
FEATURE_TAG = _rx(r"\[\s*(?:feature(?:\s*request)?|feat|enhancement|new (?:method|algorithm)|rfc|proposal|algo)\s*\]|"
                  r"(?:^|\]\s*|\s)(?:feat|feature)(?:\([^)]*\))?!?\s*:")
FEATURE_VERB = _rx(r"\b(?:add(?:s|ed|ing)?|addition of|support(?:s|ed|ing)?(?: for)?|implement(?:s|ed|ing)?|"
                   r"integrat(?:e|es|ed|ing|ion)|introduc(?:e|es|ed|ing)|enabl(?:e|es|ing)|"
                   r"new (?:trainer|loss|algorithm|method|estimator|option)|request(?:ing)? for)\b|"
                   r"支持|加入|添加|增加|实现|引入")
MAINTENANCE_START = _rx(r"^(?:fix(?:es|ed|ing)?|bug ?fix|hot ?fix|docs?|documentation|refactor(?:s|ed|ing)?|"
                        r"chore|ci|tests?|typo|revert|bump(?:s|ed)?|style|lint|format(?:ting)?|clean ?up|"
                        r"remove[sd]?|delete[sd]?|deprecate[sd]?|rename[sd]?|update[sd]?|upgrade[sd]?|"
                        r"perf|misc|build|release|minor|cp|clarif(?:y|ies|ied)|explain(?:s|ed)?|document(?:s|ed)?|"
                        r"improve[sd]?|modif(?:y|ies|ied)|tweak(?:s|ed)?|adjust(?:s|ed)?|simplif(?:y|ies|ied)|polish(?:es|ed)?)\b|"
                        r"^(?:更新|修复|修正|修改|重构|文档|删除|移除|升级)")
MAINTENANCE_ANY = _rx(r"\b(?:fix(?:es|ed)?|typo|docs?|documentation|paper index|readme|refactor|revert|"
                      r"bump|deprecat\w*|remov(?:e|es|ing) the|unit ?tests?|tests? for|off-by-(?:one|1)|no[_ ]grad|detach\w*|"
                      r"args|arguments)\b")
# documentation content a pull request may add about a method without adding the method
DOCS_CONTENT = _rx(r"\b(?:sections?|chapters?|tutorials?|notebooks?|cookbooks?|blog ?posts?|blogs?|guides?|"
                   r"paper[ _]index|awesome|readme|introduction|intro|overview|explained|explainer|walkthrough)\b|"
                   r"教程|文档|介绍|讲解|解读|科普")
# a usage question ("which should I use", "how to", 应该/哪个/如何): an ask verb inside it asks for nothing
USAGE_QUESTION = _rx(r"\b(?:how|which|why)\b|\bshould (?:i|we)\b|应该|选择|哪个|哪种|如何|怎么|怎样|为什么|为何")
# "Refactor X and add Y": the second clause of a maintenance title may bring a method
AND_ADDS = _rx(r"(?:\band\b|&|,|;|\+)\s*(?:add(?:s|ed|ing)?|support(?:s|ed|ing)?|implement(?:s|ed|ing)?|"
               r"introduc(?:e|es|ed|ing))\s+(.+)$")
# a pull request title that reports a defect
PR_BUG_TITLE = _rx(r"\bbugs?\b|\bbroken\b|\bwrong\b|\bincorrect(?:ly)?\b|\bshould (?:be|not)\b|"
                   r"\b(?:do|does|did)(?:n'?t| not) work\b|\bcrash\w*\b|\berrors?\b")
# a pull request that fixes a reported issue ("Fixes #530", "fix https://.../issues/530"); "Closes" is left
# out, as feature pull requests close their feature requests
FIXES_ISSUE = _rx(r"\bfix(?:es|ed)?:?\s+(?:#\d+|https?://github\.com/[\w.-]+/[\w.-]+/issues/\d+)")
PR_ADDS = _rx(r"\b(?:this|the) (?:pr|pull request|change|patch)\s+(?:\w+\s+){0,2}?(?:adds?|implements?|"
              r"introduces?|supports?|integrates?|enables?|brings?)\b|\bwe (?:add|implement|introduce)\b|"
              r"\bimplements?\b|\badd(?:s|ed)? (?:support|an? (?:new )?option)\b|\bnewly supported\b|"
              r"\busers can now\b")
PR_FIXES = _rx(r"\b(?:this|the) (?:pr|pull request|change|patch)\s+(?:\w+\s+){0,2}?(?:fix(?:es)?|corrects?|"
               r"resolves? (?:a|the) bug|updates? the doc|documents?|refactors?|removes?)\b")
ASK_SUPPORT = _rx(
    r"\b(?:please|pls|kindly)\s+(?:\w+\s+){0,2}?(?:add|support|implement|consider|include|integrate)\b|"
    r"\bwould (?:it |this )?be (?:great|nice|useful|good|helpful|awesome|valuable) (?:to|if)\b|"
    r"\b(?:any|have you|do you have|is there (?:a|any)|are there (?:any)?)\s+(?:\w+\s+)?"
    r"(?:plans?|timeline|eta|updates?|roadmap)\b|\bany chance\b|"
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
    r"是否(?:支持|考虑|会)|会支持|希望.{0,20}(?:支持|加入|添加|增加)|计划|考虑支持")
ASKS_IF_SUPPORTED = _rx(r"\b(?:does|do|is|are|will|can)\s+(?:(?!not\b)\w+\s+){0,3}?(?:support(?:s|ed)?)\b|"
                        r"支持.{0,20}[吗么？?]")
PROPOSAL_TEMPLATE = _rx(r"^#{1,6}\s*(?:feature request|method description|motivation|your contribution|"
                        r"open source status|proposal|describe the solution you'?d like)\b")
NEW_FEATURE_BOX = _rx(r"^\s*(?:[-*+]|\d+\.)\s*\[[xX]\]\s*(?:\*\*)?new feature")
BUGFIX_BOX = _rx(r"^\s*(?:[-*+]|\d+\.)\s*\[[xX]\]\s*(?:\*\*)?bug ?fix")
ALGORITHM_NOUN = _rx(r"\b(?:algorithms?|policy optimi[sz]ation|objective|surrogate|advantage estimator|"
                     r"(?:policy|new) loss|loss (?:type|function)|importance sampling|trust region)\b|算法")
ARXIV_REF = _rx(r"\b\d{4}\.\d{4,5}(?:v\d+)?\b|arxiv\.org/|huggingface\.co/papers/")

# --- training failures, by symptom ----------------------------------------------------------------
_METRIC = (r"(?:rewards?|returns?|scores?|acc(?:uracy)?|pass@\d+|loss(?:es)?|pg_loss|kl(?:_loss)?|entropy|"
           r"grad(?:ient)?[_ ]?norms?|gradients?|(?:response|completion)[_ ]lengths?|performance|"
           r"val(?:idation)?[_ /]\w+|eval\w*|win[_ ]rate|success[_ ]rate|log[_ ]?probs?|advantages?|"
           r"(?:value|critic) loss|metrics?|results?|numbers|奖励|准确率|精度|分数|得分|loss|reward|acc)")
NONFINITE = _rx(_L + r"(?:nan|nans)" + _R + r"|non-?finite|" + _L + r"-?inf(?:inity)?" + _R
                + r"(?=\s*(?:loss|grad|values?|in\b|$|[,.)]))|(?:=|:|is|are|becomes?|became|to)\s*-?inf" + _R
                + r"|gradient overflow|\boverflow(?:s|ed)? in\b")
COLLAPSE = _rx(r"\bcollaps\w*|" + r"(?<!kl )(?<!kl-)(?<!kullback-leibler )(?<!leibler )(?<!js )\bdiverg(?:e|es|ed|ing|ence)\b"
               r"|\bblow(?:s|ing)? up\b|\bblew up\b|\bexplod\w*|\bexplosion\b|崩|发散|训飞")
DEGENERATE = _rx(r"\bgibberish\b|\bgarbled?\b|\bnonsense\b|!{6,}|\bword salad\b|\brepetit\w*|"
                 r"\brepeat(?:s|ing|ed)? (?:itself|themselves|the same)\b|"
                 r"\b(?:empty|blank) (?:outputs?|responses?|completions?|generations?)\b|"
                 r"\brandom (?:tokens|characters|chars|text|emoji)\b|\bdegenerat\w*|乱码|复读|重复输出")
STALLS = _rx(
    _METRIC + r"[^.\n]{0,30}?(?:\bnot|n't|\bnever|\bno longer|fails? to|failed to|stops?|stopped|barely|hardly|doesn'?t|"
    r"does not|didn'?t|did not|won'?t)\s+(?:\w+\s+)?(?:increas|improv|ris(?:e|es|ing)|go(?:es|ing)? up|grow|learn|"
    r"converg|chang|mov|decreas|go(?:es|ing)? down)\w*|"
    r"(?:\bnot|n't|\bnever|\bno longer|\bfail(?:s|ed)? to|\bdoesn'?t|does not|didn'?t|did not)\s+(?:\w+\s+)?"
    r"(?:increas|improv|ris(?:e|es|ing)|go(?:es|ing)? up|grow)\w*[^.\n]{0,30}?" + _METRIC + r"|"
    r"(?:n't|\bnot|\bnever)\s+(?:the\s+)?" + _METRIC + r"\s+(?:\w+\s+)?(?:increas|improv|ris|go up|grow|converg)\w*|"
    r"\b(?:not|never|fails? to|failed to|unable to|does ?n[o']?t|did ?n[o']?t|won'?t|can ?not|can'?t)\s+"
    r"(?:\w+\s+)?(?:converg|learn)\w*|"
    r"\bno (?:further |noticeable |obvious |significant |clear |real )?(?:\w+ )?(?:improvement|progress|gains?|learning|increase|"
    r"change in (?:the )?(?:reward|loss|accuracy|score))\b|\bwithout (?:any )?(?:noticeable |obvious )?(?:improvement|increase)\b|"
    r"\bplateau\w*|\bstagnat\w*|\b(?:flat|stagnant) (?:reward|curve|line|loss)\b|"
    + _METRIC + r"[^.\n]{0,20}?\b(?:(?:is|are|stays?|remains?|looks?|keeps?|stuck)\s+(?:\w+\s+)?"
    r"(?:flat|constant|unchanged|the same)|(?:stays?|remains?|stuck|keeps?)\s+(?:at|around|near)\s+-?\d|"
    r"(?:is|are|was|were|stays?|remains?|keeps?)\s+(?:always|constantly|still)\s+(?:at\s+)?(?:-?\d+(?:\.\d+)?|zero)"
    + _R + r"|(?:is|are|was|were|becomes?|became|goes|went|turns?|drops? to|stays?|remains?)\s+(?:at\s+)?"
    r"(?:0(?:\.0+)?|zero)" + _R + r"|always (?:-?\d+(?:\.\d+)?|zero)" + _R + r")|"
    + _METRIC + r"\s*=\s*0(?:\.0+)?" + _R + r"|\bgrad(?:ient)?_?norm['\"]?\s*:\s*0(?:\.0+)?" + _R + r"|"
    r"不收敛|不上升|不下降|不增长|不涨|涨不上去|无收益|学习困难|难以学习|学不会|没有?(?:明显|显著)?的?(?:效果|提升|收益|变化|增长|上升)|训不动|学不到|"
    r"不再(?:增长|上升|提升|上涨|提高|变化)|一直(?:都)?(?:是|为)\s*-?\d|(?:为|是|变为|变成)\s*0(?![.\d])")
WORSENS = _rx(
    _METRIC + r"[^.\n]{0,25}?\b(?:drops?|dropped|dropping|decreas\w*|declin\w*|falls?|fell|falling|degrad\w*|"
    r"plummet\w*|deteriorat\w*|goes down|went down|going down|tank\w*|worse)\b|"
    r"\b(?:drops?|declines?|decreases?|degradation|falls?|regression|collapse) (?:in|of) (?:the )?(?:\w+ )?" + _METRIC + r"|"
    r"\b(?:performance|accuracy|quality) (?:degradation|drop|regression)\b|"
    r"\b(?:increase|rise|spike|surge|jump|explosion|blow-?up)s? (?:in|of) (?:the )?(?:entropy|loss|kl|grad(?:ient)?[_ ]?norm|"
    r"response length|perplexity)\b|"
    r"\b(?:loss(?:es)?|kl|grad(?:ient)?[_ ]?norms?|entropy|perplexity|ppl)\b[^.\n]{0,30}?\b(?:goes up|went up|"
    r"keeps? (?:rising|growing|increasing|going up))\b|"
    r"(?:奖励|reward|准确率|正确率|精度|acc\w*|分数|得分|效果|性能|指标|score)\S{0,8}?(?:下降|降低|变差|跳水|掉点|变低|下跌|越来越(?:低|差))|"
    r"越训越(?:差|低|短)")
UNSTABLE = _rx(r"\bunstable\b|\binstabilit\w*|\bspik(?:e|es|ed|ing|y)\b|\boscillat\w*|\bfluctuat\w*|"
               r"\bjumps? (?:to|up)\b|震荡|波动|不稳定|抖动|"
               # 3.7: a curve that varies more than it should
               r"\bvariability (?:in|of) (?:the )?(?:\w+ )?" + _METRIC + r"|" + _METRIC + r"s?\b[^.\n]{0,20}?\bnoisier\b")
WRONG_RESULTS = _rx(
    r"\b(?:can ?not|can'?t|unable to|fail(?:s|ed)? to|could ?n[o']?t|did ?n[o']?t)\s+(?:\w+\s+)?reproduc\w*|"
    r"\breproduc\w* (?:issue|problem|failure|gap)\b|"
    r"\b(?:can ?not|can'?t|unable to|fail(?:s|ed)? to|could ?n[o']?t)\s+(?:match|reach|achieve|get)\b[^.\n]{0,40}?"
    r"(?:reported|paper|expected|official|published|claimed|\d+(?:\.\d+)?%?)|"
    r"\b(?:lower|worse|below|less|much higher|much lower) than (?:the |what the )?(?:reported|paper|expected|"
    r"official|baseline|published|claimed|before|readme)\b|\b(?:much|significantly|far|way) worse\b|"
    r"\b(?:below|under) (?:the |what the )?(?:paper|reported|expected|official|published)\b|"
    r"\b(?:differ\w*|deviat\w*|gap) (?:\w+ ){0,2}from (?:the )?(?:paper|reported|official|expected|published)\b|"
    r"\b(?:mismatch\w*|discrepanc\w*|inconsisten\w*|gap|differen\w*) between (?:the )?(?:train\w*|rollout|"
    r"inference|vllm|sglang|megatron|fsdp|engines?)\b|"
    r"\b(?:train\w*|rollout|inference|infer)[-/ ](?:vs\.? |and )?(?:inference|rollout|train\w*|infer)\s+(?:\w+\s+)?"
    r"(?:mismatch|discrepanc\w*|differen\w*|gap)|"
    r"\blog[_ ]?probs?\w*\s+(?:\w+\s+)?(?:mismatch\w*|diff\w*|discrepanc\w*|error)|mismatch_kl|"
    r"token_mult_prob_error|\bdifferent (?:results|outputs|logprobs|log[_ ]probs|rewards|scores|accuracy)\b|"
    + _METRIC + r"[^.\n]{0,20}?\b(?:are|is|look|looks|seem|seems|became|become|goes|gets?)\s+(?:\w+\s+)?"
    r"(?:wrong|incorrect|off|weird|strange|abnormal\w*|suspicious|bad|poor|terrible|very low|huge|"
    r"very (?:large|high|big)|extremely (?:large|high|low)|too (?:large|high|low))\b|"
    r"\b(?:very|extremely|abnormally|unusually|too) (?:high|large|low|big|small) " + _METRIC + r"|"
    r"\b(?:abnormal|weird|strange|unusual|odd|unexpected|suspicious)\s+(?:training\s+|reward\s+|loss\s+)?"
    r"(?:curves?|behaviou?r|results?|loss|rewards?|training|values?|dynamics|metrics?)\b|"
    + _METRIC + r"s?\s+(?:is\s+)?abnormal|\breward hacking\b|"
    r"\bafter (?:\w+ ){0,3}(?:training|trained|fine-?tuning)\b[^.\n]{0,40}?\b(?:wrong|incorrect|worse|garbled|broken)\b|"
    r"\b(?:wrong|incorrect|worse|garbled|broken)\b[^.\n]{0,30}?\bafter (?:\w+ ){0,3}(?:training|trained|fine-?tuning)\b|"
    r"\b(?:low|poor|bad|worse) (?:performance|results?|accuracy|scores?|rewards?) after (?:\w+ ){0,2}"
    r"(?:training|trained|fine-?tuning|reinforcement learning|rl|grpo|ppo|dpo)\b|"
    r"异常|复现\S{0,10}(?:不一致|差|低|不了)|(?:无法|不能|没能|未能)复现|不一致|对不齐|对不上|差(?:距|别)(?:很|非常|较)?大|"
    r"效果(?:很|非常)?(?:差|不好)")
RUN_BREAKS = _rx(r"\bhang(?:s|ing|ed)?\b|\bhung\b|\bstuck (?:at|in|when|during|on|after)\b|\bdeadlock\w*|"
                 r"\bfreez(?:e|es|ing)\b|\bcrash(?:es|ed|ing)?\b|segmentation fault|\bsigkill\b|\bkilled\b|"
                 r"\bterminat\w* (?:unexpectedly|abnormally|without)|\bexit(?:s|ed)? (?:unexpectedly|abnormally)\b|"
                 r"nccl (?:error|timeout)|卡住|卡死|挂起|中断|意外退出")
OUT_OF_MEMORY = _rx(r"out of memory|\boom\b|显存不足|爆显存")
# version 3.2: the same symptoms in more phrasings (a metric x a direction x English and Chinese),
# written as an enumeration of how a training failure is told, not from any one repository
_RISERS = r"(?:loss(?:es)?|kl(?:[_ ]loss)?|kl divergence|entropy|grad(?:ient)?[_ ]?norms?|perplexity|ppl)"
DEGENERATE = _rx(DEGENERATE.pattern + r"|"
                 r"\b(?:outputs?|generat\w*|responses?|completions?|answers?|replies|text)\b[^.\n]{0,30}?"
                 r"\b(?:noise|garbage|nonsense|meaningless|random (?:tokens|words|characters|text))\b|"
                 r"\b(?:random|meaningless|garbage|nonsensical|corrupted|broken) (?:outputs?|responses?|completions?|"
                 r"answers?|text|generations?)\b|"
                 r"\b(?:same|identical) (?:outputs?|responses?|answers?|completions?)\b[^.\n]{0,30}?\b(?:for|to|regardless|"
                 r"no matter)\b|\bno matter what\b[^.\n]{0,40}?\bsame (?:output|response|answer)|"
                 r"\brepeated (?:outputs?|responses?|tokens|text|words|sentences|phrases|answers?)\b|"
                 r"\b(?:keeps?|kept|started|starts?) repeating\b|"
                 r"胡言乱语|乱回|乱答|乱说|胡说|答非所问|(?:输出|回答|回复)\S{0,6}?(?:乱码|异常|为空|空白|重复|一样|相同)")
STALLS = _rx(STALLS.pattern + r"|"
             + _METRIC + r"[^.\n]{0,30}?\bunable to\s+(?:\w+\s+)?(?:increas|improv|ris|grow|converg|decreas)\w*|"
             + _METRIC + r"[^.\n]{0,20}?\b(?:stays?|staying|stayed|remains?|remaining|remained|stuck|hovers?|hovering)\s+"
             r"(?:at|around|near|about)\s+-?\d|"
             r"\b(?:model|weights?|parameters?|policy)\b[^.\n]{0,20}?\b(?:not|n't|never)\s+(?:\w+\s+)?(?:updat|chang|learn)\w*|"
             r"(?:模型|参数|权重)\S{0,4}?(?:不更新|没有更新|没更新)|"
             r"(?:loss|reward|奖励|准确率|acc\w*|score|分数)\S{0,8}?(?:不变|没变|没有变化|一直不动)")
WORSENS = _rx(WORSENS.pattern + r"|"
              r"\b" + _RISERS + r"\b[^.\n]{0,30}?\b(?:increas\w*|grows?|grew|growing|rises?|rose|rising|jumps?|climbs?)\s+"
              r"(?:very |so |too )?(?:fast|rapidly|quickly|sharply|dramatically|significantly|a lot|steadily)\b|"
              r"\b(?:rapid|sharp|sudden|dramatic|steady|continuous) (?:increase|rise|growth|drop|decline|fall|decrease)\b|"
              r"\bsudden(?:ly)?\s+(?:\w+\s+){0,2}?(?:drops?|dropped|falls?|fell|declin\w*|collaps\w*|decreas\w*|becomes?|became)\b|"
              r"(?:loss|kl|熵|entropy|损失|grad_?norm|梯度)[^\n。，,.]{0,8}?(?:不断|一直|持续|突然|越来越|快速|迅速|急剧)"
              r"(?:上涨|上升|增大|变大|升高|增长|增加|爆炸|飙升|暴涨)|"
              r"(?:奖励|reward|准确率|正确率|acc\w*|分数|得分|score|效果|性能|指标)[^\n。，,.]{0,12}?"
              r"(?:下降|降低|变差|跳水|掉点|变低|下跌|变成负|变为负|为负)")
UNSTABLE = _rx(UNSTABLE.pattern + r"|突刺|尖峰|毛刺|跳变|剧烈(?:波动|变化)")
WRONG_RESULTS = _rx(WRONG_RESULTS.pattern + r"|"
                    r"\b(?:kl|kl divergence|entropy)\b[^.\n]{0,40}?\bnegative\b|(?:kl|熵|entropy)\S{0,10}?(?:为负|变负|负数|负值)|"
                    r"\b(?:abnormal|weird|strange|unusual|odd)\s+(?:model\s+)?(?:outputs?|responses?|generations?|completions?)\b|"
                    r"\b(?:lower|worse|below) than (?:yours|your (?:\w+ ){0,2}(?:results?|logs?|curves?|numbers?|scores?))\b|"
                    r"\bnot as (?:good|high) as (?:the |in the |what the )?(?:paper|reported|yours|official|published)\b|"
                    r"\b(?:trend|curves?|results?|scores?|metrics?|numbers?)\b[^.\n]{0,30}?\b(?:so |very |quite |completely )?"
                    r"different (?:from|than|to) (?:yours|your|the paper|the official|the reported|the published|"
                    r"the logs?|the expected)\b")
# version 3.4: a sudden fall and a shrinking length told in more words; "is my reward curve normal?" about a
# run of one's own is a question that tells of an abnormal result
WORSENS = _rx(WORSENS.pattern + r"|骤降|暴跌|断崖|后\S{0,3}掉点|掉点(?:严重|明显|很多)|"
              r"\b(?:length|lengths|thinking|think|reasoning|cot|responses?|outputs?|completions?)\b[^.\n]{0,40}?"
              r"\b(?:smaller and smaller|shorter and shorter|less and less|keeps? (?:getting )?(?:shorter|shrinking))\b|"
              r"(?:长度|思考|回复|输出|回答)\S{0,8}?(?:越来越短|不断(?:变短|减少|缩短)|持续(?:变短|减少|缩短))")
WRONG_RESULTS = _rx(WRONG_RESULTS.pattern + r"|"
                    r"\b(?:is|are)\s+(?:this|that|it|my|the|these|those)\s+(?:\w+\s+){0,3}?(?:curves?|rewards?|loss(?:es)?|"
                    r"entropy|kl|results?|metrics?|training)\s+(?:\w+\s+)?normal\b|"
                    r"(?:曲线|奖励|reward|loss|损失|熵|结果|训练)\S{0,12}?(?:是)?正常(?:现象)?(?:的)?[吗么]")
FAILURE_FAMILIES = {"nonfinite": NONFINITE, "collapse": COLLAPSE, "degenerate": DEGENERATE, "stalls": STALLS,
                    "worsens": WORSENS, "unstable": UNSTABLE, "wrong_results": WRONG_RESULTS,
                    "run_breaks": RUN_BREAKS}
# a setting at zero ("T=0", "temperature=0", "top_k=0") is configuration, not a metric that stalls at zero
SETTING_AT_ZERO = _rx(r"\b(?:t|temp|temperature|top[_-]?[pk]|min[_-]?p|seed|beta|dropout|warmup\w*|kl_coef\w*|"
                      r"entropy_coef\w*|lr|rank|local_rank|gpus?|cuda\w*|device\w*|n|k)\s*=\s*0(?:\.0+)?\s*$")
# DPO's absolute chosen/rejected rewards (and log-probs) may fall by design (only the margin has to grow):
# a text asking whether that fall is expected ("intuitively it should rise", "do yours decrease?") asks
# about the method's dynamics; one that reports the fall as its problem stays a failure report
DPO_SIDE = _rx(r"\bchosen\b|\brejected\b|chosen_|rejected_|/chosen|/rejected")
EXPECTED_DYNAMICS = _rx(r"\bexpected\b|\bintuitive\w*|\bshould (?:\w+ )?(?:increase|rise|go up|grow)\b|"
                        r"\bis (?:this|it|that) (?:normal|expected)\b|\b(?:do|does|did) (?:your|yours|the authors?')\b|"
                        r"\bunderstanding\b|\bmisunderstand\w*|是否正常|正常吗|符合预期")
# a reproduction gap about evaluating released models (pass@k, a benchmark score) with no training of
# one's own in the text is an evaluation question, not a training failure
EVALUATION = _rx(r"pass@(?:k|\d+)|\b(?:released|public|provided|official|open-?sourced?|your|downloaded)\s+(?:\w+\s+)?"
                 r"(?:checkpoints?|ckpts?|models?|weights)\b|(?:开源|公开|官方|提供)的?\S{0,4}?(?:模型|权重|checkpoint)")
OWN_TRAINING = _rx(r"\b(?:i|we)(?:'ve| have| had)?\s+(?:\w+\s+){0,2}?(?:train\w*|fine-?tun\w*|ran (?:the )?(?:training|rl|grpo|ppo))\b|"
                   r"\b(?:my|our)\s+(?:own\s+)?(?:training|runs?|rl|grpo|ppo)\b|\bafter (?:\w+ ){0,3}(?:training|trained|steps)\b|"
                   r"训练")
TRAINING_CONTEXT = _rx(r"\b(?:train\w*|rl|rlhf|rlvr|rollouts?|steps?|epochs?|wandb|curves?|fine-?tun\w*|grpo|ppo|"
                       r"run|runs|recipe|checkpoint)\b|训练")

# --- maintenance, trackers, defects, questions ----------------------------------------------------
TRACKER = _rx(r"(?<!on the )(?<!in the )(?<!on your )(?<!in your )\broad ?map\b|\brelease\b|\bpublish\w*|\bchangelog\b|"
              r"\btracker\b|\bmeta[- ]issue\b|\bmegathread\b|\bupdates? summary\b|"
              r"\bsync(?:hroni[sz]e)?\b[^.]{0,30}\b(?:v\d|version|release|upstream)|^\W*(?-i:v)\d+\.\d+|"
              r"(?<![\w.])(?-i:v)\d+\.\d+(?:\.\d+)?(?![\w.])")
MAINTENANCE_TAG = _rx(r"\[[^\]]*\b(?:docs?|documentation|ci|tests?|chore|misc|example|recipe)s?\b[^\]]*\]")
BUG_TEMPLATE = _rx(r"^#{1,6}\s*(?:reproduction|system info|expected behaviou?r|actual behaviou?r|bug description|"
                   r"steps to reproduce|describe the bug|to reproduce|information|logs?|environment)\b")
QUESTION_TEMPLATE = _rx(r"^#{1,6}\s*(?:your question|question(?: description)?|what i'?ve tried)\b")
ERROR = _rx(r"\btraceback\b|\b\w+error\b|\bexception\b|\berror\b|报错")
BUG = _rx(r"\bbugs?\b|\b(?:do|does|did)(?:n'?t| not) (?:seem to )?work\b|\bseems? (?:not|n'?t|don'?t|doesn'?t) (?:to )?work\b|\bincorrect(?:ly)?\b|\bwrong\b|\binconsisten\w*\b|\bmalfunction\w*\b|\bmismatch\w*\b|"
          r"\b(?:does ?n[o']?t|not) work\w*\b|\bbroken\b|\bshould (?:be|not)\b|\btypo\b|\bmistake\b|\bfails?\b|"
          r"\bfailed\b|\bunexpected\b|\bregression\b|\bnot (?:be )?supported\b|\bunsupported\b|"
          r"\bdo(?:es)?(?:n't| not) support\b|\bcan(?:not|'t)\b|\bunable to\b|不支持|漏洞|逻辑错误|报错")
QUESTION = _rx(r"\?\s*$|？\s*$|^(?:how|why|what|where|when|which|who|is|are|does|do|did|can|could|should|would)\b|"
               r"\[\s*question\s*\]|\bquestion\b|请问|问题|疑问|为什么|如何|怎么|[吗么呢]\s*[？?]?\s*$")
TITLE_TAG = re.compile(r"\[([^\]]{1,40})\]")

# --- method-like names ----------------------------------------------------------------------------
# arXiv ids, acronym-like and code names, qualified names and technique phrases, with the commit
# side's alias hygiene (no model, benchmark, framework or infrastructure name; an ordinary word only
# in a method context): ingestion/github/thread_methods.py
method_names = thread_methods.method_names


# --- a named training method: what a proposal in the study asks for or brings ---------------------
# A proposal asks for, or adds, a named RL training method (an algorithm, loss, objective, advantage or
# reward estimator from a paper). A feature ask about infrastructure (rollout, logging, trajectory
# formats, models, environments, backends) names none: it is not a proposal in the study's sense.
METHOD_WORDS = _rx(r"\b(?:algo(?:rithm)?s?|loss(?:es)?|(?:gae|value|decoupled) lambdas?|gae|bias[- ]variance|objectives?|surrogate|advantages?|estimators?|"
                   r"policy[- ]optimi[sz]ation|policy[- ]gradients?|preference optimi[sz]ation|"
                   r"reward shaping|importan(?:ce|t) (?:sampling|ratios?|weights?)|trust region|clip[- ]higher|"
                   r"(?:ratio |double[- ]sided )?clipping|(?:double[- ]sided|ratio|token[- ]level|sequence[- ]level) masking|"
                   r"(?:off[- ]policy|rollout) (?:correction|mitigation)|(?:scal|normali[sz])\w* (?:the )?(?:rewards?|advantages?)|"
                   r"(?:reward|advantage) (?:scaling|normali[sz]ation)|(?:kl|unbiased|biased) estimat\w*|"
                   r"entropy (?:bonus|regulari[sz]ation|loss)|"
                   r"(?:on|off)[- ]policy distillation|distillation (?:loss|objective|method)|"
                   r"kl (?:penalty|regulari[sz]ation|loss|coefficient))\b|算法|损失|优势函数|优势估计|蒸馏|目标函数")
# an extension point (a registry, hook, interface or custom slot for losses or estimators) is
# infrastructure: the method words beside it name no method
EXTENSION_POINT = _rx(r"\b(?:custom(?:i[sz]\w*)?|user[- ]defined|pluggable|configurable|plug-?ins?|register\w*|registry|registration|"
                      r"hooks?|interfaces?|apis?|decorators?|abstract(?:ion)?s?|base class(?:es)?|extensib\w*|"
                      r"modules?|scaffold\w*|skeleton|"
                      r"extension points?)\b|自定义|接口|注册")
# a conventional-commit type and scope ("feat(algorithm):") names a module, not a method
_COMMIT_TYPE = re.compile(r"^\w+(?:\([^)]*\))?!?:\s*")
# what an ask is for, before the preposition that opens its context ("Support min_p sampling | in GRPO")
_ASK_FILLER = _rx(r"^\s*(?:(?:the|a|an|new|native|official|more|full|optional|first[- ]class|built[- ]in|"
                  r"experimental|initial|basic|preliminary|beta|"
                  r"(?:an? )?(?:new )?options? (?:for|to)|(?:the )?(?:ability|possibility|way) to|use|using|"
                  r"support (?:for|of)?|for)\s+)*")
_ASK_CONTEXT = _rx(r"\s(?:in|into|for|within|inside|during|to|via|under)\s|中|里|时")
# an ask whose object is only a generic head ("support to", "implementation of", "option not to"):
# what follows the preposition is what is asked for
_GENERIC_HEAD = _rx(r"^(?:(?:an?|the|new|not|support|implementation|integration|options?|version|variant|mode|"
                    r"flags?|arguments?|parameters?|config(?:uration)?|ability|possibility|way|choice)\s*)*$")


def method_words(text: str) -> list[str]:
    """The training-method words of a text that stand away from an extension point."""
    out = []
    for m in METHOD_WORDS.finditer(text):
        around = text[max(0, m.start() - 40):m.end() + 20]
        if not EXTENSION_POINT.search(around):
            out.append(m.group(0))
    return out


def _names_method(text: str) -> bool:
    return bool(method_words(text) or [n for n in method_names(text) if not thread_methods.ARXIV_ID.fullmatch(n)])


def _bracketed_methods(title: str) -> list[str]:
    """Methods a title lists in brackets: the options it asks for ('pluggable estimator (RLOO, REINFORCE++)')."""
    options = " ".join(re.findall(r"\(([^()]*)\)", title))
    return [n for n in method_names(options) if not thread_methods.ARXIV_ID.fullmatch(n)] if options else []


def ask_object_and_context(core: str) -> tuple[str, str] | None:
    """(what a title's ask is for, led by its verb; the context after its preposition), or None
    without an ask: 'Support min_p sampling in GRPO rollout' -> ('Support min_p sampling', 'in GRPO rollout')."""
    subject = _COMMIT_TYPE.sub("", core)
    m = FEATURE_VERB.search(subject)
    if m is None:
        return None
    rest = _ASK_FILLER.sub("", subject[m.end():])
    verb = f"{m.group(0)} "
    split = _ASK_CONTEXT.search(f" {rest} ")
    if split is None:
        return verb + rest.strip(), ""
    cut = max(0, split.start())
    if _GENERIC_HEAD.match(rest[:cut].strip()):
        return verb + rest.strip(), ""
    return verb + rest[:cut].strip(), rest[cut:].strip()


def method_only_as_context(core: str) -> bool:
    """A title that asks for something that names no method, naming a method only as the place of
    the ask ('Support min_p sampling in GRPO rollout', 'Add multi-turn support for PPO')."""
    ask = ask_object_and_context(core)
    if ask is None or not ask[0].split(maxsplit=1)[1:] or _bracketed_methods(core):
        return False
    return not _names_method(ask[0]) and _names_method(ask[1])


# what a model, infrastructure or data ask is for (when its object names no method)
_INFRA_OBJECT = _rx(r"\b(?:models?|backends?|engines?|hardware|gpus?|npus?|tpus?|datasets?|benchmarks?|environments?|"
                    r"envs?|platforms?|simulators?|robots?|checkpoints?|tokenizers?|modalit(?:y|ies)|"
                    r"vllm|sglang|megatron|deepspeed|fsdp\d?|ray|docker|kubernetes|slurm)\b|模型|后端|数据集|环境")


def ask_for_model_or_infrastructure(core: str) -> bool:
    """A title that asks for a model, backend, dataset, environment or an extension point (a registry,
    hook or custom slot) and names no method in what it asks for: 'Support for ZedVLA models',
    'Add Megatron backend for ZZPO', 'Expose a hook for custom estimators'."""
    subject = _COMMIT_TYPE.sub("", core)
    ask = ask_object_and_context(core)
    wanted = ask[0] if ask else subject
    named = [n for n in method_names(wanted) if not thread_methods.ARXIV_ID.fullmatch(n)]
    if EXTENSION_POINT.search(subject) and not named and not _bracketed_methods(subject):
        return True
    if ask is None or _names_method(wanted):
        return False
    names = re.findall(r"[A-Za-z][\w.+-]*", wanted)
    return bool(_INFRA_OBJECT.search(wanted)) or any(thread_methods.is_model_or_infrastructure(n) for n in names
                                                     if re.search(r"[A-Z].*[A-Z]|\d", n))


# a model family, size or modality that an existing method is asked for
_MODEL_SCOPE = _rx(r"\b(?:for|on|with|in|to|of|using)\s+(?:the\s+)?(?:\w+[- ])?(?:multi-?modal|vision|visual|vlms?|vlas?|"
                   r"mllms?|lmms?|omni|image|video|audio|[a-z]*\d[\w.-]*-vl\w*|(?:qwen|llama|glm|internvl|llava|gemma|"
                   r"mistral|deepseek|phi|minicpm)[\w.-]*)|-(?:multi-?modal|vl|vision)\b|多模态|视觉|图像|视频")


def method_for_a_model(core: str) -> bool:
    """A title that asks for a method it names on a model or modality ('grpo for zed3-vl', 'ZZPO on
    multimodal models', '多模态模型的ZZPO'): the ask is for model coverage, not for the method."""
    subject = _COMMIT_TYPE.sub("", core)
    named = [n for n in method_names(subject) if not thread_methods.ARXIV_ID.fullmatch(n)]
    return bool(named) and bool(_MODEL_SCOPE.search(subject)) and not method_words(subject)


# a correction of the policy's probabilities, named without an acronym
_CORRECTION = _rx(r"\b(?:logp|log[- ]?probs?|importance|off[- ]policy|rollout) correction\b")


def _pull_request_title_names_method(subject: str) -> bool:
    """A method name, method words, an arXiv id, a correction or an acronym that is no model or
    infrastructure (TIS, MIS) in a pull request's title."""
    if ARXIV_REF.search(subject) or method_words(subject) or method_names(subject) or _CORRECTION.search(subject):
        return True
    return any(not thread_methods.is_model_or_infrastructure(a) for a in title_acronyms(subject))


_CAPS_RUN = re.compile(r"(?<![\w.-])[A-Z]{2,6}(?:[ \t]+[A-Z]{2,6})*(?![\w-])")
SHOUTED_WORD_ZIPF = 4.0  # do, not, fix, add, new, draft; method acronyms sit below (kl 3.2, tis 3.6)


def title_acronyms(subject: str) -> list[str]:
    """Acronyms of a title: words in capitals (TIS, MIS), not shouted words ("DO NOT MERGE", "FIX"): a
    run of capitals holding a common English word is shouting."""
    out = []
    for run in _CAPS_RUN.findall(subject):
        words = run.split()
        if not any(word_zipf(w.lower()) >= SHOUTED_WORD_ZIPF for w in words):
            out += words
    return out


def training_method_named(t: ThreadText) -> bool:
    """Whether the opening post names an RL training method: an arXiv reference, words of a training
    method (loss, objective, advantage, estimator, policy optimisation, distillation...) away from an
    extension point, a method name in the title (no model, benchmark or infrastructure name), or a
    method-shaped name (GRPO, RLOO, REINFORCE++) in the body. A title that asks for something else
    and names a method only as its context names none."""
    p = parts(t)
    if method_only_as_context(p.core) or ask_for_model_or_infrastructure(p.core) or method_for_a_model(p.core):
        return False
    subject = _COMMIT_TYPE.sub("", p.core)
    if t.kind == "pull_request":  # a pull request adding a method says so in its title
        return _pull_request_title_names_method(subject) or bool(ARXIV_REF.search(p.prose))
    text = f"{subject}\n{p.prose}"
    if ARXIV_REF.search(text) or method_words(text):
        return True
    if [n for n in method_names(subject) if not thread_methods.ARXIV_ID.fullmatch(n)]:
        return True
    return any(thread_methods.is_method_shaped(n) for n in method_names(p.prose))


def labels_match(labels: Iterable[str], pattern: str) -> str | None:
    for label in labels:
        if re.search(pattern, label, re.IGNORECASE):
            return label
    return None


FEATURE_LABEL = r"enhancement|feature|new (?:method|algorithm)|proposal"
BUG_LABEL = r"\bbug\b"
QUESTION_LABEL = r"question|help wanted|usage"


def headings(prose: str, pattern: re.Pattern[str]) -> re.Match[str] | None:
    for line in prose.splitlines():
        if m := pattern.match(line.strip()):
            return m
    return None


# a training log pasted as the body ("'loss': 0.23, 'rewards/chosen': -0.27"): a title naming a method over it
# reports a run, it asks for nothing
METRIC_LOG = _rx(r"['\"]?\b(?:loss|rewards?/\w+|grad_norm|learning_rate|epoch|kl|logps/\w+)['\"]?\s*[:=]\s*-?\d")
# an ask for writing about a method (an article, a post, a tutorial) rather than for the method
DOCS_ASK = _rx(r"\b(?:write|do|add|create|make|publish|cover|prepare)\s+(?:\w+\s+){0,2}?(?:articles?|blog(?: ?posts?)?|"
               r"posts?|tutorials?|notebooks?|chapters?|lessons?|explanations?|write-?ups?|guides?|videos?)\b")
# an ask to release the authors' artifacts (logs, checkpoints, weights, data, code) asks for no method
RELEASE_ASK = _rx(r"\b(?:releas\w*|shar\w*|open[- ]?sourc\w*|publish\w*|upload\w*)\s+(?:\w+\s+){0,3}?"
                  r"(?:logs?|wandb|curves?|checkpoints?|ckpts?|weights?|datasets?|data|code|scripts?)\b|"
                  r"\b(?:training )?(?:logs?|checkpoints?|weights?|code)\s+(?:\w+\s+){0,2}?(?:releas\w*|open[- ]?sourc\w*)|"
                  r"(?:公开|开源|放出|发布)\S{0,6}?(?:日志|权重|代码|数据|模型|曲线)")
# a pull request that moves an existing method onto another stack ("migration", "port to", "X-native")
MIGRATION = _rx(r"\bmigrat\w*|\bport(?:s|ed|ing)? (?:\w+ ){0,3}?(?:to|from|onto)\b|\b\w+-native\b|迁移")
# a version prefix before a description ("v0.50.1: Live loss kernels") names the line the change is in
VERSION_PREFIX = re.compile(r"^\W*v?\d+\.\d+(?:\.\d+)*\s*[:：\-–]\s+(?=\S+\s+\S+\s+\S+)")


_CJK = re.compile(r"[\u4e00-\u9fff]")


def says_more_in_chinese(core: str) -> bool:
    """A title with a Chinese sentence beside its method name ('ZZPO训练效率很低') says more than the name."""
    return len(_CJK.findall(core)) >= 3


def bare_method_title(core: str) -> bool:
    """A short title that is little more than a method's name ('DPO', 'Reinforce++ baseline')."""
    words = core.split()
    if says_more_in_chinese(core):
        return False
    return 0 < len(words) <= 2 and len(core) <= 40 and bool(method_names(core)) and not (
        BUG.search(core) or ERROR.search(core) or QUESTION.search(core) or failure_match(core))


# a symptom told of someone else's training: a question to the authors, a paper, its figures
SECOND_HAND = _rx(r"(?:^|[.?!]\s+|\n)\s*(?:did|does|has|will|would)\s+(?!i\b|we\b|not\b)[A-Z][\w-]*\s+(?:\w+\s+){0,2}?"
                  r"(?:meet|encounter|observe|see|experience|suffer|face|run into|have)\b|"
                  r"\bwonder(?:ing)? (?:if|whether)\b[^.?\n]{0,60}?\b(?:meet|met|encounter\w*|observ\w*|experienc\w*|suffer\w*)\b|"
                  r"\b(?:did|do|does|have|has|had|will|would) (?:you|the authors?|they|this (?:work|paper|method)) "
                  r"(?:\w+ ){0,2}?(?:meet|met|encounter\w*|observ\w*|see|seen|experienc\w*|suffer\w*|face|faced|run into)\b|"
                  r"\b(?:in|of) (?:the|your) (?:figure|fig\.?|table)\b|\bfig(?:ure|\.)\s*\d|图\s*\d|表\s*\d")
# the opener tells of a run of their own
FIRST_HAND = _rx(r"\b(?:i|we)(?:'ve|'m| have| had| am| are| was| were)?\s+(?:\w+\s+){0,2}?(?:train\w*|ran|run\w*|tried|"
                 r"try\w*|got|get\w*|observ\w*|see|saw|seen|met|meet|encounter\w*|notic\w*|found|find|used?|using|"
                 r"reproduc\w*|follow\w*|launch\w*|start\w*|fine-?tun\w*|experienc\w*|hit)\b|"
                 r"\b(?:my|our)\s+(?:\w+\s+){0,2}?(?:train\w*|runs?|experiments?|models?|rewards?|loss|results?|curves?|"
                 r"setup|jobs?|logs?|scripts?|config\w*|commands?|settings?)\b|"
                 r"(?:^|[.!?]\s+|\n)\s*when (?:i |we )?(?:run|running|train|training|use|using|launch\w*|fine-?tun\w*|"
                 r"try|trying)\b|\bwhen (?:i|we) (?:run|ran|train|trained|use|used|launch\w*|tr(?:y|ied))\b|"
                 r"\bhere (?:is|are) my\b|\b(?:a |the )?(?:similar|same) (?:issue|problem|situation|phenomenon|behaviou?r)\b|"
                 r"我们?(?:的|在)?\S{0,4}?(?:训练|跑|复现|实验|运行|使用|用|遇到|发现|尝试)")


# a paper's summary (a paper note, an abstract): its "we find" is the authors', not a run of the opener
PAPER_SUMMARY = _rx(r"\[paper(?: note| notes| reading)?\]|(?:^|\n)\s*#{1,6}\s*abstract\b|(?:^|\n)\s*abstract\s*[:：]|"
                    r"论文笔记|论文解读|论文分享")


def second_hand_only(text: str) -> bool:
    """A text that tells of a symptom only as someone else's (the paper's, the authors')."""
    return bool(PAPER_SUMMARY.search(text)) or bool(SECOND_HAND.search(text)) and not FIRST_HAND.search(text)


# a symptom said not to happen: "without empty responses", "no NaN", "does not collapse", "没有乱码"
# (within the clause: no punctuation or "but" between the negation and the symptom)
_NEGATED = _rx(r"(?:\bwithout|\bno|\bnot|n't|\bnever|\bnone of|\bfree of|\bnormal(?:ly)?|没有|无|未)"
               r"(?:\s+(?!but\b|and\b|then\b)[\w'/-]+){0,2}\s*$")


def failure_match(text: str, out_of_memory: bool = False) -> re.Match[str] | None:
    """The first training-failure symptom of a text that is not said not to happen (running out of
    memory alone is not one: a run that crashes or hangs because it ran out of memory is a setup
    defect, so `out_of_memory` leaves the crash family out)."""
    evaluation_only = bool(EVALUATION.search(text)) and not OWN_TRAINING.search(text)
    for name, pattern in FAILURE_FAMILIES.items():
        if out_of_memory and name == "run_breaks":
            continue
        if evaluation_only and name == "wrong_results":
            continue
        for m in pattern.finditer(text):
            if _NEGATED.search(text[max(0, m.start() - 30):m.start()]) or SETTING_AT_ZERO.search(m.group(0)):
                continue
            if DPO_SIDE.search(text[max(0, m.start() - 20):m.end()]) and EXPECTED_DYNAMICS.search(text):
                continue
            return m
    return None


@dataclass(frozen=True)
class Parts:
    title: str
    core: str
    prose: str
    code: str
    opening: str  # the first 600 characters of the prose: what the opener leads with
    raw_body: str
    labels: tuple[str, ...]
    kind: str


def parts(t: ThreadText) -> Parts:
    prose, code = prose_and_code(t.body or "")
    title = (t.title or "").strip()
    return Parts(title, core_title(title), prose, code, prose.strip()[:600], t.body or "", tuple(t.labels), t.kind)


def cue_features(t: ThreadText) -> dict[str, float]:
    """The cue families as 0/1 features, on the title and on the opening post apart (the same keys for
    every thread): what the rules and the learned combination read."""
    p = parts(t)
    f: dict[str, float] = {}

    def on(name: str, pattern: re.Pattern[str], title: bool = True, body: bool = True) -> None:
        if title:
            f[f"title_{name}"] = float(bool(pattern.search(p.title)))
        if body:
            f[f"body_{name}"] = float(bool(pattern.search(p.prose)))

    for name, pattern in FAILURE_FAMILIES.items():
        on(f"failure_{name}", pattern)
    on("out_of_memory", OUT_OF_MEMORY)
    on("training_context", TRAINING_CONTEXT)
    on("feature_tag", FEATURE_TAG, body=False)
    on("feature_verb", FEATURE_VERB)
    on("ask_support", ASK_SUPPORT)
    on("asks_if_supported", ASKS_IF_SUPPORTED)
    on("algorithm_noun", ALGORITHM_NOUN)
    on("arxiv_ref", ARXIV_REF)
    on("pr_adds", PR_ADDS, title=False)
    on("pr_fixes", PR_FIXES, title=False)
    on("maintenance", MAINTENANCE_ANY)
    on("maintenance_tag", MAINTENANCE_TAG, body=False)
    on("docs_content", DOCS_CONTENT, body=False)
    on("tracker", TRACKER)
    on("error", ERROR)
    on("bug", BUG)
    on("question", QUESTION)
    body_failures = sum(bool(pt.search(p.prose)) for pt in FAILURE_FAMILIES.values())
    f["body_failure_families_2plus"] = float(body_failures >= 2)
    f["opening_failure"] = float(failure_match(p.opening) is not None)
    f["opening_ask"] = float(bool(ASK_SUPPORT.search(p.opening) or PR_ADDS.search(p.opening)))
    f["code_failure"] = float(failure_match(p.code) is not None)
    f["title_method_name"] = float(bool(method_names(p.core)))
    f["body_method_name"] = float(bool(method_names(p.prose)))
    f["bare_method_title"] = float(bare_method_title(p.core))
    f["maintenance_start"] = float(bool(MAINTENANCE_START.match(p.core)))
    f["proposal_template"] = float(headings(p.prose, PROPOSAL_TEMPLATE) is not None)
    f["bug_template"] = float(headings(p.prose, BUG_TEMPLATE) is not None)
    f["question_template"] = float(headings(p.prose, QUESTION_TEMPLATE) is not None)
    f["new_feature_box"] = float(bool(NEW_FEATURE_BOX.search(p.raw_body)))
    f["bugfix_box"] = float(bool(BUGFIX_BOX.search(p.raw_body)))
    f["label_feature"] = float(labels_match(p.labels, FEATURE_LABEL) is not None)
    f["label_bug"] = float(labels_match((*p.labels, *TITLE_TAG.findall(p.title)), BUG_LABEL) is not None)
    f["label_question"] = float(labels_match(p.labels, QUESTION_LABEL) is not None)
    f["pull_request"] = float(t.kind == "pull_request")
    f["empty_body"] = float(not p.prose.strip())
    f["training_method_named"] = float(training_method_named(t))
    f["told_by_others"] = float(second_hand_only(f"{p.title}\n{p.prose}"))
    return f
