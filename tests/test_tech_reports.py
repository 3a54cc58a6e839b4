"""Tech reports: seed sanity, text extraction, mention rules, and the dlt source in sample mode."""

from __future__ import annotations

import re
from pathlib import Path

import dlt
import duckdb
import pytest

from ingestion.http import PoliteClient
from worlds.sample.report_texts import ABS_ONLY, COLLISIONS, serve_sample_arxiv_web
from worlds.sample.serve import sample_world, write_reports_csv
from worlds.sample.world import METHOD_TOKENS, REAL_METHODS, REPORTS
from ingestion.reports.source import (
    abstract_from_abs_page,
    catalogue,
    extract_mentions,
    fetch_report_text,
    html_to_text,
    seed_reports,
    tech_reports_source,
)

ALIASES = catalogue()


def names(text: str) -> dict[str, int]:
    return {m.method_name: m.occurrences for m in extract_mentions(text, ALIASES)}


def test_seed_holds_real_reports_only() -> None:
    refs = seed_reports()
    assert len(refs) >= 13
    assert len({r.arxiv_id for r in refs}) == len(refs)
    for r in refs:
        assert re.fullmatch(r"\d{4}\.\d{5}", r.arxiv_id)
        assert int(r.arxiv_id[5]) != 9, "9xxxx ids are the sample world's synthetic ones"
        assert r.params_total_b and r.params_total_b >= 20
        assert r.params_active_b is None or r.params_active_b <= r.params_total_b


def test_catalogue_covers_world_methods_and_tokens() -> None:
    methods = {a.method_name for a in ALIASES}
    ids = {a.arxiv_id for a in ALIASES}
    for aid, _t, _d, _v, method, *_ in REAL_METHODS:
        if method:
            assert method in methods and aid in ids
    tokens = {a.alias for a in ALIASES if a.kind == "code_token"}
    assert set(METHOD_TOKENS.values()) <= tokens
    assert {"GRPO", "RLOO", "PPO", "DPO"} <= methods
    for r in REPORTS:
        assert set(r.methods) <= methods


@pytest.mark.parametrize("text, expected", [
    ("We use Group Relative Policy Optimization (GRPO).", {"GRPO": 2}),
    ("a DAPO-style clip-higher and group-relative policy optimization", {"DAPO": 1, "GRPO": 1}),
    ("Our GRPPO baseline and MPPO are not PPO variants we use.", {"PPO": 1}),
    ("the length-unbiased Dr. GRPO loss", {"Dr. GRPO": 1}),
    ("set loss_type=dr_grpo or `gspo` in the config", {"Dr. GRPO": 1, "GSPO": 1}),
    ("REINFORCE++ and REINFORCE leave-one-out (RLOO)", {"REINFORCE++": 1, "RLOO": 2}),
    ("grpo_trainer.py implements ppo too", {"GRPO": 1, "PPO": 1}),
    ("We trained with DPO.", {"DPO": 1}),
])
def test_mention_rules(text: str, expected: dict[str, int]) -> None:
    assert names(text) == expected


def test_common_word_needs_corroboration() -> None:
    assert names("Release artefacts are signed with gpg; the GPG key is on the website.") == {}
    assert names("We compare with Group Policy Gradient (GPG) and GPG variants.") == {"GPG": 3}
    assert names("the gpg baseline of arXiv:2504.02546") == {"GPG": 1}


def test_html_and_abs_parsing() -> None:
    page = ("<html><head><style>p{}</style><script>GRPO()</script></head><body><nav>PPO</nav>"
            "<p>We apply <b>GSPO</b> &amp; more.</p><math><annotation>DAPO</annotation></math></body></html>")
    assert html_to_text(page) == "We apply GSPO & more."
    abs_page = '<blockquote class="abstract mathjax"><span class="descriptor">Abstract:</span>We use RLOO.</blockquote>'
    assert abstract_from_abs_page(abs_page) == "We use RLOO."


def test_fetch_uses_html_then_falls_back_to_abstract_and_retries() -> None:
    http = PoliteClient(min_interval_s=0, backoff_s=0.01)
    with serve_sample_arxiv_web(fail_first=2) as base:
        text, source = fetch_report_text(http, base, "2507.20534")
        assert source == "html" and "Kimi K2" in text and "var x" not in text
        abs_id = next(iter(ABS_ONLY))
        text, source = fetch_report_text(http, base, abs_id)
        assert source == "abs" and text
        assert fetch_report_text(http, base, "2401.00000") == ("", "none")


def test_sample_source_finds_exactly_each_reports_methods(tmp_path: Path) -> None:
    pipe = dlt.pipeline(pipeline_name="tech_reports", destination=dlt.destinations.duckdb(str(tmp_path / "w.duckdb")),
                        dataset_name="raw_reports", pipelines_dir=str(tmp_path / "dlt"))
    with serve_sample_arxiv_web() as web:
        world = sample_world(arxiv_web=web, reports_csv=write_reports_csv(tmp_path / "reports.csv"))
        pipe.run(tech_reports_source(world=world))
        pipe.run(tech_reports_source(world=world))  # rerun: merges, no duplicates
    with duckdb.connect(str(tmp_path / "w.duckdb"), read_only=True) as con:
        got = con.sql("select arxiv_id, method_name, occurrences from raw_reports.report_mentions").fetchall()
        reports = con.sql("select arxiv_id, text_chars, text_source, released_at from raw_reports.reports").fetchall()
    assert len(reports) == len(REPORTS) and all(r[1] > 200 for r in reports)
    assert {r[0] for r in reports if r[2] == "abs"} == set(ABS_ONLY)
    found: dict[str, set[str]] = {}
    for aid, method, occ in got:
        found.setdefault(aid, set()).add(method)
        assert occ >= 2  # every method is named at least twice in the sample text
    assert found == {r.arxiv_id: set(r.methods) for r in REPORTS}
    assert set(COLLISIONS) <= set(found)  # collisions planted in reports that are still loaded
