import pytest

from ingestion.arxiv.parse import split_arxiv_id
from ingestion.git.mentions import contextual_mentions, find_arxiv_ids, find_tokens
from ingestion.reports.source import canonical_arxiv_id


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


def test_mention_contexts_by_kind_of_place():
    from ingestion.git.mentions import contextual_mentions

    code = contextual_mentions(
        'class GSPOLoss:\n    pass\nmode = "dr_grpo"\nparser.add_argument("--use-kl-cov")\n# see arXiv:2507.18071\n',
        "pkg/losses/gspo.py", "added_line", file_added=True).items
    assert code[("token", "gspo_loss")] == "code_def" and code[("token", "dr_grpo")] == "option_value"
    assert code[("token", "use_kl_cov")] == "config_key" and code[("arxiv_id", "2507.18071")] == "code_comment"
    assert code[("token", "gspo")] == "path"  # a new file named after it
    docs = contextual_mentions(
        "# CISPO\n\n**Paper**: https://arxiv.org/abs/2506.13585\n\n"
        "- [2025/07] We support [DAPO](https://arxiv.org/abs/2503.14476)\n"
        "This follows [ORZ](https://arxiv.org/abs/2503.24290) which showed that the KL term is not needed.\n"
        "Run [GMPO](examples/gmpo/run.sh) to try it.\n\n## Awesome work built with us\n\n"
        "### LUFFY\n[paper](https://arxiv.org/abs/2504.14945)\n"
        "```bash\npython train.py algorithm.adv_estimator=opo\n```\n",
        "docs/algo/cispo.md", "added_line").items
    assert docs[("token", "cispo")] == "docs_heading" and docs[("arxiv_id", "2506.13585")] == "docs_text"
    assert docs[("arxiv_id", "2503.14476")] == "news" and docs[("arxiv_id", "2503.24290")] == "inline_citation"
    assert docs[("token", "gmpo")] == "feature_link" and docs[("token", "opo")] == "option_value"
    assert docs[("token", "luffy")] == "related_work" and docs[("arxiv_id", "2504.14945")] == "related_work"


def test_names_in_prose_keep_their_camelcase_whole_and_rst_underlines_open_no_fence():
    from ingestion.git.mentions import contextual_mentions

    subject = contextual_mentions("feat: add ReTool scheduler to GRPOTrainer\n\nbody", "", "message").items
    assert subject[("token", "retool")] == "message" and ("token", "re_tool") in subject  # name and parts
    assert ("token", "grpotrainer") not in subject  # no lower-to-upper step: only its parts
    assert find_arxiv_ids("from [X](https://huggingface/papers/2506.01939)") == ["2506.01939"]  # `.co` lost
    rst = contextual_mentions("Guide\n~~~~~\n\nText.\n\nReferences\n----------\n\n- https://arxiv.org/abs/2509.19128\n",
                              "docs/guide.rst", "added_line").items
    assert rst[("arxiv_id", "2509.19128")] == "related_work"
    badge = contextual_mentions("[![arXiv](https://img.shields.io/badge/arXiv-x-red)](https://arxiv.org/abs/2506.06122)\n",
                                "docs/index.md", "added_line").items
    assert badge[("arxiv_id", "2506.06122")] == "related_work"
    cite_us = contextual_mentions("# Us\n\n```python\n# arXiv:2501.00001\n```\n\n```bibtex\n@article{us,\n"
                                  "  journal={arXiv preprint arXiv:2506.06122},\n}\n```\n", "docs/index.md", "added_line").items
    assert cite_us[("arxiv_id", "2506.06122")] == "related_work"  # a "cite us" block, not code
    assert cite_us[("arxiv_id", "2501.00001")] == "code_comment"
    todo = contextual_mentions('"""Worker.\n\nTODO: GiGPO https://arxiv.org/abs/2505.10978\nsee arXiv:2501.00001\n"""\n',
                               "pkg/worker.py", "added_line").items
    assert todo[("arxiv_id", "2505.10978")] == "inline_citation"  # planned, not implemented
    assert todo[("arxiv_id", "2501.00001")] == "code_comment"
    zh = contextual_mentions("# 算法\n\n## 参考文献\n[1] https://arxiv.org/abs/2504.11343\n", "docs/zh/a.md", "added_line")
    assert zh.items[("arxiv_id", "2504.11343")] == "related_work"  # a Chinese References section
    sized = find_tokens("dapo_17k_with_code: DeepMath-103K")  # data sets named with their size
    assert {"dapo_17k_with_code", "deep_math_103_k"} <= sized and not sized & {"dapo", "deep_math", "with_code"}


def test_contexts_match_the_staging_tests_and_words_are_graded():
    from pathlib import Path

    import yaml

    from ingestion.git.mentions import CONTEXTS
    from ingestion.text import word_zipf

    staging = yaml.safe_load(Path("dbt_project/models/staging/_staging.yml").read_text())
    model = next(m for m in staging["models"] if m["name"] == "stg_git__commit_mentions")
    column = next(c for c in model["columns"] if c["name"] == "mention_context")
    assert column["data_tests"][1]["accepted_values"]["arguments"]["values"] == list(CONTEXTS)
    assert word_zipf("roll") >= 3 and word_zipf("test_time") >= 3  # ordinary words, even joined
    assert word_zipf("gspo") < 3 and word_zipf("reinforce_plus_plus") == 0  # names
    assert {"prorlv2", "prorl"} <= find_tokens("train_prorlv2_math.sh")  # a next version keeps the name


def test_token_rows_per_commit_are_bounded_strongest_first():
    from ingestion.git.mining import MinedCommit, MiningStats, bound_mentions, mentions_in

    c = MinedCommit("s", [], "a", "a@x", None, None, "feat: add")
    c.mention_groups = mentions_in("\n".join(f"name_{i} = {i}" for i in range(50)), "pkg/a.py", "added_line") \
        + mentions_in("def gspo_loss():\n    pass\n", "pkg/new_module.py", "added_line", file_added=True)
    stats = MiningStats()
    bound_mentions(c, stats, limit=10)
    kept = {(m.value, m.context) for m in c.mentions if m.kind == "token"}
    assert len(kept) == 10 and ("gspo_loss", "code_def") in kept and ("new_module", "path") in kept
    assert stats.mentions_over_bound > 0


def test_bound_keeps_each_name_once_before_its_repeats():
    """A first public commit repeats its vocabulary over many files: a name seen once, in a weaker
    place, outranks the tenth copy of a common one."""
    from ingestion.git.mining import MinedCommit, MiningStats, bound_mentions, mentions_in

    c = MinedCommit("s", [], "a", "a@x", None, None, "initial public commit")
    common = "\n".join(f"key_{i}: 1" for i in range(20))
    c.mention_groups = [g for i in range(10) for g in mentions_in(common, f"conf/c{i}.yaml", "added_line")] \
        + mentions_in("gmpo_weight = 0.5\n", "pkg/loss.py", "added_line")
    bound_mentions(c, MiningStats(), limit=25)
    kept = [(m.value, m.path) for m in c.mentions if m.kind == "token"]
    assert len(kept) == 25 and ("gmpo_weight", "pkg/loss.py") in kept
    assert {v for v, _ in kept} >= {f"key_{i}" for i in range(20)}


def test_a_title_before_an_acronym_is_part_of_the_name():
    assert {"dr_grpo", "grpo"} <= find_tokens("| Dr.GRPO | Dr. GRPO |")
    assert "dr_grpo" not in find_tokens("np.grpo e.g. GRPO")


def test_ids_read_whole_where_several_share_a_line_and_work_others_adopt_is_cited():
    line = ("is adopted in recent work such as [Hawk](https://arxiv.org/pdf/2505.00013), "
            "[Owl](https://arxiv.org/pdf/2505.00014).")
    assert find_arxiv_ids(line) == ["2505.00013", "2505.00014"]  # not 2505.0001, cut at a scan window's end
    found = contextual_mentions(f"# Algorithms\n\nThis method {line}\n", "docs/rl-algos.md", "added_line").items
    assert found[("arxiv_id", "2505.00013")] == found[("arxiv_id", "2505.00014")] == "inline_citation"


def test_a_nested_yaml_key_keeps_its_own_value():
    found = contextual_mentions("algorithm:\n  adv_estimator: zzpo\ntrainer:\n  name: run\n", "examples/a.yaml",
                                "file", file_added=True)
    assert found.items[("token", "zzpo")] == "option_value"
    assert found.items[("token", "adv_estimator")] == "config_key"  # not the value of `algorithm:`


def test_a_fenced_config_snippet_in_docs_is_read_as_config():
    page = "# Losses\n\n```yaml\nrl:\n  loss_type: zzpo\n```\n\n```python\nx = 1\n```\n"
    for path in ("docs/losses.md", "docs/losses.qmd"):
        found = contextual_mentions(page, path, "file")
        assert found.items[("token", "zzpo")] == "option_value"
        assert found.items[("token", "loss_type")] == "config_key"


def test_docs_extensions_are_one_list_for_the_miner_and_dbt():
    from pathlib import Path

    import yaml

    from ingestion.git.mentions import DOCS_EXTENSIONS
    from ingestion.git.source import classify_head_path

    project = yaml.safe_load((Path(__file__).resolve().parents[1] / "dbt_project" / "dbt_project.yml").read_text())
    assert project["vars"]["docs_extensions"].split("|") == list(DOCS_EXTENSIONS)
    assert all(classify_head_path(f"docs/page.{ext}", ["docs/"]) == "docs" for ext in DOCS_EXTENSIONS)
