"""The fidelity benchmark finds each framework's mirror: the exact owner+name first, another owner's
folder of the same repository name only when the repository moved and that name is unambiguous."""

from dataclasses import replace
from pathlib import Path

from bench.fidelity import mirror_of
from ingestion import config


def _fw(repo: str, former: tuple[str, ...] = ()) -> config.Framework:
    return replace(config.frameworks()[0], repo=repo, former_repos=former)


def _mirrors(tmp_path: Path, *folders: str) -> Path:
    for folder in folders:
        (tmp_path / folder / "repo").mkdir(parents=True)
    return tmp_path


def test_an_exact_mirror_wins_over_another_owners_repository_of_the_same_name(tmp_path):
    mirrors = _mirrors(tmp_path, "NVIDIA-NeMo+RL", "pytorch+rl")
    assert mirror_of(_fw("pytorch/rl"), mirrors) == mirrors / "pytorch+rl" / "repo"
    assert mirror_of(_fw("NVIDIA-NeMo/RL"), mirrors) == mirrors / "NVIDIA-NeMo+RL" / "repo"


def test_a_moved_repository_is_found_by_its_name_only_when_unambiguous(tmp_path):
    mirrors = _mirrors(tmp_path, "volcengine+verl")
    assert mirror_of(_fw("verl-project/verl"), mirrors) == mirrors / "volcengine+verl" / "repo"
    _mirrors(tmp_path, "someone+verl")
    assert mirror_of(_fw("verl-project/verl"), mirrors) is None
    assert mirror_of(_fw("verl-project/verl", ("volcengine/verl",)), mirrors) == mirrors / "volcengine+verl" / "repo"
