"""Thread roles 3.7 on texts written for these tests (no thread text): words shouted in capitals in a
pull request's title ("DO NOT MERGE", "FIX") are no method acronyms."""

from ingestion.github.thread_cues import ThreadText, title_acronyms
from ingestion.github.thread_roles import rule_role


def test_shouted_words_are_no_acronyms() -> None:
    assert title_acronyms("DO NOT MERGE zedcompressor sft v2") == []
    assert title_acronyms("FIX: typo in trainer") == []
    assert title_acronyms("Add TIS and MIS") == ["TIS", "MIS"]
    assert title_acronyms("[WIP] ZZPO KL fix") == ["WIP", "ZZPO", "KL"]


def test_a_do_not_merge_branch_proposes_no_method() -> None:
    assert rule_role(ThreadText("DO NOT MERGE zedcompressor sft v2", "", "pull_request"))[0] != "proposal"
    assert rule_role(ThreadText("Add ZZPO loss", "", "pull_request"))[0] == "proposal"


def test_a_reward_curve_that_varies_more_than_published_is_a_failure() -> None:
    body = ("I tried to replicate the published figure with the same data and hyperparameters. "
            "I noticed a significant variability in the reward function, not seen in the original plot.")
    assert rule_role(ThreadText("Reward variability", body, "issue"))[0] == "failure_report"
    assert rule_role(ThreadText("Add reward variance normalization", "Normalize by the group std.", "issue"))[0] \
        != "failure_report"
