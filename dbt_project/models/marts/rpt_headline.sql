-- The study's headline figures, computed from the warehouse, beside the study's own.
with papers as (
    select * from {{ ref('dim_papers') }}
),

general as (
    select
        p.*,
        p.arxiv_id in (select arxiv_id from {{ ref('fct_method_adoptions') }}) as is_included
    from papers as p
    where p.is_general_method
),

cohorts as (
    select * from {{ ref('fct_cohort_adoption') }}
),

factors as (
    select * from {{ ref('fct_adoption_factors') }}
    where population = 'all_papers'
),

threads as (
    select distinct arxiv_id from {{ ref('fct_method_proposals') }}
),

widely_included as (
    select
        count(*) as methods,
        count(*) filter (where reports_stating > 0) as stated
    from {{ ref('dim_methods') }}
    where is_widely_included
),

ours as (
    select 1 as sort_order, 'screened_papers' as metric_id, cast(count(*) as varchar) as our_value
    from papers
    union all
    select 2, 'general_method_papers', cast(count(*) as varchar) from general
    union all
    select 3, 'included_papers', cast(count(*) filter (where is_included) as varchar) from general
    union all
    select 4, 'inclusion_rate', cast(round(count(*) filter (where is_included) / nullif(count(*), 0), 3) as varchar)
    from general
    union all
    select 5, 'cohort_size_range',
        cast(arg_min(papers, cohort_quarter) as varchar) || ' -> ' || cast(arg_max(papers, cohort_quarter) as varchar)
    from cohorts
    union all
    select 6, 'cohort_included_180d_range',
        cast(min(included_within_horizon) as varchar) || ' - ' || cast(max(included_within_horizon) as varchar)
    from cohorts
    where horizon_fully_observed
    union all
    select
        case factor when 'large_policy' then 7 when 'loss_change' then 8 else 9 end,
        factor || '_gap',
        cast(round(100 * included_share) as integer) || '% vs ' || cast(round(100 * other_share) as integer) || '%'
    from factors
    union all
    select 10, 'no_thread_share',
        cast(round(100 * count(*) filter (where arxiv_id not in (select arxiv_id from threads))
            / nullif(count(*), 0)) as integer) || '%'
    from general
    where not is_included
    union all
    select 11, 'report_mentions', cast(stated as varchar) || ' of ' || cast(methods as varchar)
    from widely_included
)

select
    o.sort_order,
    o.metric_id,
    s.metric,
    o.our_value,
    cast(s.study_value as varchar) as study_value
from ours as o
inner join {{ ref('study_headline') }} as s
    on o.metric_id = s.metric_id
order by o.sort_order
