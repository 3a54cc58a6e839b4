"""The framework registry (dbt seed `frameworks.csv`) names each repository by its current
GitHub owner/name; renamed repositories keep their old names as former names."""

from ingestion import config


def test_renamed_repositories_carry_their_current_name_and_former_names() -> None:
    registry = {f.framework_id: f for f in config.frameworks()}
    # renames recorded on GitHub (old name redirects to the new one)
    assert registry["areal"].repo == "areal-project/AReaL"
    assert "inclusionAI/AReaL" in registry["areal"].former_repos
    assert registry["verl"].repo == "verl-project/verl" and "volcengine/verl" in registry["verl"].former_repos
    assert registry["nemo_rl"].repo == "NVIDIA-NeMo/RL" and "NVIDIA/NeMo-RL" in registry["nemo_rl"].former_repos


def test_no_name_is_both_current_and_former_or_claimed_twice() -> None:
    names = [n.lower() for f in config.frameworks() for n in f.all_repos]
    assert len(names) == len(set(names))
    assert all(n.count("/") == 1 and " " not in n for n in names)
