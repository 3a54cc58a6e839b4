"""Training methods a thread names: arXiv ids, acronyms and code names, qualified names and the
technique phrases of RL post-training, with the alias hygiene of the commit side
(dbt `int_methods__aliases`), so that a proposal is tied to a method and not to a model, a
benchmark, a framework or an ordinary word:
- a model name is no method: model families and modalities (Qwen, LLaVA, VLA, VLM, LLM) and any
  name that ends in a version or a size (GLM-5, DeepSeek-V3.2, FSDP2, AIME24);
- a benchmark, environment, app or project name is no method (VLA-Arena, X-Bench, X-Gym, Search-R1),
  nor a setting name of one word plus RL (SWE-RL, Logic-RL);
- a framework or infrastructure name is no method (TRL, verl, vLLM, Megatron, CUDA);
- an ordinary English word (Zipf frequency >= 3.0, as the commit side reads it: CHORD, MIX, TIS,
  KL, NOTE) counts only in a method context: a method noun beside it ("CHORD algorithm", "TIS
  correction"), an ask right before it ("support TIS"), or a definition ("Truncated Importance
  Sampling (TIS)"). A method-shaped name (...PO, ...O, ++, REINFORCE) or a catalogued one counts
  anywhere.
Names are returned in order of appearance, arXiv ids without their version.
"""

from __future__ import annotations

import csv
import re
from functools import lru_cache
from pathlib import Path

from ingestion import config
from ingestion.text import method_token, word_zipf

ORDINARY_WORD_ZIPF = 3.0  # dbt var ordinary_word_zipf
_SEEDS = config.FRAMEWORKS_SEED.parent

ARXIV_ID = re.compile(r"(?<![\d.])(\d{4}\.\d{4,5})(?:v\d+)?(?![\d])")
# an acronym-like token (GRPO, REINFORCE++, SimPO, GSPO-token, M2PO), the acronym of a class name
# (GRPOTrainer), or a lower-case "...po" name (zzpo_trainer, loss_type="dr_zzpo")
_ACRONYM = re.compile(r"(?<![\w.-])[A-Z]{2,}\d*(?=[A-Z][a-z]{2,})|"
                      r"(?<![\w.-])(?:[A-Z][a-z]*){0,2}[A-Z]{2,}[a-z]*\d*(?:-[A-Za-z0-9]+)?(?:\+\+)?(?![\w/])|"
                      r"(?<![\w.-])[A-Za-z][\w-]*\+\+|(?<![\w.-])[a-z]{1,6}po\b|"
                      r"(?<![\w.-])[A-Z]+\d+[A-Z]*PO(?![\w/])", re.ASCII)
# a qualifier that makes another method of a base one: Dr. GRPO, online DPO, dual-clip PPO, PPO Lite
_QUALIFIED = re.compile(r"\b(?:Dr\.?\s?|(?i:online|offline|iterative|decoupled|dual[- ]clip|async(?:hronous)?|"
                        r"multi[- ]turn|token[- ]level|sequence[- ]level|seq[- ]mask)[- ])"
                        r"[A-Z]{2,}[A-Za-z]*(?:\+\+)?(?![\w])|\b[A-Z]{2,}PO[- ]Lite\b")
# technique phrases of RL post-training that name a method without an acronym
_TECHNIQUES = re.compile(
    r"\b(?:on[- ]policy distillation|off[- ]policy distillation|self[- ]distillation|"
    r"(?:truncated|masked|rollout|sequence[- ]level|token[- ]level) importance sampling|importance sampling|"
    r"dynamic sampling|clip[- ]higher|overlong (?:reward shaping|filtering|punishment)|soft overlong punishment|"
    r"entropy (?:regulari[sz]ation|bonus)|decoupled gae|length[- ]adaptive gae|kl[- ]cov|clip[- ]cov|"
    r"group relative policy optimi[sz]ation|direct preference optimi[sz]ation|proximal policy optimi[sz]ation|"
    r"rejection sampling fine[- ]tuning|reward shaping|process reward|best[- ]of[- ]n)\b", re.IGNORECASE)

_NOT_A_METHOD = re.compile(
    r"^(?:gpus?|cpus?|cuda|nccl|oom|apis?|llms?|vlms?|mllms?|lmms?|vlas?|vl|rl|rlhf|rlvr|rlaif|sft|fsdp\d?|vllm|"
    r"sglang|hf|prs?|readme|ci|moe|tp|pp|dp|ep|cp|sp|fp\d+|bf16|nan|inf|json|yaml|cli|gpt\w*|qwen\w*|llama\w*|"
    r"deepseek\w*|ids?|url|http\w*|ray|kv|lora|qlora|peft|rm|ppo[-_]?trainer|todo|faq|rfc|eta|wip|bug|docs?|"
    r"ui|io|os|mac|linux|amd|nvidia|npus?|tpus?|a100|h100|h800|h20|repo|typo|swe(?:-\w+)?|mcp|sdk|gui|rpc|grpc|"
    r"wandb|mlx|jax|xla|onnx|rocm|megatron\w*|deepspeed|nemo|aime\d*|gsm8k|math\d*|mmlu\w*|trl|verl|openrlhf|"
    r"roll|skyrl|slime|areal|unsloth|swift|easyr1|tinker|vram|ram|ssh|gcc|pip|uv|api|md|pdf|png|jpg|"
    r"oss|mit|ok|cot|qa|nlp|ml|ai|agi|llava\w*|internvl\w*|glm\w*|mistral\w*|gemma\w*|phi\w*|kimi\w*)$",
    re.IGNORECASE)
# a model family or modality inside a longer name (UniVLA, StarVLA, OpenVLA, MiniCPM-V)
_MODEL_PART = re.compile(r"vla|vlm|llm|lmm|llava|qwen|llama|intern|gr00t|(?:^|[-_])(?:vl|omni|instruct|chat|base)$|"
                         r"(?:^|[-_])\d+(?:\.\d+)?[bm](?:[-_]|$)", re.IGNORECASE)
# a version or a size at the end: a model, a backend release, a benchmark year
_VERSIONED = re.compile(r"(?:\d(?:\.\d+)*[a-z]?|[-_.]v\d+(?:\.\d+)*|\d+[bmk])$", re.IGNORECASE)
# a benchmark, environment, app or project name, or one word plus RL (a setting)
_PROJECT = re.compile(r"(?:arena|bench|gym|envs?|eval|hub|studio|kit|cli|sdk|engine|[-_]r1)$|^[A-Za-z]+[-_]RL$",
                      re.IGNORECASE)
_METHOD_SHAPE = re.compile(r"(?:PO|O)(?:-\w+)?$|\+\+$|^REINFORCE|^ReMax")
# a suffix that qualifies a name without naming another method
_GENERIC_SUFFIX = re.compile(r"-(?:style|like|based|compatible|trained|inspired|only|exp|ish|type|variant|specific)$",
                             re.IGNORECASE)
# names in a list: "TIS & MIS", "PPO/GRPO", "PPO, SPIN and REINFORCE"
_LISTED = re.compile(r"\s*(?:&|/|,|\band\b|\bor\b|、|和|与)\s*")
# a CamelCase name of two humps (IcePop): a method's name or a code identifier, so only in a method context
_SPACED_PLUS_PLUS = re.compile(r"(?<=\w)(\w)[ \t]+\+\+(?![\w+])")
_CAMEL = re.compile(r"(?<![\w.-])[A-Z][a-z]+[A-Z][a-z]+(?![\w/])")
# a method noun beside a name, or an ask right before it: the name is meant as a method
_CONTEXT_AFTER = re.compile(r"^\W{0,3}(?:\w+[- ]){0,1}(?:algorithms?|loss(?:es)?|objectives?|estimators?|trainers?|"
                            r"corrections?|regulari[sz]ation|advantages?|methods?|policy optimi[sz]ation|"
                            r"clipping|masking|weights?|ratios?|算法|损失)\b", re.IGNORECASE)
_CONTEXT_BEFORE = re.compile(r"(?:\b(?:add(?:s|ed|ing)?|support(?:s|ed|ing)?(?: for)?|implement(?:s|ed|ing)?|"
                             r"integrat(?:e|es|ed|ing)|introduc(?:e|es|ed|ing)|algorithms?|loss(?:es)?|"
                             r"estimators?|method)\s+(?:the |a |an |of )?|支持|加入|添加|引入|实现)$", re.IGNORECASE)


@lru_cache(maxsize=1)
def _catalogue() -> frozenset[str]:
    """Curated method aliases (acronyms and code tokens)."""
    names: set[str] = set()
    path = _SEEDS / "method_catalogue.csv"
    if path.exists():
        with path.open(newline="", encoding="utf-8") as fh:
            names |= {method_token(r["alias"]) for r in csv.DictReader(fh) if r["alias_kind"] in ("acronym", "code_token")}
    return frozenset(names)


@lru_cache(maxsize=4)
def _framework_names(registry: Path) -> frozenset[str]:
    """The tracked frameworks' ids and display names (the registry a refresh reads, frameworks users added
    included)."""
    return frozenset(method_token(name) for f in config.frameworks(registry)
                     for name in (f.framework_id, f.display_name))


def is_model_or_infrastructure(name: str) -> bool:
    """A model, modality, benchmark, project, framework or infrastructure name: never a method."""
    bare = name.strip("+").strip()
    if _NOT_A_METHOD.match(bare) or method_token(bare) in _framework_names(config.frameworks_csv()):
        return True
    if method_token(bare) in _catalogue():
        return False
    return bool(_MODEL_PART.search(bare) or _VERSIONED.search(bare) or _PROJECT.search(bare))


def is_ordinary_word(name: str) -> bool:
    """A name whose word is common English: it names a method only in a method context."""
    bare = name.strip("+")
    if method_token(name) in _catalogue() or _METHOD_SHAPE.search(name) and len(bare) >= 3:
        return False
    return word_zipf(method_token(bare)) >= ORDINARY_WORD_ZIPF


def in_method_context(text: str, start: int, end: int) -> bool:
    """A method noun right after the name, an ask or a method noun right before it, or the name
    defined by the initials of the words before it ("Truncated Importance Sampling (TIS)")."""
    if _CONTEXT_AFTER.match(text[end:end + 40]) or _CONTEXT_BEFORE.search(text[max(0, start - 30):start]):
        return True
    before = text[max(0, start - 80):start]
    if before.rstrip().endswith("("):
        words = re.findall(r"[A-Za-z]+", before)
        name = re.sub(r"[^A-Za-z]", "", text[start:end]).upper()
        initials = "".join(w[0] for w in words[-len(name):]).upper()
        return bool(name) and initials == name
    return False


def method_names(text: str) -> list[str]:
    """Method names in a text, in order of first appearance: arXiv ids (without version), qualified
    names (Dr. GRPO, online DPO), acronym-like names and code names (GRPO, REINFORCE++, GSPO-token,
    the GRPO of GRPOTrainer, zzpo of zzpo_trainer) and technique phrases (on-policy distillation),
    with the alias hygiene of the module docstring."""
    hits: list[tuple[int, str]] = [(m.start(), m.group(1)) for m in ARXIV_ID.finditer(text)]
    taken: list[tuple[int, int]] = []
    for m in _QUALIFIED.finditer(text):
        base = m.group(0).split()[-1].split("-")[-1]
        if not is_model_or_infrastructure(base):
            hits.append((m.start(), " ".join(m.group(0).split())))
            taken.append(m.span())
    for m in _TECHNIQUES.finditer(text):
        hits.append((m.start(), m.group(0)))
    # identifiers name methods too (loss_type="zzpo", zzpo_trainer); "Reinforce ++" is REINFORCE++
    words = _SPACED_PLUS_PLUS.sub(r"\1++", text.replace("_", " "))
    pending: list[tuple[int, int, str]] = []
    for m in [*_ACRONYM.finditer(words), *_CAMEL.finditer(words)]:
        if any(a <= m.start() < b for a, b in taken):
            continue
        name = _GENERIC_SUFFIX.sub("", m.group(0))  # GRPO-style, ScaleRL-inspired: the name itself
        if is_model_or_infrastructure(name):
            continue
        needs_context = is_ordinary_word(name) or m.re is _CAMEL
        if needs_context and not in_method_context(words, m.start(), m.end()):
            pending.append((m.start(), m.start() + len(name), name))
            continue
        hits.append((m.start(), name))
    # a name listed beside an accepted one ("TIS & MIS", "PPO, SPIN") is in a method context too
    accepted = sorted(h[0] for h in hits)
    for start, end, name in pending:
        near = [a for a in accepted if abs(a - start) <= 24]
        if near and _LISTED.search(words[min(start, near[0]):max(end, near[0] + 1)]):
            hits.append((start, name))
    return [name for _, name in sorted(hits, key=lambda h: h[0])]


def is_method_shaped(name: str) -> bool:
    """GRPO, SimPO, RLOO, REINFORCE++, GSPO-token: the shape of a training method's acronym."""
    return bool(_METHOD_SHAPE.search(name)) and not is_model_or_infrastructure(name)
