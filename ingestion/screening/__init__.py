"""Paper screening: judgement over a paper's text, no fetching.

`rules` is the rule screener (kind, RL relevance, policy size, loss change, code release, defined
methods, maintainers, each with its deciding signal); `learned` the learned screener (a committed
JSON model over words and the rules' cues, fitted and cross-validated by `train` on `labelled`
papers); `screener` runs both; `language_model` is the optional language-model screener whose
validated answers override them. The arXiv source calls `screener` and `language_model` while
loading `raw_arxiv.paper_features`.
"""
