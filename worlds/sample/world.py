"""The bundled sample world: one seeded, deterministic description of papers,
framework commits, GitHub threads and technical reports.

Every sample source (Atom pages, GitHub JSON pages, git repositories, report
text) is rendered from this module, so the facts the end-to-end tests assert
(who adopted what, when) are stated once, here.

Real methods keep their real arXiv ids, titles and dates (facts); every
abstract, message and body is written for this sample. Synthetic papers use
made-up acronyms and ids in the 9xxxx number range.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta, timezone
from functools import lru_cache

SEED = 20250101
# Sample frameworks (ids from dbt_project/seeds/frameworks.csv).
SAMPLE_FRAMEWORKS = ("trl", "verl", "openrlhf", "slime")
# Last day of recorded history in the sample world.
OBSERVATION_END = date(2026, 9, 30)
WINDOW_START = date(2025, 1, 1)
WINDOW_END = date(2026, 6, 30)

PAPER_KINDS = (
    "general_method",
    "application",
    "benchmark",
    "dataset",
    "survey",
    "analysis",
    "not_rl",
)


@dataclass(frozen=True)
class Paper:
    arxiv_id: str
    versions: int
    title: str
    abstract: str
    authors: tuple[tuple[str, str | None], ...]  # (name, affiliation)
    primary_category: str
    categories: tuple[str, ...]
    published: datetime
    updated: datetime
    comment: str | None
    journal_ref: str | None
    doi: str | None
    # Ground truth, used by tests and the metrics script; never ingested.
    kind: str
    method: str | None = None  # acronym the paper defines
    policy_size_b: float | None = None
    changes_loss: bool = False
    releases_code: bool = False
    maintainer_of: str | None = None


@dataclass(frozen=True)
class Adoption:
    """A commit on a framework's default branch that brings a method in."""

    framework: str
    arxiv_id: str
    committed_at: datetime
    path: str
    added_lines: tuple[str, ...]
    message: str
    evidence: str  # arxiv_id | alias | docs (what the commit carries)


@dataclass(frozen=True)
class Comment:
    author: str
    association: str  # OWNER | MEMBER | COLLABORATOR | CONTRIBUTOR | NONE
    created_at: datetime
    body: str


@dataclass(frozen=True)
class Thread:
    framework: str
    number: int
    kind: str  # issue | pull_request
    title: str
    body: str
    author: str
    association: str
    created_at: datetime
    state: str  # open | closed
    state_reason: str | None  # completed | not_planned | None
    closed_at: datetime | None
    merged_at: datetime | None
    labels: tuple[str, ...]
    comments: tuple[Comment, ...] = ()


@dataclass(frozen=True)
class Report:
    model: str
    arxiv_id: str
    params_total_b: float
    params_active_b: float | None
    released_at: date
    methods: tuple[str, ...]  # method names the report states


@dataclass(frozen=True)
class World:
    papers: tuple[Paper, ...]
    adoptions: tuple[Adoption, ...]
    threads: tuple[Thread, ...]
    reports: tuple[Report, ...]
    # Commits that must NOT create adoption links (deleted lines, branches, collisions).
    decoys: tuple[Adoption, ...] = field(default=())


def _dt(day: str, hour: int = 12) -> datetime:
    return datetime.fromisoformat(day).replace(hour=hour, tzinfo=timezone.utc)


# --- real methods (facts: id, title, first-version date) ------------------------------------
# (arxiv_id, title, published, versions, method, size_b, changes_loss, code, maintainer_of, affiliation)
REAL_METHODS = (
    ("2501.03262", "REINFORCE++: A Simple and Efficient Approach for Aligning Large Language Models",
     "2025-01-04", 4, "REINFORCE++", 8.0, False, True, "openrlhf", "OpenRLHF"),
    ("2503.14476", "DAPO: An Open-Source LLM Reinforcement Learning System at Scale",
     "2025-03-18", 2, "DAPO", 32.0, True, True, "verl", "ByteDance Seed"),
    ("2503.20783", "Understanding R1-Zero-Like Training: A Critical Perspective",
     "2025-03-26", 2, "Dr. GRPO", 7.0, True, True, None, "Sea AI Lab"),
    ("2504.05118", "VAPO: Efficient and Reliable Reinforcement Learning for Advanced Reasoning Tasks",
     "2025-04-07", 3, "VAPO", 32.0, False, False, "verl", "ByteDance Seed"),
    ("2504.02546", "GPG: A Simple and Strong Reinforcement Learning Baseline for Model Reasoning",
     "2025-04-03", 2, "GPG", 7.0, True, True, None, "AMAP, Alibaba Group"),
    ("2505.22617", "The Entropy Mechanism of Reinforcement Learning for Reasoning Language Models",
     "2025-05-28", 1, "Clip-Cov", 32.0, True, True, None, "Shanghai AI Laboratory"),
    ("2506.01939", "Beyond the 80/20 Rule: High-Entropy Minority Tokens Drive Effective Reinforcement Learning for LLM Reasoning",
     "2025-06-02", 1, None, 32.0, True, False, None, "Qwen Team, Alibaba Inc."),
    ("2506.13585", "MiniMax-M1: Scaling Test-Time Compute Efficiently with Lightning Attention",
     "2025-06-16", 1, "CISPO", 456.0, True, True, None, "MiniMax"),
    ("2507.18071", "Group Sequence Policy Optimization",
     "2025-07-24", 2, "GSPO", 235.0, True, False, None, "Qwen Team, Alibaba Inc."),
    ("2507.20673", "Geometric-Mean Policy Optimization",
     "2025-07-27", 2, "GMPO", 7.0, True, True, None, "Microsoft Research"),
    ("2505.24864", "ProRL: Prolonged Reinforcement Learning Expands Reasoning Boundaries in Large Language Models",
     "2025-05-30", 1, "ProRL", 1.5, False, True, "nemo_rl", "NVIDIA"),
)

# Adoption commits of real methods: (framework, arxiv_id, day, path, evidence)
REAL_ADOPTIONS = (
    ("openrlhf", "2501.03262", "2025-01-09", "openrlhf/trainer/ppo_utils/advantages.py", "arxiv_id"),
    ("verl", "2501.03262", "2025-02-20", "verl/trainer/ppo/core_algos.py", "alias"),
    ("verl", "2503.14476", "2025-03-20", "recipe/dapo/dapo_ray_trainer.py", "arxiv_id"),
    ("trl", "2503.14476", "2025-05-02", "trl/trainer/grpo_config.py", "alias"),
    ("openrlhf", "2503.14476", "2025-04-15", "openrlhf/models/loss.py", "alias"),
    ("trl", "2503.20783", "2025-04-01", "trl/trainer/grpo_trainer.py", "alias"),
    ("verl", "2503.20783", "2025-04-01", "verl/trainer/ppo/core_algos.py", "docs"),
    ("verl", "2505.22617", "2025-06-10", "verl/trainer/ppo/core_algos.py", "arxiv_id"),
    ("verl", "2506.13585", "2025-07-30", "verl/trainer/ppo/core_algos.py", "alias"),
    ("slime", "2506.13585", "2025-09-02", "slime/backends/megatron_utils/loss.py", "alias"),
    ("trl", "2506.13585", "2025-10-20", "trl/trainer/grpo_trainer.py", "alias"),
    ("trl", "2507.18071", "2025-07-29", "trl/trainer/grpo_trainer.py", "arxiv_id"),
    ("verl", "2507.18071", "2025-08-01", "verl/trainer/ppo/core_algos.py", "alias"),
    ("slime", "2507.18071", "2025-08-15", "slime/backends/megatron_utils/loss.py", "alias"),
    ("openrlhf", "2507.18071", "2025-09-10", "openrlhf/models/loss.py", "alias"),
    ("verl", "2507.20673", "2026-02-23", "verl/trainer/ppo/core_algos.py", "alias"),
)

# Code token each method is named by in framework code (normalised identifier form).
METHOD_TOKENS = {
    "REINFORCE++": "reinforce_plus_plus",
    "DAPO": "dapo",
    "Dr. GRPO": "dr_grpo",
    "VAPO": "vapo",
    "GPG": "gpg",
    "Clip-Cov": "clip_cov",
    "CISPO": "cispo",
    "GSPO": "gspo",
    "GMPO": "gmpo",
    "ProRL": "prorl",
}

REPORTS = (
    Report("DeepSeek-R1", "2501.12948", 671.0, 37.0, date(2025, 1, 22), ("GRPO",)),
    Report("Seed1.5-Thinking", "2504.13914", 200.0, 20.0, date(2025, 4, 10), ("PPO", "VAPO", "DAPO")),
    Report("Llama-Nemotron", "2505.00949", 253.0, None, date(2025, 5, 2), ("GRPO", "RLOO")),
    Report("INTELLECT-2", "2505.07291", 32.0, None, date(2025, 5, 12), ("GRPO",)),
    Report("Qwen3", "2505.09388", 235.0, 22.0, date(2025, 5, 14), ("GRPO",)),
    Report("Skywork-OR1", "2505.22312", 32.0, None, date(2025, 5, 29), ("GRPO", "DAPO")),
    Report("MiniMax-M1", "2506.13585", 456.0, 45.9, date(2025, 6, 16), ("CISPO", "GRPO", "DAPO")),
    Report("Magistral", "2506.10910", 24.0, None, date(2025, 6, 12), ("GRPO", "DAPO", "Dr. GRPO")),
    Report("Kimi K2", "2507.20534", 1040.0, 32.0, date(2025, 7, 28), ("PPO",)),
    Report("GLM-4.5", "2508.06471", 355.0, 32.0, date(2025, 8, 8), ("GRPO", "DAPO")),
    Report("Qwen3-Next", "2509.90001", 80.0, 3.0, date(2025, 9, 10), ("GSPO",)),
    Report("Ring-1T", "2510.90002", 1000.0, 50.0, date(2025, 10, 14), ("GSPO", "CISPO")),
    Report("DeepSeek-V3.2", "2512.02556", 671.0, 37.0, date(2025, 12, 2), ("GRPO", "REINFORCE++")),
)

_FIRST = ["Wei", "Lena", "Arjun", "Mina", "Tomas", "Yuki", "Sara", "Chen", "Omar", "Ines",
          "Pavel", "Hana", "Diego", "Ravi", "Lucia", "Jun", "Amara", "Felix", "Noor", "Kai"]
_LAST = ["Zhang", "Novak", "Iyer", "Park", "Silva", "Tanaka", "Berg", "Liu", "Haddad", "Moreau",
         "Kowalski", "Sato", "Rojas", "Nair", "Conti", "Wang", "Okafor", "Braun", "Rahman", "Li"]
_AFFILS = ["Tsinghua University", "Stanford University", "ETH Zurich", "Peking University",
           "University of Toronto", "KAIST", "Shanghai AI Laboratory", "Mila", None, None]
_GOALS = ["Mathematical Reasoning", "LLM Reasoning", "Long-Horizon Agents", "Code Generation",
          "Verifiable Rewards", "Multi-Turn Dialogue"]
_MECH = [("Advantage-Reweighted", "reweights token-level advantages by their uncertainty", True),
         ("Variance-Bounded", "bounds the variance of the group baseline", False),
         ("Entropy-Guided", "adds an entropy-aware weight to the policy-gradient loss", True),
         ("Trust-Region", "replaces the clipped ratio with an adaptive trust region", True),
         ("Curriculum", "schedules prompts by their estimated pass rate", False),
         ("Off-Policy", "reuses stale rollouts with a corrected importance weight", False),
         ("Length-Debiased", "removes the length normalisation from the token-mean loss", True),
         ("Masked", "masks tokens from truncated responses out of the loss", True)]
_MODELS = [("Qwen2.5-1.5B", 1.5), ("Qwen2.5-7B", 7.0), ("Llama-3.1-8B", 8.0), ("Qwen2.5-Math-7B", 7.0),
           ("Qwen2.5-14B", 14.0), ("Qwen2.5-32B", 32.0), ("Qwen3-30B-A3B", 30.0), ("Qwen2.5-72B", 72.0),
           ("Qwen3-235B-A22B", 235.0), ("DeepSeek-R1-Distill-Qwen-1.5B", 1.5)]
_APPS = ["radiology report generation", "SQL query writing", "theorem proving in Lean", "web navigation",
         "molecule design", "machine translation", "tool calling", "chip layout"]
_NOT_RL = ["Sparse Attention Kernels for Long Context Inference", "A Tokenizer for Mixed-Script Text",
           "Quantisation-Aware Fine-Tuning of Vision Transformers", "Retrieval with Learned Index Pruning",
           "Speculative Decoding with Draft Trees", "Memory-Efficient Optimisers for Pretraining"]

# papers per quarter (all kinds) and share of general methods; grows like the study's cohorts
_QUARTERS = [(date(2025, 1, 1), 22), (date(2025, 4, 1), 28), (date(2025, 7, 1), 34),
             (date(2025, 10, 1), 40), (date(2026, 1, 1), 46), (date(2026, 4, 1), 52)]


def _acronym(rng: random.Random, used: set[str]) -> str:
    while True:
        name = "".join(rng.choice("ABCEFHKLMNRSTW") for _ in range(rng.choice((1, 2)))) + "PO"
        name = rng.choice(("", "A", "T", "M")) + name
        if len(name) >= 3 and name not in used and name not in {"PPO", "DPO", "GPO", "APO", "TPO"}:
            used.add(name)
            return name


def _authors(rng: random.Random, affiliation: str | None, n: int) -> tuple[tuple[str, str | None], ...]:
    people = []
    for i in range(n):
        name = f"{rng.choice(_FIRST)} {rng.choice(_LAST)}"
        people.append((name, affiliation if i == 0 or rng.random() < 0.5 else rng.choice(_AFFILS)))
    return tuple(people)


def _real_papers() -> list[Paper]:
    out = []
    for (aid, title, day, versions, method, size, loss, code, maint, affil) in REAL_METHODS:
        model = next((m for m, s in _MODELS if s == size), f"a {size:g}B-parameter model")
        mech = ("changes the clipping of the importance ratio in the policy loss" if loss
                else "changes how rewards are turned into advantages")
        name = method or "the approach"
        abstract = (
            f"Reinforcement learning with verifiable rewards has become the standard way to improve "
            f"the reasoning of large language models. We propose {name}, a policy optimization "
            f"algorithm that {mech}. Training {model} with {name} improves accuracy on AIME and "
            f"MATH while keeping training stable."
        )
        pub = _dt(day, 17)
        comment = "Code: https://github.com/sample-org/" + (method or "entropy").lower().replace(" ", "-").replace(".", "") if code else None
        out.append(Paper(
            arxiv_id=aid, versions=versions, title=title, abstract=abstract,
            authors=((f"{_FIRST[len(aid) % 20]} {_LAST[int(aid[-1])]}", affil),
                     (f"{_FIRST[int(aid[-2])]} {_LAST[int(aid[-3])]}", affil)),
            primary_category="cs.LG", categories=("cs.LG", "cs.CL"), published=pub,
            updated=pub + timedelta(days=21 * (versions - 1)), comment=comment,
            journal_ref=None, doi=None, kind="general_method", method=method,
            policy_size_b=size, changes_loss=loss, releases_code=code, maintainer_of=maint,
        ))
    return out


def _synthetic_papers(rng: random.Random) -> list[Paper]:
    used = {m for *_, m, _s, _l, _c, _mo, _a in [(r[0], r[4], r[5], r[6], r[7], r[8], r[9]) for r in REAL_METHODS] if m}
    out: list[Paper] = []
    serial = 90000
    for q_start, n in _QUARTERS:
        for i in range(n):
            serial += 7
            day = q_start + timedelta(days=rng.randrange(0, 89))
            pub = datetime(day.year, day.month, day.day, rng.randrange(0, 23), tzinfo=timezone.utc)
            aid = f"{day:%y%m}.{serial}"
            versions = rng.choice((1, 1, 1, 2, 2, 3))
            roll = rng.random()
            kind = ("general_method" if roll < 0.42 else "application" if roll < 0.57 else
                    "benchmark" if roll < 0.66 else "dataset" if roll < 0.71 else
                    "survey" if roll < 0.76 else "analysis" if roll < 0.84 else "not_rl")
            goal = rng.choice(_GOALS)
            model, size = rng.choice(_MODELS)
            code = rng.random() < 0.55
            affil = rng.choice(_AFFILS)
            method = None
            loss = False
            if kind == "general_method":
                method = _acronym(rng, used)
                adj, what, loss = rng.choice(_MECH)
                title = f"{method}: {adj} Policy Optimization for {goal}"
                abstract = (f"Group-relative reinforcement learning is widely used to post-train language "
                            f"models. We propose {method}, a policy optimization method that {what}. "
                            f"Experiments with {model} show gains over GRPO on reasoning benchmarks.")
            elif kind == "application":
                app = rng.choice(_APPS)
                title = f"Reinforcement Learning from Verifiable Feedback for {app.title()}"
                abstract = (f"We apply reinforcement learning with a task-specific reward to {app}. "
                            f"Fine-tuning {model} with GRPO on our reward improves task success.")
            elif kind == "benchmark":
                title = f"A Benchmark for Evaluating RL-Trained Reasoning Models on {goal}"
                abstract = (f"We introduce a benchmark to evaluate language models trained with "
                            f"reinforcement learning. We evaluate {model} and several RLVR checkpoints.")
            elif kind == "dataset":
                title = f"A Dataset of Verified Problems for Reinforcement Learning on {goal}"
                abstract = (f"We release a dataset of verified prompts for reinforcement learning of "
                            f"language models and report baselines with {model}.")
            elif kind == "survey":
                title = f"A Survey of Reinforcement Learning for {goal}"
                abstract = ("This survey reviews reinforcement learning methods for large language "
                            "models, from RLHF and PPO to GRPO variants, and lists open problems.")
            elif kind == "analysis":
                title = f"What Does Reinforcement Learning Really Teach? An Analysis of {goal}"
                abstract = (f"We analyse how reinforcement learning with verifiable rewards changes "
                            f"{model}, measuring pass@k and entropy across training.")
            else:
                title = rng.choice(_NOT_RL)
                abstract = f"We study {title.lower()} and report results with {model} on standard tasks."
                code = rng.random() < 0.3
            comment_bits = [f"{rng.randrange(8, 40)} pages"]
            if code:
                comment_bits.append(f"code at https://github.com/{rng.choice(_LAST).lower()}-lab/"
                                    f"{(method or 'project').lower()}")
            out.append(Paper(
                arxiv_id=aid, versions=versions, title=title, abstract=abstract,
                authors=_authors(rng, affil, rng.randrange(1, 6)),
                primary_category=rng.choice(("cs.LG", "cs.CL", "cs.AI")),
                categories=tuple(sorted({"cs.LG", rng.choice(("cs.CL", "cs.AI", "stat.ML"))})),
                published=pub, updated=pub + timedelta(days=10 * (versions - 1)),
                comment=", ".join(comment_bits), journal_ref=None,
                doi=f"10.48550/arXiv.{aid}" if rng.random() < 0.2 else None,
                kind=kind, method=method,
                policy_size_b=size if kind not in ("not_rl", "survey") else None, changes_loss=loss,
                releases_code=code, maintainer_of=None,
            ))
    return out


def _adoption_lines(method: str, arxiv_id: str, evidence: str, path: str) -> tuple[tuple[str, ...], str]:
    token = METHOD_TOKENS.get(method, method.lower().replace("-", "_").replace(" ", "_"))
    if evidence == "docs":
        return ((f"## {method}", "", f"See the paper: https://arxiv.org/abs/{arxiv_id}",
                 f"Enable it with `loss_type=\"{token}\"`."), f"docs: document {method} loss")
    if evidence == "arxiv_id":
        lines = (f"def compute_{token}_loss(log_prob, old_log_prob, advantages, mask):",
                 f"    \"\"\"{method} loss, see https://arxiv.org/abs/{arxiv_id}.\"\"\"",
                 "    ratio = (log_prob - old_log_prob).exp()",
                 "    return -(ratio * advantages * mask).sum() / mask.sum()")
        return lines, f"feat: add {method} loss (arXiv:{arxiv_id})"
    lines = (f"def compute_{token}_loss(log_prob, old_log_prob, advantages, mask):",
             "    ratio = (log_prob - old_log_prob).exp()",
             "    return -(ratio * advantages * mask).sum() / mask.sum()",
             f"LOSS_FNS[\"{token}\"] = compute_{token}_loss")
    return lines, f"feat: support loss_type={token}"


def _synthetic_adoptions(rng: random.Random, papers: list[Paper]) -> list[Adoption]:
    """A few synthetic methods reach a framework, some within 180 days, some later."""
    methods = [p for p in papers if p.kind == "general_method" and p.arxiv_id[5] == "9"]
    picks = rng.sample(methods, 9)
    paths = {"trl": "trl/trainer/grpo_trainer.py", "verl": "verl/trainer/ppo/core_algos.py",
             "openrlhf": "openrlhf/models/loss.py", "slime": "slime/backends/megatron_utils/loss.py"}
    out = []
    for i, p in enumerate(picks):
        fw = SAMPLE_FRAMEWORKS[i % len(SAMPLE_FRAMEWORKS)]
        delay = (20, 45, 90, 150, 200, 260, 30, 120, 60)[i]
        when = p.published + timedelta(days=delay)
        if when.date() > OBSERVATION_END:
            when = datetime.combine(OBSERVATION_END - timedelta(days=3), datetime.min.time(), timezone.utc)
            if when <= p.published:
                continue
        evidence = ("arxiv_id", "alias", "docs")[i % 3]
        path = f"docs/algorithms/{p.method.lower()}.md" if evidence == "docs" else paths[fw]
        lines, msg = _adoption_lines(p.method, p.arxiv_id, evidence, path)
        out.append(Adoption(fw, p.arxiv_id, when.replace(hour=10, minute=0, second=0, microsecond=0),
                            path, lines, msg, evidence))
    return out


def _real_adoptions(papers: dict[str, Paper]) -> list[Adoption]:
    out = []
    for fw, aid, day, path, evidence in REAL_ADOPTIONS:
        method = papers[aid].method
        if evidence == "docs":
            path = f"docs/algorithms/{METHOD_TOKENS[method]}.md"
        lines, msg = _adoption_lines(method, aid, evidence, path)
        out.append(Adoption(fw, aid, _dt(day, 9), path, lines, msg, evidence))
    return out


def _decoys() -> list[Adoption]:
    """Commits that look like evidence but are not: a deleted line, a common-word collision."""
    return [
        # `gpg` (commit signing) must not link to the GPG paper.
        Adoption("trl", "2504.02546", _dt("2025-06-03", 8), ".github/workflows/release.yml",
                 ("      - name: Import gpg key", "        run: gpg --import signing.key"),
                 "ci: sign release tags with gpg", "collision"),
        # VAPO added then removed the same week: only the deletion is on the default branch.
        Adoption("openrlhf", "2504.05118", _dt("2025-05-20", 8), "openrlhf/models/loss.py",
                 ("# TODO: vapo value pretraining",), "chore: drop vapo todo", "deleted"),
    ]


def _threads(rng: random.Random, papers: list[Paper], adoptions: list[Adoption]) -> list[Thread]:
    """Proposals (issues/PRs naming a method), failure reports, and noise, per framework."""
    by_id = {p.arxiv_id: p for p in papers}
    adopted = {(a.framework, a.arxiv_id): a for a in adoptions}
    maintainers = {"trl": "qgallouedec", "verl": "vermouth1992", "openrlhf": "hijkzzz", "slime": "zhuzilin"}
    users = ["rl-curious", "mathbot-dev", "gpu-poor-phd", "lab-intern", "tokenwrangler", "entropy-fan"]
    out: list[Thread] = []
    numbers = {fw: 100 for fw in SAMPLE_FRAMEWORKS}

    def nxt(fw: str) -> int:
        numbers[fw] += rng.randrange(3, 40)
        return numbers[fw]

    # 1) proposals of adopted methods: a PR that was merged on the adoption day
    for (fw, aid), a in sorted(adopted.items(), key=lambda kv: kv[1].committed_at):
        p = by_id[aid]
        opened = a.committed_at - timedelta(days=rng.randrange(2, 12))
        if opened <= p.published:
            opened = p.published + timedelta(hours=6)
        out.append(Thread(fw, nxt(fw), "pull_request", f"Add {p.method} (arXiv {aid})",
                          f"This PR implements {p.method} from https://arxiv.org/abs/{aid}.",
                          rng.choice(users), "CONTRIBUTOR", opened, "closed", None, a.committed_at,
                          a.committed_at, ("enhancement",),
                          (Comment(maintainers[fw], "MEMBER", opened + timedelta(hours=20),
                                   "Thanks, left a few comments on the loss normalisation."),)))
    # 2) proposals of methods never adopted there: replied, ignored, or closed not planned
    never = [p for p in papers if p.kind == "general_method" and p.method
             and not any(k[1] == p.arxiv_id for k in adopted)]
    for i, p in enumerate(rng.sample(never, 10)):
        fw = SAMPLE_FRAMEWORKS[i % len(SAMPLE_FRAMEWORKS)]
        opened = p.published + timedelta(days=rng.randrange(5, 60))
        if opened.date() >= OBSERVATION_END:
            continue
        style = i % 3
        comments: tuple[Comment, ...] = ()
        state, reason, closed = "open", None, None
        if style == 0:
            comments = (Comment("github-actions[bot]", "NONE", opened + timedelta(days=30),
                                "This issue is stale because it has been open 30 days with no activity."),)
        elif style == 1:
            comments = (Comment(maintainers[fw], "MEMBER", opened + timedelta(days=4),
                                "Interesting, but we would like to see it at larger scale first."),)
            state, reason, closed = "closed", "not_planned", opened + timedelta(days=9)
        else:
            comments = (Comment(rng.choice(users), "NONE", opened + timedelta(days=2), "+1, would love this."),
                        Comment(maintainers[fw], "COLLABORATOR", opened + timedelta(days=6),
                                "Contributions welcome, see CONTRIBUTING.md."))
        kind = "issue" if i % 4 else "pull_request"
        out.append(Thread(fw, nxt(fw), kind, f"[Feature] Support {p.method}",
                          f"Could {fw} support {p.method} ({p.title}), arXiv:{p.arxiv_id}?",
                          rng.choice(users), "NONE", opened, state, reason, closed, None,
                          ("feature request",), comments))
    # 3) failure reports naming an implemented method (loss names in the body)
    failures = [("NaN loss after 300 steps with {m}", "loss becomes nan when using loss_type={t}"),
                ("Entropy collapse with {m}", "policy entropy drops to zero after enabling {t}"),
                ("CUDA out of memory in {m} training", "OOM on 8xH100 when {t} is on with 32k context"),
                ("Reward collapse when training with {m}", "reward falls to 0 after switching to {t}")]
    for i, a in enumerate(sorted(adoptions, key=lambda x: x.committed_at)[::2]):
        p = by_id[a.arxiv_id]
        title, body = failures[i % len(failures)]
        token = METHOD_TOKENS.get(p.method, p.method.lower())
        opened = a.committed_at + timedelta(days=rng.randrange(5, 40))
        if opened.date() >= OBSERVATION_END:
            continue
        out.append(Thread(a.framework, nxt(a.framework), "issue", title.format(m=p.method),
                          body.format(t=token) + f". Stack trace points at {a.path}.",
                          rng.choice(users), "NONE", opened, "open", None, None, None, ("bug",),
                          (Comment(maintainers[a.framework], "MEMBER", opened + timedelta(days=1),
                                   "Can you share the config and the commit you run?"),)))
    # 4) noise: dependabot PRs, unrelated questions, and a failure report naming no method
    for fw in SAMPLE_FRAMEWORKS:
        opened = _dt("2025-08-01") + timedelta(days=rng.randrange(0, 200))
        out.append(Thread(fw, nxt(fw), "issue", "Training hangs after the first rollout on 4 nodes",
                          "All ranks are stuck in the weight sync; no error is printed.", rng.choice(users),
                          "NONE", opened - timedelta(days=20), "open", None, None, None, ("bug",)))
        out.append(Thread(fw, nxt(fw), "pull_request", "Bump torch from 2.6.0 to 2.7.0",
                          "Bumps torch.", "dependabot[bot]", "NONE", opened, "closed", "completed",
                          opened + timedelta(days=3), opened + timedelta(days=3), ("dependencies",)))
        out.append(Thread(fw, nxt(fw), "issue", "How do I resume from a checkpoint?",
                          "The docs do not say how to resume.", rng.choice(users), "NONE",
                          opened + timedelta(days=5), "closed", "completed", opened + timedelta(days=8),
                          None, ("question",),
                          (Comment(maintainers[fw], "OWNER", opened + timedelta(days=6), "Use resume_from_checkpoint."),)))
    return out


@lru_cache(maxsize=1)
def build_world() -> World:
    rng = random.Random(SEED)
    real = _real_papers()
    synthetic = _synthetic_papers(rng)
    papers = real + synthetic
    by_id = {p.arxiv_id: p for p in papers}
    adoptions = _real_adoptions(by_id) + _synthetic_adoptions(rng, synthetic)
    threads = _threads(rng, papers, adoptions)
    return World(tuple(papers), tuple(sorted(adoptions, key=lambda a: (a.committed_at, a.framework))),
                 tuple(threads), REPORTS, tuple(_decoys()))
