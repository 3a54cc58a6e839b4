-- RL methods each technical report states, one row per (report, method).
select distinct on (arxiv_id, method_name)
    arxiv_id,
    method_name,
    matched_text,
    cast(occurrences as integer) as occurrences
from {{ source('raw_reports', 'report_mentions') }}
order by arxiv_id asc, method_name asc, _dlt_load_id desc
