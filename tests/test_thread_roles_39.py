"""Thread roles 3.9 on texts written for these tests (no thread text): an ask's qualifier
("experimental", "initial" support for X) does not hide what it asks for, "Reinforce ++" written with a
space is REINFORCE++, and plural hardware names (NPUs, TPUs) are no methods."""

from ingestion.github.thread_cues import ThreadText
from ingestion.github.thread_methods import method_names
from ingestion.github.thread_roles import rule_role


def _pr(title: str) -> str:
    return rule_role(ThreadText(title, "", "pull_request"))[0]


def test_a_qualified_support_ask_is_for_its_object() -> None:
    assert _pr("feat: Add experimental support for truncated importance sampling") == "proposal"
    assert _pr("Add initial support for ZZPO loss") == "proposal"
    # the same qualifier before a model, hardware or a feature in a method stays no proposal
    assert _pr("Add experimental support for Ascend NPUs") != "proposal"
    assert _pr("feat: add initial support for Zed3 models") != "proposal"
    assert _pr("Add experimental support for multi-turn rollouts in GRPO") != "proposal"


def test_a_spaced_plus_plus_is_the_method() -> None:
    assert method_names("Add Reinforce ++ and self-play") == ["Reinforce++"]
    assert _pr("Add Reinforce ++ baseline") == "proposal"
    assert method_names("x = a ++ b") == [] and method_names("C ++ build fix") == []


def test_plural_hardware_is_no_method() -> None:
    assert method_names("Run on Ascend NPUs and TPUs") == []
