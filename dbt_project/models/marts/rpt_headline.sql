-- The study's headline figures, computed from the warehouse, beside the study's own.
with papers as (
    select * from {{ ref('dim_papers') }}
),

included as (
    select distinct arxiv_id from {{ ref('fct_method_adoptions') }}
),

cohorts as (
    select * from {{ ref('fct_cohort_adoption') }}
),

ours as (
    select 1 as sort_order, 'screened_papers' as metric_id, cast(count(*) as varchar) as our_value from papers
    union all
    select 2, 'general_method_papers', cast(count(*) filter (where is_general_method) as varchar) from papers
    union all
    select 3, 'included_papers', cast(count(*) as varchar)
    from included as i inner join papers as p on i.arxiv_id = p.arxiv_id and p.is_general_method
    union all
    select 4, 'inclusion_rate', cast(round(
        (select count(*) from included as i inner join papers as p on i.arxiv_id = p.arxiv_id and p.is_general_method)
        / nullif(count(*) filter (where is_general_method), 0), 3) as varchar)
    from papers
    union all
    select 5, 'cohort_size_range',
        cast(arg_min(papers, cohort_quarter) as varchar) || ' -> ' || cast(arg_max(papers, cohort_quarter) as varchar)
    from cohorts
    union all
    select 6, 'cohort_included_180d_range',
        cast(min(included_within_horizon) as varchar) || ' - ' || cast(max(included_within_horizon) as varchar)
    from cohorts
)

select
    o.sort_order,
    o.metric_id,
    s.metric,
    o.our_value,
    cast(s.study_value as varchar) as study_value
from ours as o
inner join {{ ref('study_headline') }} as s on o.metric_id = s.metric_id
order by o.sort_order
