import pytest

from ingestion.arxiv_parse import split_arxiv_id
from ingestion.mentions import find_arxiv_ids, find_tokens
from ingestion.tech_reports import canonical_arxiv_id


def test_arxiv_ids_in_every_form_without_version():
    text = (
        "see https://arxiv.org/abs/2503.14476v2 and https://arxiv.org/pdf/2501.03262.pdf, "
        "https://huggingface.co/papers/2507.18071, arXiv:2506.13585, (arXiv: 2505.22617v1), "
        "old hep-th/9901001 and math.AG/0101001v2, arxiv.org/abs/cs/0112017, [arXiv 2504.90001]"
    )
    assert find_arxiv_ids(text) == [
        "2503.14476", "2501.03262", "2507.18071", "2506.13585", "2505.22617",
        "hep-th/9901001", "math/0101001", "cs/0112017", "2504.90001",
    ]


@pytest.mark.parametrize("raw, expected", [
    ("math.GT/0309136v1", "math/0309136"), ("hep-th/9901001v2", "hep-th/9901001"), ("2503.14476v2", "2503.14476"),
])
def test_feed_seed_and_mention_parsers_key_ids_alike(raw, expected):
    """A paper's id from the arXiv feed, a report seed and a commit mention must be the same key."""
    assert split_arxiv_id(raw)[0] == canonical_arxiv_id(raw) == find_arxiv_ids(f"arXiv:{raw}")[0] == expected


def test_arxiv_ids_need_context_and_dedupe():
    assert find_arxiv_ids("version 2503.14476 and lr = 1234.5678") == []
    assert find_arxiv_ids("arXiv:2503.14476 ... arxiv.org/abs/2503.14476v3") == ["2503.14476"]
    assert find_arxiv_ids("arXiv:2513.14476") == []  # month 13
    assert find_arxiv_ids("") == [] and find_arxiv_ids(None) == []


def test_tokens_normalised_and_runs_inside_identifiers():
    tokens = find_tokens(
        'def compute_dr_grpo_loss(self): DrGRPOLoss epsilon_high REINFORCE++ clip-cov '
        'loss_type="gspo" cispo deadbeef1234'
    )
    for t in ("dr_grpo", "compute_dr_grpo_loss", "dr_grpo_loss", "epsilon_high", "reinforce_plus_plus",
              "clip_cov", "gspo", "cispo", "grpo"):
        assert t in tokens, t
    for noise in ("def", "self", "dr", "deadbeef1234", "for"):
        assert noise not in tokens, noise


def test_tokens_drop_keywords_and_short_words():
    assert find_tokens("if x is None: return a or b") == set()
    assert find_tokens(None) == set()
