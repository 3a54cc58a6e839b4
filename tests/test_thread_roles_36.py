"""Thread roles 3.6 on texts written for these tests (no thread text): a pull request proposes a
method only when its title (or an arXiv reference) names one; maintenance titles that improve, test or
adjust what exists; a configurable slot; digits inside a method acronym; Chinese titles that say more
than a method name."""

import pytest

from ingestion.github.thread_cues import ThreadText
from ingestion.github.thread_methods import method_names
from ingestion.github.thread_roles import rule_role

NOT_PROPOSALS = [
    ("Integrate and document zed-trainer training", "Docs for training with the external trainer, like ZZPOTrainer."),
    ("ZZPO loss basic unit tests", "Adds twelve tests."),
    ("Off-by-1 ZZPO", "See the run."),
    ("modify some args in train_zzpo bash", ""),
    ("[RL] Improve zed verifier integration", "Adds a hook and a client; ZZPO runs unchanged."),
    ("Add configurable KL penalty reference model", "Lets users pick another checkpoint."),
]


@pytest.mark.parametrize(("title", "body"), NOT_PROPOSALS, ids=[n[0][:24] for n in NOT_PROPOSALS])
def test_pull_requests_that_add_no_method(title: str, body: str) -> None:
    assert rule_role(ThreadText(title, body, "pull_request"))[0] != "proposal"


def test_pull_requests_naming_the_method_they_add() -> None:
    assert rule_role(ThreadText("feat(algorithm): add M2PO for stale rollouts", "", "pull_request"))[0] == "proposal"
    assert rule_role(ThreadText("More TIS features", "Adds options.", "pull_request"))[0] == "proposal"
    body = "- support entropy_mask in https://arxiv.org/abs/2503.14476"
    assert rule_role(ThreadText("[zzpo] entropy mask", body, "pull_request"))[0] == "proposal"


def test_digits_inside_a_method_acronym() -> None:
    assert "M2PO" in method_names("add M2PO for stale-rollout training")
    assert method_names("Qwen2 on A100") == []


@pytest.mark.parametrize("title", ["ZZPO训练效率很低", "zedfactory 和 zedtrl 训练的ZZPO 存在差异"])
def test_a_chinese_title_that_says_more_than_a_method_name_is_no_proposal(title: str) -> None:
    assert rule_role(ThreadText(title, "同样的数据和配置。"))[0] != "proposal"


def test_chinese_stall_and_defect_words() -> None:
    assert rule_role(ThreadText("ZZPO训练失败，模型似乎学习困难", "环境如下。"))[0] == "failure_report"
    assert rule_role(ThreadText("ZZPO trainer 中的 max length 判断疑似存在逻辑漏洞", "应先移除回复。"))[0] == "bug_report"
