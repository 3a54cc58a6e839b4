-- What each paper's arXiv HTML front matter (title, author block, abstract and their footnotes)
-- says, read while loading by ingestion/arxiv/front_matter.py: one row per paper asked, with the
-- status of that reading (read, no_html, no_front_matter, fetch_failed).
select distinct on (arxiv_id)
    arxiv_id,
    html_url,
    status,
    problem,
    status = 'read' as has_front_matter,
    coalesce(cast(releases_code as boolean), false) as releases_code,
    code_signal,
    code_urls as code_urls_json,
    coalesce(maintainer_framework_ids, '[]') as maintainer_framework_ids_json,
    maintainer_signal,
    coalesce(cast(has_affiliations as boolean), false) as has_affiliations,
    authors as authors_json,
    cast(reader_version as integer) as reader_version
from {{ source('raw_arxiv', 'paper_front_matter') }}
order by arxiv_id asc, _dlt_load_id desc
