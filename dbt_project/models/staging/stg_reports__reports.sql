-- Technical reports of large open-weight models, one row per arXiv id.
select distinct on (arxiv_id)
    arxiv_id,
    model as model_name,
    cast(params_total_b as double precision) as params_total_b,
    cast(params_active_b as double precision) as params_active_b,
    cast(released_at as date) as released_at,
    cast(text_chars as integer) as text_chars
from {{ source('raw_reports', 'reports') }}
order by arxiv_id asc, _dlt_load_id desc
