"""Paper screening: judgement over a paper's text, no fetching.

`rules` is the rule screener (kind, RL relevance, policy size, loss change, code release, defined
methods, maintainers, each with its deciding signal); `language_model` the optional language-model
screener whose validated answers override the rules'. The arXiv source calls them while loading
`raw_arxiv.paper_features`.
"""
