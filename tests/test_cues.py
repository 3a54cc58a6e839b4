"""ingestion/cues.py: the first matching cue of a chain, with its signal."""

import re

from ingestion.cues import Cue, first_cue

CHAIN = (
    Cue("survey", re.compile(r"\bsurvey\b", re.I), "title"),
    Cue("benchmark", re.compile(r"\bbench\w*", re.I), "title", label="benchmark in title"),
    Cue("method", re.compile(r"we\s+propose\s+\w+", re.I), "abstract", label=""),
)


def test_first_matching_cue_decides_in_chain_order():
    assert first_cue(CHAIN, title="A Survey of RL Benchmarks", abstract="") == ("survey", "title: Survey")
    assert first_cue(CHAIN, title="Agent Bench", abstract="We propose X") == ("benchmark", "benchmark in title: Bench")


def test_signal_is_the_match_alone_with_an_empty_label_collapsed_and_cut():
    assert first_cue(CHAIN, title="XPO", abstract="Here we\n  propose  XPO.") == ("method", "we propose XPO")
    assert first_cue(CHAIN, width=6, title="XPO", abstract="we propose XPO") == ("method", "we pro")


def test_no_cue_or_missing_text_is_none():
    assert first_cue(CHAIN, title="XPO", abstract=None) is None
