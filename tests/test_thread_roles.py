"""Thread roles on sentences written for these tests, modelled on how real issue and pull-request
threads of RL frameworks are phrased (templates, tags, Chinese titles, PR boilerplate)."""

from __future__ import annotations

import pytest

from ingestion.github.thread_roles import ROLES, ThreadText, core_title, cue_features, method_names, thread_role

FEATURE_TEMPLATE = ("### Feature request\n\nIt would help to offer the {m} objective as a loss_type.\n\n"
                    "### Motivation\n\nIt is more stable on long rollouts.\n\n### Your contribution\n\nI can open a PR.")
PR_BOILERPLATE = ("\n\n## Before submitting\n- [ ] This PR fixes a typo or improves the docs (you can dismiss the other "
                  "checks if that's the case).\n- [x] Did you read the contributor guideline?\n\n## Who can review?\n\n"
                  "Anyone in the community is free to review the PR once the tests have passed.")
BUG_TEMPLATE = ("### System Info\n\nframework 0.9, torch 2.7\n\n### Reproduction\n\n```python\ntrainer.train()\n```\n\n"
                "### Expected behavior\n\nThe advantage should be normalised per group.")

CASES = [
    # proposals: issues asking for a method, in the phrasings seen on real trackers
    ("Support for Zig-Zag Policy Optimization", "Please add support for ZZPO (arXiv 2599.01234).", "issue", (), "proposal"),
    ("[Feature] ZZPO as an alternative to hard clipping", "", "issue", (), "proposal"),
    ("[Feature Request] Decoupled value lambda", "Using two lambdas may balance bias and variance.", "issue", (), "proposal"),
    ("ZZPO-token variant", FEATURE_TEMPLATE.format(m="ZZPO-token"), "issue", (), "proposal"),
    ("Will ZZPO be available?", "Do you have any plans or a timeline for ZZPO? I need it for my project.", "issue", (),
     "proposal"),
    ("Does the library currently support process reward models in PPO?", "Thanks for the framework.", "issue", (),
     "proposal"),
    ("[Question] Why is there no plain REINFORCE trainer?",
     "Would it be accepted as a new trainer if I were to work on adding it?", "issue", (), "proposal"),
    ("问下会支持ZZPO么？", "如题", "issue", (), "proposal"),
    ("[Proposal] bringing ZZPO distillation to multi-turn agents", "### Your Question\n\nWhere would it fit best?",
     "issue", ("question",), "proposal"),
    ("ZZPO", "Hi, the method looks promising.", "issue", ("✨ enhancement",), "proposal"),
    # proposals: pull requests bringing a method (boilerplate checklists must not read as 'fix typo')
    ("🪶 [GRPO] ZZPO: scale rewards by the batch std", "Users can now train with ZZPO." + PR_BOILERPLATE,
     "pull_request", (), "proposal"),
    ("[algo] feat: add ZZPO policy loss", "This PR implements the ZZPO loss.", "pull_request", (), "proposal"),
    ("[BREAKING][rollout, algo] feat: rollout correction", "", "pull_request", (), "proposal"),
    ("ZZPO implementation", "Closes #12", "pull_request", (), "proposal"),
    ("initial zzpo files", "", "pull_request", (), "proposal"),
    # maintenance pull requests
    ("👮 Fix CLI defaults for the overlong penalty", "Values from the paper." + PR_BOILERPLATE, "pull_request", (), "other"),
    ("docs: Add ZZPO (2599.01234) to the paper index", "", "pull_request", (), "other"),
    ("[trainer] fix: honour the normalisation flag in ZZPO", "", "pull_request", (), "other"),
    ("Remove the experimental ZZPO-token trainer", "", "pull_request", (), "other"),
    ("Bump torch from 2.6.0 to 2.7.0", "Bumps torch.", "pull_request", (), "other"),
    # failure reports: the training run misbehaves
    ("Training ZZPO, the loss suddenly becomes nan and the reward becomes 0", "After 100 steps.", "issue", (),
     "failure_report"),
    ("ZZPO: OOM when the rollout engine starts", "", "issue", ("🐛 bug",), "bug_report"),  # memory: a setup defect
    ("Megatron training crash after 300 steps with ZZPO", "", "issue", (), "failure_report"),
    ("What causes the sudden increase in entropy during training?", "", "issue", (), "failure_report"),
    ("reward=0 and loss=0 from the first step", "", "issue", (), "failure_report"),
    ("The run hangs while computing reference log-probs", "", "issue", (), "failure_report"),
    ("Is something off with memory?", "At step 3 it dies with CUDA out of memory on 8 GPUs.", "issue", (),
     "bug_report"),
    ("Reward drops after step 200 and then the job runs out of memory", "", "issue", (), "failure_report"),
    ("训练时输出乱码", "第二次 rollout 之后", "issue", (), "failure_report"),
    # bug reports about an existing implementation
    ("scale_rewards malfunctions in the trainer", "The batch branch computes the group std.", "issue", (),
     "bug_report"),
    ("The trainer's loss is inconsistent with the paper", BUG_TEMPLATE, "issue", (), "bug_report"),
    ("Typo in the ZZPO recipe README", "", "issue", (), "bug_report"),
    # a feature verb in a title that reports a defect is not an ask
    ("Error when adding special tokens to the ZZPO trainer", "", "issue", (), "bug_report"),
    ("ZZPO with LoRA is not supported", "", "issue", (), "bug_report"),
    ("Cannot enable flash attention with ZZPO", "", "issue", (), "bug_report"),
    # questions
    ("[Question] About use_token_level_loss in ZZPO", "According to the paper, this looks like a different formula?",
     "issue", (), "question"),
    ("How do I resume from a checkpoint?", "The docs do not say.", "issue", (), "question"),
    ("一个有关ZZPO图表的问题", "为什么这里说它更好？", "issue", (), "question"),
    # general cue families (version 2): a bare method name asks for it; trackers, releases and docs
    # threads are not proposals; training symptoms beyond NaN/OOM are failures; "KL divergence" is no symptom
    ("Reinforce-ZZ++", "", "issue", (), "proposal"),
    ("ZZPO-token", "Paper: https://arxiv.org/abs/2599.01234", "issue", (), "proposal"),
    ("[Roadmap] plans for the next quarter", "- ZZPO support\n- faster rollout", "issue", ("feature",), "other"),
    ("Release v1.2.0", "", "pull_request", (), "other"),
    ("added section on ZZPO distillation", "", "pull_request", (), "other"),
    ("Add ZZPO tutorial notebook", "", "pull_request", (), "other"),
    ("Add ZZPO recipe", "", "pull_request", (), "proposal"),
    ("ZZPO training", "The output of the model after ZZPO training is incorrect.", "issue", (), "failure_report"),
    ("(feat): publish zzkit v0.3.0.", "", "pull_request", (), "other"),
    ("[trainer][docs] Improve visibility of the supported algorithms", "", "issue", (), "other"),
    ("Logs for the 7B recipe", "I am reproducing the recipe and the reward no longer increases after 30 steps.",
     "issue", (), "failure_report"),
    ("Training does not converge with ZZPO on math data", "", "issue", (), "failure_report"),
    ("grad_norm spikes after 200 steps", "", "issue", (), "failure_report"),
    ("Unable to reproduce the reported benchmark score", "Our accuracy is much lower than the paper.", "issue", (),
     "failure_report"),
    ("Outputs degenerate into repetition after step 50", "", "issue", (), "failure_report"),
    ("Rollout logprobs look wrong with tensor parallel 2", "", "issue", (), "failure_report"),
    ("Is ZZPO on the roadmap?", "", "issue", (), "proposal"),
    # a bug template or tag with a training symptom is a failure; a short method-like title with a bug tag is not an ask
    ("ZZPO training problem", BUG_TEMPLATE + " The reward should go up but it goes down after 100 steps.", "issue",
     ("bug",), "failure_report"),
    ("[Bug] ZZPO critic", "", "issue", (), "bug_report"),
    # a method-name title over an error report asks for nothing
    ("ZZPO training", "I'm having an issue.\n`TypeError: reward_fn() missing 1 required positional argument`",
     "issue", (), "bug_report"),
    ("Training results are bad", "The accuracy is only 60% after the default recipe.", "issue", (), "failure_report"),
    ("reward is always 0", "", "issue", (), "failure_report"),
    ("Reproduce the ZZPO results", "I cannot get 50 on the benchmark, only 30.", "issue", (), "failure_report"),
    ("Abnormal training curve", "", "issue", (), "failure_report"),
    ("Eval accuracy worse after training", "", "issue", (), "failure_report"),
    ("ZZPO: Zig-Zag Policy Optimization for Reasoning", "", "issue", (), "proposal"),
    ("Zig-Zag policy optimization (arXiv 2599.01234)", "", "issue", (), "proposal"),
    ("The benchmark score is 10 points below the paper", "", "issue", (), "failure_report"),
    ("Reward stays at 0 during training", "", "issue", (), "failure_report"),
    ("Training reward curve is flat with ZZPO", "", "issue", (), "failure_report"),
    ("Different results between the two rollout engines", "The logprobs mismatch from step 1.", "issue", (),
     "failure_report"),
    ("Validation loss keeps increasing with the default clip range", "", "issue", (), "failure_report"),
    ("grad norm is huge after switching to ZZPO", "", "issue", (), "failure_report"),
    ("Evaluation scores much worse than the other trainer", "Same data and model.", "issue", (), "failure_report"),
    ("Cannot match the reported numbers for the 1.5B recipe", "", "issue", (), "failure_report"),
    ("ZZPO recipe: results deviate a lot from the paper", "", "issue", (), "failure_report"),
    ("训练一段时间后奖励明显下降", "使用默认配置", "issue", (), "failure_report"),
    ("请问如何复现论文里的结果？", "", "issue", (), "question"),
    ("The policy learns reward hacking after 100 steps", "", "issue", (), "failure_report"),
    # feature asks that name no training method (infrastructure, models, logging) are not proposals
    ("[Feature] Support multi-turn rollout with async tool calling", "Please add an agent loop example.", "issue",
     ("enhancement",), "other"),
    ("feat: log trajectories to parquet from the frontend", "This PR adds a `log()` helper.", "pull_request", (),
     "other"),
    ("[Feature] Add an MCP sandbox tool for rollouts", "", "issue", (), "other"),
    ("Support the robot-arm simulator environment", "Would it be possible to add it?", "issue", (), "question"),
    ("feat: add token-level masking to the policy loss", "", "pull_request", (), "proposal"),
    ("on-policy distillation without a reverse-KL loss", "Why not minimise the KL divergence directly?", "issue", (),
     "question"),
    ("not a KL loss for on-policy distillation", "Why was it done this way? Are there any concerns?", "issue", (),
     "question"),
]


@pytest.mark.parametrize(("title", "body", "kind", "labels", "expected"), CASES, ids=[c[0][:40] for c in CASES])
def test_role(title: str, body: str, kind: str, labels: tuple[str, ...], expected: str) -> None:
    role, signal = thread_role(ThreadText(title, body, kind, labels))
    assert (role, bool(signal)) == (expected, True), signal


def test_every_role_is_reachable_and_signals_name_the_cue() -> None:
    assert {c[4] for c in CASES} | {"other"} == set(ROLES)
    role, signal = thread_role(ThreadText("Support for ZZPO", "", "issue"))
    assert role == "proposal" and "Support for" in signal
    assert thread_role(ThreadText("Add ZZPO", "", "pull_request", by_bot=True)) == ("other", "opened by a bot")


def test_an_explicit_ask_beats_a_failure_word_in_the_motivation() -> None:
    body = "Would it be great to support ZZPO? It avoids the entropy collapse we see with the default loss."
    assert thread_role(ThreadText("ZZPO", body, "issue"))[0] == "proposal"


def test_code_blocks_and_quotes_do_not_decide_asks() -> None:
    body = "> please add this\n\n```\nplease add support for X\n```\nI read the code and the ratio looks wrong."
    assert thread_role(ThreadText("ratio in the loss", body, "issue"))[0] == "bug_report"


def test_core_title_strips_tags_and_emoji() -> None:
    assert core_title("🪶 [GRPO] PPO Lite: scale rewards") == "PPO Lite: scale rewards"
    assert core_title("[BREAKING][rollout, algo] feat: x") == "feat: x"


def test_method_names_keep_methods_and_ids_and_drop_infrastructure_words() -> None:
    names = method_names("Add ZZPO-token and REINFORCE-ZZ++ (2599.01234) on 8 GPUs with CUDA, NCCL and vLLM")
    assert names == ["ZZPO-token", "REINFORCE-ZZ++", "2599.01234"]  # in order of appearance
    assert method_names("the zzpo loss, not the repo or a typo") == ["zzpo"]
    assert method_names('ZZPOTrainer(loss_type="dr_zzpo")') == ["ZZPO", "zzpo"]


def test_cue_features_are_the_same_keys_for_every_thread() -> None:
    a = cue_features(ThreadText("Support for ZZPO", "Please add it.", "issue"))
    b = cue_features(ThreadText("fix: typo", "", "pull_request", ("bug",)))
    assert a.keys() == b.keys() and set(a.values()) | set(b.values()) <= {0.0, 1.0}
    assert a["rule_proposal"] == 1.0 and b["rule_other"] == 1.0 and b["pull_request"] == 1.0
