"""Training-failure reports in more phrasings (English and Chinese), running out of memory apart, and
symptoms told of someone else's training (written texts, no thread text)."""

import pytest

from ingestion.github.thread_cues import ThreadText, failure_match, second_hand_only
from ingestion.github.thread_roles import rule_role

FAILURES = [
    ("Model answers with noise after the first step", "After step 1 the outputs are random tokens."),
    ("All prompts get the same response", "No matter what the prompt is, the output is the same answer."),
    ("kl_loss increases rapidly", "The kl loss grows quickly and the reward plateaus."),
    ("Reward suddenly drops", "Around step 300 the reward suddenly drops to a low value."),
    ("Validation reward staying around 0.4", "The eval reward is staying around 0.4 and unable to improve."),
    ("Weights never update", "The model is not updating at all during training."),
    ("KL becomes negative", "During ZZPO training the KL divergence is becoming negative."),
    ("Cannot match your curve", "My val score trend is very different from your logs."),
    ("Abnormal model output", "The policy gives abnormal outputs after a few hundred steps."),
    ("训练后模型胡言乱语", "ZZPO训练之后模型开始胡言乱语。"),
    ("loss不断上涨", "训练过程中loss不断上涨，reward也没有提升。"),
    ("reward 呈现下降趋势", "我用默认参数训练，reward 呈现下降趋势。"),
    ("训练曲线出现突刺", "loss曲线出现突刺。"),
    ("模型不更新", "grad_norm一直为0，模型不更新。"),
]


@pytest.mark.parametrize(("title", "body"), FAILURES, ids=[f[0][:30] for f in FAILURES])
def test_training_failure_phrasings(title: str, body: str) -> None:
    assert rule_role(ThreadText(title, body))[0] == "failure_report"


def test_out_of_memory_alone_is_no_training_failure() -> None:
    t = ThreadText("CUDA out of memory at step 4", "I run ZZPO on 2 GPUs and get an OOM error in the backward pass.")
    assert rule_role(t)[0] == "bug_report"


def test_a_symptom_of_someone_elses_training_is_no_failure_report() -> None:
    text = "Did the authors meet the entropy collapse shown in Figure 3 of the paper? Will the curves be released?"
    assert second_hand_only(text)
    assert rule_role(ThreadText("Question about entropy collapse in the paper", text))[0] != "failure_report"
    own = "When running the ZZPO script the reward collapses. Have the authors encountered a similar situation?"
    assert not second_hand_only(own)
    assert rule_role(ThreadText("Reward collapse", own))[0] == "failure_report"


def test_ordinary_phrases_are_no_symptom() -> None:
    for text in ("Add a new loss to the trainer", "The same config works for both models", "Support KL penalty"):
        assert failure_match(text) is None, text


def test_a_crash_from_running_out_of_memory_is_a_setup_defect() -> None:
    t = ThreadText("Training crashed at step 12", "The worker was killed: CUDA out of memory in the actor update.")
    assert rule_role(t)[0] == "bug_report"
    t = ThreadText("Training crashed at step 12", "The worker was killed with a NCCL timeout.")
    assert rule_role(t)[0] == "failure_report"
    t = ThreadText("Loss becomes NaN, then OOM", "After the loss becomes NaN the run hits OOM.")
    assert rule_role(t)[0] == "failure_report"


def test_a_symptom_said_not_to_happen_is_no_symptom() -> None:
    assert failure_match("The outputs look normal, without empty responses.") is None
    assert failure_match("The model does not collapse.") is None
    assert failure_match("format_reward is not 0, but accuracy_reward becomes 0.") is not None
    assert failure_match("Any reply is welcome!!!!") is None
    assert failure_match("the completions are !!!!!!!!!!!!") is not None


def test_questions_about_a_named_work_and_paper_notes_are_no_failure_reports() -> None:
    t = ThreadText("Did ZedAgent meet the model collapse issue when conducting multi-turn RL?",
                   "I wonder if ZedAgent met the collapse reported for ZedGym. Will the curves be released?")
    assert rule_role(t)[0] != "failure_report"
    t = ThreadText("[Paper Note] Zed: reasoning collapse in agentic RL", "# Abstract\n- We find a template collapse.")
    assert rule_role(t)[0] != "failure_report"


def test_the_learned_combination_gives_no_failure_to_a_symptom_of_others() -> None:
    from ingestion.github.thread_model import LearnedRoles
    import numpy as np

    model = LearnedRoles(["x"], ("failure", "other", "proposal"), np.array([[5.0], [0.0], [0.0]]), np.zeros(3))
    assert model.predict({"x": 1.0}) == "failure"
    assert model.predict({"x": 1.0, "told_by_others": 1.0}) != "failure"
