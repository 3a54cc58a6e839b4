"""Thread roles 3.5 on texts written for these tests (no thread text): a metric at zero written with
spaces or as a logged value, "no clear rise" in Chinese, repeated outputs, poor results after training,
update pull requests in Chinese, and methods listed in brackets as the options of an extension point."""

import pytest

from ingestion.github.thread_cues import ThreadText, failure_match
from ingestion.github.thread_roles import rule_role

FAILURES = [
    ("zzpo 训练grad_norm = 0", "第5步起一直这样。"),
    ("ZZPO training", "{'loss': 0.1, 'grad_norm': 0.0, 'reward': 0.3} at every step after warm-up."),
    ("同样的参数训练，reward没有明显的上升", "用的是默认脚本。"),
    ("Low performance after reinforcement learning", "I ran the training script unchanged for a day."),
    ("ZZPO Training: Repeated Output After Normal Output", "After a few steps the rollouts keep repeating."),
]


@pytest.mark.parametrize(("title", "body"), FAILURES, ids=[f[0][:24] for f in FAILURES])
def test_failure_phrasings(title: str, body: str) -> None:
    assert rule_role(ThreadText(title, body))[0] == "failure_report"


def test_a_logged_zero_that_is_not_a_gradient_is_no_stall() -> None:
    assert failure_match("{'loss': 0.0, 'kl': 0.0, 'epoch': 0.01}") is None
    assert failure_match("grad_norm = 0 after step 5") is not None


def test_an_update_pull_request_in_chinese_is_maintenance() -> None:
    assert rule_role(ThreadText("更新 ZZPO 算法", "", "pull_request"))[0] != "proposal"


def test_methods_in_brackets_are_what_an_extension_point_is_asked_for() -> None:
    title = "Add pluggable advantage_estimator for ZZPO (RLOO, REINFORCE++)"
    assert rule_role(ThreadText(title, "Adds an option to choose the estimator.", "pull_request"))[0] == "proposal"
    assert rule_role(ThreadText("Add pluggable advantage_estimator for ZZPO", "Adds a registry.",
                                "pull_request"))[0] != "proposal"
