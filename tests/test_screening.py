"""Paper screening: metrics on the labelled set and the sample world, plus named hard cases."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import pytest

from ingestion import config
from ingestion.screening.rules import (
    PaperText,
    changes_loss,
    defined_methods,
    is_rl_related,
    maintainer_framework_ids,
    paper_kind,
    policy_size_b,
    releases_code,
    screen,
)

_spec = importlib.util.spec_from_file_location(
    "screening_metrics", Path(__file__).resolve().parents[1] / "scripts" / "screening_metrics.py")
metrics_mod = importlib.util.module_from_spec(_spec)
sys.modules["screening_metrics"] = metrics_mod  # dataclasses look their module up
_spec.loader.exec_module(metrics_mod)

REGISTRY = config.frameworks()


def test_labelled_set_is_large_and_covers_every_kind():
    from worlds.sample.labelled_papers import LABELLED

    assert len(LABELLED) >= 150
    assert {r.kind for r in LABELLED} == set(metrics_mod.KINDS)


def test_every_classifier_reaches_090_on_the_labelled_set():
    metrics, errors = metrics_mod.evaluate(metrics_mod.labelled_gold(), REGISTRY)
    low = {k: v for k, v in metrics.items() if v[0] < 0.9 or v[1] < 0.9}
    assert not low, (low, errors)


def test_sample_world_ground_truth_is_reproduced():
    metrics, errors = metrics_mod.evaluate(metrics_mod.world_gold(), REGISTRY)
    low = {k: v for k, v in metrics.items() if v[0] < 0.95 or v[1] < 0.95}
    assert not low, (low, errors)
    assert errors == []


def P(title, abstract="", comment=None, affs=()):  # noqa: N802
    return PaperText(title, abstract, comment, tuple(affs))


@pytest.mark.parametrize(
    "paper, kind",
    [
        (P("A Survey of RL for LLM Reasoning", "We review PPO, GRPO and DAPO for language models."), "survey"),
        (P("MedPO: Policy Optimization for Medical Question Answering",
           "We propose MedPO, a policy optimization method for clinical QA with Llama-3.1-8B."), "application"),
        (P("XPO: Token-Weighted Policy Optimization for LLM Reasoning",
           "We propose XPO, an algorithm that reweights token-level advantages, trained on Qwen2.5-7B."),
         "general_method"),
        (P("Understanding R1-Zero-Like Training: A Critical Perspective",
           "We analyse GRPO. We propose Dr. GRPO, an unbiased optimization method for LLM reasoning."),
         "general_method"),
        (P("Does RL Really Incentivize Reasoning in LLMs?", "We measure pass@k of RLVR-trained models."), "analysis"),
        (P("Quadruped Locomotion with PPO", "We train robot policies with PPO in simulation."), "not_rl"),
        (P("Reasoning Without Reinforcement Learning", "Distillation gives 7B models that match RL-trained ones."),
         "not_rl"),
        (P("CLIP-Guided Video Clip Retrieval", "We use CLIP features to retrieve video clips."), "not_rl"),
    ],
)
def test_kind_hard_cases(paper, kind):
    assert paper_kind(paper)[0] == kind


@pytest.mark.parametrize(
    "abstract, size",
    [
        ("We train Qwen3-235B-A22B with GRPO for LLM reasoning.", 235),
        ("RLVR on Qwen2.5-72B-Instruct and Qwen2.5-7B improves reasoning.", 72),
        ("A 1.5B policy is trained with GRPO using a 7B reward model for LLM reasoning.", 1.5),
        ("We release the OpenR1-7B-Traces corpus for RL of language models.", None),
        ("Our dataset has 1.5B tokens of preference pairs for RLHF.", None),
        ("Our 7B RL-trained model outperforms Llama-3.1-405B on MATH.", 7),
        ("We distil traces from DeepSeek-R1 (671B) and train Qwen2.5-Math-7B with RL.", 7),
        ("RLHF of a 1T-parameter MoE with 32B active parameters.", 1000),
        ("RLHF of a 350M language model with PPO.", 0.35),
    ],
)
def test_policy_size_hard_cases(abstract, size):
    assert policy_size_b(P("RL for LLMs", abstract))[0] == size


@pytest.mark.parametrize(
    "abstract, expected",
    [
        ("We propose XPO, an algorithm that decouples the clipping range of the importance ratio in GRPO for LLMs.", True),
        ("We propose XPO, an algorithm that masks truncated responses out of the policy loss for LLM RL.", True),
        ("We propose XPO, an algorithm that uses gradient clipping and a curriculum of prompts for LLM RL.", False),
        ("We propose XPO, an algorithm that schedules prompts by pass rate for RLVR of LLMs.", False),
        ("We propose XPO, an algorithm for LLM RL that uses CLIP rewards on video clips.", False),
    ],
)
def test_loss_change_hard_cases(abstract, expected):
    assert changes_loss(P("XPO: Policy Optimization for LLMs", abstract))[0] is expected


def test_code_release_and_methods_and_maintainers():
    assert releases_code(P("x", "We build on verl (https://github.com/volcengine/verl) for LLM RL."))[0] is False
    assert releases_code(P("x", "RL for LLMs.", comment="Code: github.com/me/xpo"))[0] is True
    assert releases_code(P("x", "RL for LLMs.", comment="https://huggingface.co/datasets/me/data"))[0] is False
    assert releases_code(P("x", "Code will be released."))[0] is True
    paper = P("MiniMax-M1: Scaling Test-Time Compute",
              "We propose CISPO, a novel RL algorithm that clips importance sampling weights for LLM reasoning.")
    assert defined_methods(paper) == ["CISPO"]
    assert defined_methods(P("GSPO for LLMs", "We introduce Group Sequence Policy Optimization (GSPO), an RL "
                                              "algorithm for LLMs.")) == ["GSPO"]
    assert maintainer_framework_ids(P("x", affs=["Qwen Team, Alibaba Inc."]), REGISTRY) == []
    assert maintainer_framework_ids(P("x", affs=["ByteDance Seed"]), REGISTRY) == ["verl"]
    assert maintainer_framework_ids(P("x", affs=["ByteDance"]), REGISTRY) == []
    assert maintainer_framework_ids(P("x", affs=["Stanford", "jane@nvidia.com"]), REGISTRY) == ["nemo_rl"]
    # a domain counts in an e-mail address, not in a link; a university's domain is not a lab
    assert maintainer_framework_ids(P("x", affs=["Dataset: huggingface.co/datasets/lab/prefs"]), REGISTRY) == []
    assert maintainer_framework_ids(P("x", affs=["lea@huggingface.co"]), REGISTRY) == ["trl"]
    assert maintainer_framework_ids(P("x", affs=["lee@mails.tsinghua.edu.cn", "kim@berkeley.edu"]), REGISTRY) == []


def test_screen_row_matches_the_contract():
    row = {"arxiv_id": "2503.14476", "title": "DAPO: An Open-Source LLM RL System at Scale",
           "abstract": "We propose DAPO, an RL algorithm with clip-higher on the importance ratio. "
                       "We train Qwen2.5-32B.", "comment": "https://github.com/x/dapo",
           "authors": json.dumps([{"name": "A", "affiliation": "ByteDance Seed"}])}
    out = screen(row, REGISTRY)
    assert set(out) == {"arxiv_id", "is_rl_related", "paper_kind", "kind_signal", "policy_size_b", "size_signal",
                        "changes_loss", "loss_signal", "releases_code", "code_signal", "model_report",
                        "model_report_signal", "in_pool", "defined_methods", "maintainer_framework_ids",
                        "maintainer_signal", "screener_version"}
    assert (out["is_rl_related"], out["paper_kind"], out["policy_size_b"], out["changes_loss"],
            out["releases_code"]) == (True, "general_method", 32.0, True, True)
    assert json.loads(out["defined_methods"]) == ["DAPO"] and json.loads(out["maintainer_framework_ids"]) == ["verl"]
    assert is_rl_related(PaperText("x", "no RL term at all"))[0] is False


# --- phrasing modelled on real abstracts (own sentences), screener 2.0 -------------------------------
@pytest.mark.parametrize(
    "title, abstract",
    [
        ("FlowTrain: Asynchronous RL Post-Training at Cluster Scale",
         "RL for large language models leaves GPUs idle while long rollouts finish. We present FlowTrain, a system "
         "that decouples rollout from training, streams weight updates to the inference engines and keeps "
         "staleness bounded, raising throughput 2.4x on 256 GPUs."),
        ("Length-Aware Rollout Scheduling for RLVR",
         "We design a scheduler for rollout requests that balances load across GPU workers, cutting pipeline "
         "bubbles and end-to-end training time of LLM reinforcement learning by a third on a multi-node cluster."),
    ],
)
def test_system_kind(title, abstract):
    kind, signal = paper_kind(P(title, abstract))
    assert kind == "system" and "infrastructure cues" in signal


@pytest.mark.parametrize(
    "abstract",
    [
        "We propose XPO, which decouples the clipping range for positive and negative advantages in GRPO for LLMs.",
        "We propose XPO, a GRPO variant for LLM reasoning that removes the length normalisation of the loss.",
        "We propose XPO for LLM RL, which clips the importance-sampling weights instead of the token updates.",
        "We propose XPO, applying token-level masking to high-entropy tokens during RL of language models.",
        "We propose XPO, which normalises advantages over the global batch for RLHF of LLMs.",
        "We propose XPO, an RL method for LLMs with an entropy bonus whose coefficient adapts during training.",
    ],
)
def test_loss_change_real_phrasing(abstract):
    changed, signal = changes_loss(P("XPO: Policy Optimization for LLMs", abstract))
    assert changed and signal


@pytest.mark.parametrize(
    "abstract, size",
    [
        ("We post-train Qwen3-235B-A22B and Qwen3-30B-A3B with GRPO for LLM reasoning.", 235),
        ("RL training of our 671B MoE language model with 37B activated parameters.", 671),
        ("The best medium-sized (<100B) LLM after RL is our Llama-3-70B policy trained with GRPO.", 70),
        ("Our method beats GRPO by 3 points when using Qwen2.5-3B-Instruct for RL of LLMs.", 3),
    ],
)
def test_policy_size_moe_and_bounds(abstract, size):
    assert policy_size_b(P("RL for LLMs", abstract))[0] == size


@pytest.mark.parametrize(
    "abstract, comment, expected",
    [
        ("RL for LLMs. Our code, models and data are open source at this https URL.", None, True),
        ("RL for LLMs. We fully open-source our model weights, training code, and data.", None, True),
        ("RL for LLMs. Project page and code: https://example.github.io/xpo/.", None, True),
        ("RL for LLMs. All code is open-source on GitHub.", None, True),
        ("RL for LLMs. An open-source implementation of XPO is released.", None, True),
        ("RL for LLMs trained with verl.", "Accepted at a conference", False),
        ("RL for LLMs. Code is not available.", None, False),
        ("RL for LLMs. Models are available at https://huggingface.co/me/xpo-7b.", None, False),
        # release of code inside a longer sentence (cue "release in a sentence")
        ("RL for LLMs. We release the resulting policies, XPO-7B and XPO-14B, together with all our code and "
         "data for the community.", None, True),
        ("RL for LLM agents. We publicly release the task schema, a containerised evaluation harness and 300 "
         "public tasks.", None, True),
        ("RL for LLMs. We have open-sourced our training scripts and checkpoints.", None, True),
        ("RL for LLMs. We release a dataset of 80K prompts spanning math, code and science with verifiers.", None, False),
        ("RL for LLMs. We release a benchmark of 500 code generation problems with unit tests.", None, False),
        ("RL for LLMs. We do not release our code because of licensing.", None, False),
        # a project site after an availability cue is code unless only models or data are said to be there
        ("RL for LLMs. All our datasets and models are available on https://xpo-project.ai.", None, False),
        ("RL for LLMs. Our models and training code are available on https://xpo-project.ai.", None, True),
        # code hosts beyond GitHub in arXiv's comment
        ("RL for LLMs.", "Under review. Code: https://anonymous.4open.science/r/xpo-5A1B", True),
        ("RL for LLMs.", "12 pages. Implementation at https://gitee.com/someone/xpo", True),
        # code named inside a list of what is out, or promised
        ("RL for LLMs. The policy, code, and training data are all open-sourced.", None, True),
        ("RL for LLMs. All code, prompts and evaluation scripts are released for replication.", None, True),
        ("RL for LLMs. The code and data are in the supplementary material.", None, True),
        ("RL for LLMs.", "Code coming soon", True),
        ("RL for LLMs. We release our GitHub repository with the training recipes.", None, True),
        # the paper's own software is open source; an open model or data set alone is not code
        ("We introduce Gymnax-R, an open-source environment suite for training LLM agents with RL.", None, True),
        ("RL for LLM agents. As an open-source, extensible platform, Foo supports any simulator.", None, True),
        ("RL for LLM agents. The Foo toolkit is open-sourced with a live demo.", None, True),
        ("RL for LLMs. The resulting 7B model is open-sourced on the Hub.", None, False),
        ("RL for LLMs. We compare with open-source models and code generation benchmarks are available.", None, False),
        ("RL for LLMs. Training on open-source data, XPO beats open-source baselines.", None, False),
    ],
)
def test_code_release_real_phrasing(abstract, comment, expected):
    assert releases_code(P("x", abstract, comment))[0] is expected


def test_model_report_flag_keeps_its_signal():
    row = {"arxiv_id": "2601.00001", "title": "Nova-2 Technical Report",
           "abstract": "We present Nova-2, a family of open-weight reasoning models post-trained with RL."}
    out = screen(row, REGISTRY)
    assert out["model_report"] is True and out["model_report_signal"]
    assert screen({**row, "title": "XPO: Policy Optimization for LLMs",
                   "abstract": "We propose XPO, an RL algorithm for LLMs."}, REGISTRY)["model_report"] is False


def test_candidate_pool_query_and_its_local_evaluation_agree():
    from ingestion.arxiv.pool import POOL_QUERY, in_pool, phrase_in

    assert POOL_QUERY.count(" AND ") == 1 and 'abs:"reinforcement learning"' in POOL_QUERY
    assert in_pool("XPO", "Reinforcement learning with verifiable rewards improves LLM reasoning.")
    assert in_pool("GRPO-Lite: Faster Group Policy Optimization", "We train Qwen2.5-7B.")  # GRPO implies an LM
    assert not in_pool("Quadruped Locomotion with PPO", "We train robot policies in simulation.")
    assert not in_pool("Speculative Decoding for LLMs", "Draft trees speed up large language models.")
    assert phrase_in("RL", "An RL-based recipe") and not phrase_in("RL", "URLs and curl")
    assert not in_pool("Reinforcement", "Learning language models")  # a phrase stays inside one field


def test_fake_arxiv_applies_the_pool_query():
    from datetime import date

    from ingestion.arxiv.source import ArxivClient, Window
    from ingestion.arxiv.pool import in_pool
    from ingestion.http import PoliteClient
    from worlds.sample.fake_arxiv import FakeArxiv
    from worlds.sample.world import build_world

    papers = build_world().papers
    with FakeArxiv(papers) as fake:
        client = ArxivClient(fake.base_url, http=PoliteClient(min_interval_s=0.0), pool=True)
        got = {e.findtext("{http://www.w3.org/2005/Atom}id").rsplit("/", 1)[-1].split("v")[0]
               for page in client.iter_window(Window.for_days(date(2024, 1, 1), date(2026, 12, 31)))
               for e in page.entries}
    want = {p.arxiv_id for p in papers if in_pool(p.title, p.abstract)}
    assert got == want and 0 < len(want) < len(papers)


def test_agent_benchmark_without_an_rl_term_is_rl_related():
    paper = P("ShopArena: A Benchmark for Web-Shopping Agents",
              "We introduce a benchmark of 800 shopping tasks for LLM agents with executable checkers.")
    assert is_rl_related(paper)[0] and paper_kind(paper)[0] == "benchmark"
    assert not is_rl_related(P("A Benchmark of Summaries", "We introduce a benchmark for LLM summaries."))[0]



def test_a_link_printed_as_this_https_url_is_no_rl_term():
    """arXiv's abstract pages print links as "this https URL"; "URL" ends in RL but names no method."""
    p = P("Distilling Chain-of-Thought for Small Language Models",
          "We investigate which tokens of long reasoning traces a student language model should be "
          "distilled on. Code is available at this https URL.")
    assert is_rl_related(p) == (False, "no RL term")


# Screener 2.2: rules found on a second set of real papers (outside the truth's lists), in our own words.
@pytest.mark.parametrize(
    "title, abstract, kind",
    [
        ("FlowRL: Dataflow Reinforcement Learning for Agentic LLMs",
         "Agentic RL for language models is expensive. We propose FlowRL, a dataflow-oriented RL system that "
         "decouples rollout services from training, and we evaluate it on math and search workloads.", "system"),
        ("TraceHub: Step-Level Data Middleware for Agentic Reinforcement Learning",
         "We present TraceHub, an interactive step-level data middleware system for agentic RL with LLM agents.",
         "system"),
        ("AgentKit: Scaling Agentic Reinforcement Learning with a Multi-Task Framework",
         "We present the AgentKit framework for multi-turn agentic RL training of LLMs. On the infrastructure "
         "side it runs a fully asynchronous generation-training pipeline.", "system"),
        ("SpecRL: Faster GRPO Rollouts",
         "GRPO training of LLMs is slow. We propose a concurrency-aware speculative decoding framework for "
         "rollouts, with end-to-end speedups of 2.4x.", "system"),
        ("KnowAgent: Knowledge Agents via Reinforcement Learning",
         "We present a system trained with reinforcement learning for LLM agents answering enterprise questions.",
         "general_method"),
        ("RTLReward: Step-Level Rewards for Chip Design with LLMs",
         "We present RTLReward, a scalable framework that trains LLMs with RL for hardware design code.",
         "application"),
        ("PrefSet-3: Open Human Preferences for Reward Models",
         "To train reward models for RLHF of LLMs, we introduce PrefSet-3, a permissively licensed (CC-BY-4.0), "
         "human-annotated preference dataset comprising 40,000 samples.", "dataset"),
        ("EnvForge: Scaling Environments for Agentic RL",
         "We propose EnvForge, an automated framework for scalable tool-interaction environment synthesis, to "
         "train LLM agents with reinforcement learning.", "dataset"),
    ],
)
def test_kind_by_what_the_proposal_is(title, abstract, kind):
    assert paper_kind(P(title, abstract))[0] == kind


@pytest.mark.parametrize(
    "abstract, size",
    [
        ("We train DeepX-14B with GRPO; it surpasses many 32B models and DeepSeek-R1-Distill-70B.", 14.0),
        ("Both LLMs outperform significantly larger open-weight models such as Llama-3.3-70B with GRPO.", None),
        ("Sparse RL updates match full-gradient updates on the Qwen3-8B base model and surpass full-gradient "
         "updates on the Qwen3-32B with GRPO.", 32.0),
    ],
)
def test_policy_size_skips_models_compared_against(abstract, size):
    assert policy_size_b(P("A GRPO Recipe for LLMs", abstract), True, "general_method")[0] == size


@pytest.mark.parametrize(
    "abstract",
    [
        "We introduce XPO, a DPO variant that adds a modulating factor to dynamically scale the DPO loss for LLMs.",
        "XPO finds the samples that destabilise GRPO updates of the LLM and masks them out.",
        "We propose a novel loss function for LLM alignment derived from the RLHF optimality condition.",
    ],
)
def test_loss_change_real_phrasing_2(abstract):
    assert changes_loss(P("XPO: Stable Preference Optimization", abstract), "general_method")[0]
