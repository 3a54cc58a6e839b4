"""Method names in threads with the commit side's alias hygiene, and asks that name a method only as
context (written texts; the names are invented or generic)."""

from ingestion.github.thread_cues import ThreadText, ask_object_and_context, method_only_as_context, training_method_named
from ingestion.github.thread_methods import is_model_or_infrastructure, is_ordinary_word, method_names
from ingestion.github.thread_roles import rule_role


def test_models_benchmarks_and_frameworks_are_no_methods() -> None:
    for name in ("UniZVLA", "ZedVLM", "Zed-2.5", "ZZ-V3.2", "FSDP2", "AIME24", "ZedArena", "Zed-Bench", "Zed-R1",
                 "Zed-RL", "TRL", "verl", "Qwen3", "pi05"):
        assert is_model_or_infrastructure(name), name
    for name in ("ZZPO", "GRPO", "REINFORCE++", "ZedRL", "M2PO", "GSPO-token"):
        assert not is_model_or_infrastructure(name), name


def test_an_ordinary_word_names_a_method_only_in_a_method_context() -> None:
    assert is_ordinary_word("CHORD") and not is_ordinary_word("ZZPO")
    assert method_names("We tried CHORD yesterday.") == []
    assert method_names("Add the CHORD algorithm") == ["CHORD"]
    assert method_names("Please support TIS") == ["TIS"]
    assert method_names("Truncated Importance Sampling (TIS) helps") == ["Truncated Importance Sampling", "TIS"]
    assert method_names("> [!NOTE]\n> See CONTRIBUTING.md") == []


def test_qualified_names_technique_phrases_and_ids() -> None:
    text = "Dr. ZZPO vs online ZZPO, with on-policy distillation (arxiv.org/abs/2599.01234v2)"
    assert method_names(text) == ["Dr. ZZPO", "online ZZPO", "on-policy distillation", "2599.01234"]
    assert method_names("Implements ZedPop for off-policy correction") == ["ZedPop"]
    assert method_names("class DataLoader: pass") == []


def test_model_asks_name_no_method() -> None:
    t = ThreadText("[Feature]: Support for ZedVLA models", "Would you add the ZedVLA-7B model to the framework?")
    assert not training_method_named(t)
    assert rule_role(t)[0] != "proposal"


def test_a_method_named_only_as_the_place_of_the_ask() -> None:
    assert ask_object_and_context("Support top_k sampling in ZZPO rollout") == ("Support top_k sampling", "in ZZPO rollout")
    assert method_only_as_context("Support top_k sampling in ZZPO rollout")
    assert method_only_as_context("Add multi-node support for ZZPO trainer")
    assert not method_only_as_context("Add entropy regularization to ZZPO")
    assert not method_only_as_context("Add support to the new ZZPO method")
    assert not method_only_as_context("Add implementation of ZZPO loss")
    t = ThreadText("[Feature Request] Support top_k sampling in ZZPO rollout arguments",
                   "Please add a top_k argument to the ZZPO rollout; it is a sampling option.")
    assert rule_role(t)[0] != "proposal"
    t = ThreadText("[Feature Request] Add entropy regularization to ZZPO", "Please add an entropy bonus to the loss.")
    assert rule_role(t)[0] == "proposal"


def test_extension_points_are_infrastructure() -> None:
    t = ThreadText("feat: expose a registry for custom advantage estimators",
                   "This lets users register a custom advantage estimator through a decorator.", "pull_request")
    assert not training_method_named(t)
    t = ThreadText("feat: add the ZZPO advantage estimator", "Implements the estimator of the ZZPO paper.", "pull_request")
    assert training_method_named(t)


def test_a_maintenance_title_that_also_adds_a_method_is_a_proposal() -> None:
    t = ThreadText("Refactor the estimators and add ZZPO support", "Moves code around.", "pull_request")
    assert rule_role(t)[0] == "proposal"
    t = ThreadText("Refactor the estimators and add type hints", "Moves code around.", "pull_request")
    assert rule_role(t)[0] == "other"


def test_an_introduction_to_methods_is_not_a_proposal() -> None:
    assert rule_role(ThreadText("ZZPO and ZYPO introduction", ""))[0] != "proposal"


def test_asks_for_models_backends_and_extension_points_are_no_proposals() -> None:
    from ingestion.github.thread_cues import ask_for_model_or_infrastructure

    for title in ("Support for ZedVLA models", "Add Megatron backend for ZZPO", "Support Zed-7B-VL",
                  "feat(algorithm): expose register_adv_estimator", "Enable a custom advantage estimator via a hook"):
        assert ask_for_model_or_infrastructure(title), title
    for title in ("Add ZZPO loss", "Add support for ZZPO", "Implements ZedPop and a unified interface for it",
                  "Add a new loss type"):
        assert not ask_for_model_or_infrastructure(title), title
    t = ThreadText("[Feature] Add Megatron backend for ZZPO", "Please support Megatron so that ZZPO scales.")
    assert rule_role(t)[0] != "proposal"


def test_lists_suffixes_and_plus_plus_names() -> None:
    assert method_names("[ZZPO] Sequence-level TIS & MIS") == ["ZZPO", "Sequence-level TIS", "MIS"]
    assert method_names("more algorithms such as reinforce++.") == ["reinforce++"]
    assert method_names("a ZZPO-style example") == ["ZZPO"]
    assert method_names("support ZZPO, SPIN and REINFORCE") == ["ZZPO", "SPIN", "REINFORCE"]
    assert method_names("We SPIN the wheel.") == []


def test_an_existing_method_asked_for_a_model_is_model_coverage() -> None:
    from ingestion.github.thread_cues import method_for_a_model

    for title in ("zzpo for zed3-vl", "ZZPO on multimodal models", "可以实现多模态模型的zzpo吗？", "ZZPO-Multi-Modal-Training"):
        assert method_for_a_model(title), title
    for title in ("Support ZZPO", "Add entropy loss to ZZPO for VLM", "Add ZZPO"):
        assert not method_for_a_model(title), title
    assert rule_role(ThreadText("zzpo for zed3-vl", "When will zzpo support zed3-vl?"))[0] != "proposal"


def test_usage_questions_and_fix_pull_requests_are_no_proposals() -> None:
    t = ThreadText("我应该选择哪个来加入新知识：ZZPO还是ZYPO？", "")
    assert rule_role(t)[0] != "proposal"
    t = ThreadText("KL loss should be differentiable in ZZPO", "Fixes #530", "pull_request")
    assert rule_role(t)[0] == "other"
    t = ThreadText("Add Zed-Factory to readme", "Zed-Factory runs ZZPO.", "pull_request")
    assert rule_role(t)[0] == "other"
