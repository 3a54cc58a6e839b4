"""Thread roles 3.4 on texts written for these tests (no thread text): failure reports phrased as
questions, settings at zero, evaluation-only reproductions, DPO dynamics questions, asks for writing or
for released artifacts, migration pull requests, version prefixes and method titles over logs."""

import pytest

from ingestion.github.thread_cues import ThreadText, failure_match
from ingestion.github.thread_roles import rule_role, thread_role

FAILURES_AS_QUESTIONS = [
    ("Is my reward curve normal?", "I train ZZPO on a toy set with the default script."),
    ("ZZPO 训练50步后准确率骤降，请问是什么原因", "用默认配置训练。"),
    ("ZZPO后掉点", "在数学集上训练后掉点。"),
    ("After 300 steps the reasoning length became shorter and shorter", "See my curves."),
    ("这样的训练曲线是正常的吗", "我训练了ZZPO，reward 一直在 0.3。"),
]


@pytest.mark.parametrize(("title", "body"), FAILURES_AS_QUESTIONS, ids=[f[0][:24] for f in FAILURES_AS_QUESTIONS])
def test_failures_phrased_as_questions_are_failure_reports(title: str, body: str) -> None:
    assert rule_role(ThreadText(title, body))[0] == "failure_report"


def test_a_setting_at_zero_is_no_stalled_metric() -> None:
    text = "We evaluate the released checkpoints on the test set with T=0 and temperature=0."
    assert failure_match(text) is None
    assert failure_match("During training the reward is 0 for every step.") is not None


def test_an_evaluation_only_reproduction_is_no_training_failure() -> None:
    title = "Can't reproduce pass@8 of the released ZZ-7B model on a math benchmark"
    body = "I evaluate the public checkpoint with your eval script and get lower numbers."
    assert rule_role(ThreadText(title, body))[0] != "failure_report"
    trained = ("Can't reproduce the paper after ZZPO training", "I trained with your script and the score is lower.")
    assert rule_role(ThreadText(*trained))[0] == "failure_report"


def test_a_question_about_expected_dpo_dynamics_is_no_failure() -> None:
    body = ("Intuitively the chosen rewards should increase, yet rewards/chosen decreases while the margin grows. "
            "Do your chosen rewards decrease too?")
    assert rule_role(ThreadText("Curves of the chosen reward", body))[0] != "failure_report"
    reported = ("DPO训练中rewards/chosen一直为负并且下降", "请问我的配置哪里有问题")
    assert rule_role(ThreadText(*reported))[0] == "failure_report"


def test_an_ask_for_an_article_is_no_proposal() -> None:
    body = "Great course. I came across ZZPO (arXiv 2599.01234). Could you do an article about it?"
    assert thread_role(ThreadText("[Feature Request] ZZPO", body))[0] != "proposal"


def test_an_ask_for_training_logs_is_no_proposal() -> None:
    body = "Thanks for the ZZPO paper (arXiv 2599.01234). Do you have any plans for releasing the training logs?"
    assert thread_role(ThreadText("Plans for releasing the training log?", body))[0] != "proposal"
    assert thread_role(ThreadText("Any plans to support ZZPO?", "It is in arXiv 2599.01234."))[0] == "proposal"


def test_a_migration_pull_request_is_no_proposal() -> None:
    assert rule_role(ThreadText("[Flax] migration prep (3/N): flax-native ZZPO", "", "pull_request"))[0] == "other"
    assert rule_role(ThreadText("Add ZZPO loss", "This PR implements the ZZPO loss.", "pull_request"))[0] == "proposal"


def test_a_version_prefix_is_no_release() -> None:
    assert rule_role(ThreadText("v1.2.3: Live kernels for the ZZPO objective variants", "", "issue"))[0] == "proposal"
    assert rule_role(ThreadText("v1.2.3", "Release notes.", "issue"))[0] == "other"


def test_a_method_title_over_a_training_log_is_no_proposal() -> None:
    body = "{'loss': 0.21, 'rewards/chosen': -0.3, 'rewards/rejected': -7.1, 'epoch': 0.01}\n训练全程如此"
    assert rule_role(ThreadText("ZZPO", body))[0] != "proposal"
    assert rule_role(ThreadText("ZZPO", "Hi, the method looks promising.", "issue", ("enhancement",)))[0] == "proposal"
