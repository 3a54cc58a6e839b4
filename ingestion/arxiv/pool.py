"""The study's candidate pool: papers of the harvested categories whose title or abstract names
an RL term AND a language-model term.

One boolean query, written once as data (`RL_TERMS`, `LM_TERMS`) and used two ways:
- `POOL_QUERY` in arXiv's search syntax, AND-ed to the category and date-window terms of the live
  harvest (`ingestion/arxiv/source.py`), so only the pool is fetched and screened;
- `in_pool(title, abstract)`, the same query evaluated locally the way arXiv's index matches a
  phrase (case-insensitive word sequences; hyphens and punctuation split words), for OAI-PMH
  back-fills (which cannot filter by text), the fake arXiv server and the offline recall check
  (`scripts/screening_metrics.py`).
Terms are whole words or phrases, singular and plural spelled out (the index does not stem them).
"""

from __future__ import annotations

import re
from functools import lru_cache

# reinforcement learning as the post-training of language models names it; the last line holds the
# settings RL post-training works in (agents, environments, reasoning models): benchmarks, datasets
# and agent papers of the study often never name RL itself (recall 0.93 -> 0.98 on the dev labels)
RL_TERMS = (
    "reinforcement learning", "RL", "RLHF", "RLVR", "RLAIF", "reinforce",
    "policy optimization", "policy optimisation", "policy gradient", "policy gradients",
    "reward", "rewards", "reward model", "reward models", "reward modeling",
    "PPO", "GRPO", "DPO", "RLOO", "preference optimization", "preference optimisation",
    "actor critic", "rollout", "rollouts", "on-policy", "off-policy",
    "agent", "agents", "agentic", "environment", "environments", "reasoning model", "reasoning models",
)
# language models, including the reasoning and multimodal models RL post-trains; the last line
# holds RL terms that only exist for language models (they satisfy both halves)
LM_TERMS = (
    "language model", "language models", "LLM", "LLMs", "LM", "LMs", "MLLM", "MLLMs",
    "VLM", "VLMs", "vision-language", "vision language", "multimodal model", "multimodal models",
    "reasoning model", "reasoning models", "reasoning", "chain-of-thought", "post-training",
    "alignment", "instruction tuning", "chatbot", "agentic", "code generation", "code reasoning",
    "RLHF", "RLVR", "RLAIF", "GRPO", "DPO", "verifiable reward", "verifiable rewards",
)
FIELDS = ("ti", "abs")


_WORD = re.compile(r"[^\W_]+")


def _words(text: str) -> list[str]:
    return [w.lower() for w in _WORD.findall(text)]


def _arxiv_phrase(term: str) -> str:
    words = _words(term)
    return words[0] if len(words) == 1 else '"' + " ".join(words) + '"'


def _group(terms: tuple[str, ...]) -> str:
    return "(" + " OR ".join(f"{f}:{_arxiv_phrase(t)}" for t in terms for f in FIELDS) + ")"


POOL_QUERY = f"{_group(RL_TERMS)} AND {_group(LM_TERMS)}"

@lru_cache(maxsize=None)
def _phrase_rx(term: str) -> re.Pattern[str]:
    return re.compile(r"(?:^| )" + re.escape(" ".join(_words(term))) + r"(?= |$)")


def phrase_in(term: str, text: str) -> bool:
    """Does `text` contain `term` as a whole word sequence, as arXiv's index matches it?"""
    return bool(_phrase_rx(term).search(" ".join(_words(text))))


def matching_terms(terms: tuple[str, ...], title: str, abstract: str) -> list[str]:
    """The terms found in the title or in the abstract (each field matched on its own)."""
    fields = [" ".join(_words(title)), " ".join(_words(abstract))]
    return [t for t in terms if any(_phrase_rx(t).search(f) for f in fields)]


def in_pool(title: str, abstract: str) -> bool:
    """POOL_QUERY evaluated on one paper's title and abstract."""
    return bool(matching_terms(RL_TERMS, title, abstract)) and bool(matching_terms(LM_TERMS, title, abstract))
