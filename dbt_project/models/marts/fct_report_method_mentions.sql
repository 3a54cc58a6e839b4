-- For every technical report and every widely included method: does the report state it?
with widely_included as (
    select
        method_id,
        method_name
    from {{ ref('dim_methods') }}
    where is_widely_included
)

select
    r.arxiv_id || ':' || w.method_id as report_method_id,
    r.arxiv_id as report_arxiv_id,
    r.model_name,
    r.params_total_b,
    r.released_at,
    w.method_id,
    w.method_name,
    m.arxiv_id is not null as is_stated,
    coalesce(m.occurrences, 0) as occurrences,
    m.matched_text
from {{ ref('stg_reports__reports') }} as r
cross join widely_included as w
left join {{ ref('stg_reports__report_mentions') }} as m
    on r.arxiv_id = m.arxiv_id and w.method_name = m.method_name
