"""arXiv papers -> `raw_arxiv`.

- `source.arxiv_source` (pipeline `arxiv`): the study's candidate pool from arXiv's query API (Atom),
  or an OAI-PMH back-fill, into `papers` (merge on arxiv_id), `papers_quarantine` (append) and
  `paper_features` (each paper screened by `ingestion.screening` while loading). Incremental: dlt state
  keeps the date windows loaded completely; a run asks the rest plus a recent-updates window.
- `front_matter.arxiv_front_matter_source` (pipeline `arxiv_front_matter`): the arXiv HTML front
  matter (affiliations, footnote code links) of the general-method papers that are due, into
  `paper_front_matter` (merge on arxiv_id); a paper is asked again after its recheck interval.
- `parse` (Atom and arXivRaw records), `pool` (the candidate-pool query), `openalex` (affiliations).
"""
