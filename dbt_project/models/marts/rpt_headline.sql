-- The study's headline figures, computed from the warehouse, beside the study's own.
with papers as (
    select * from {{ ref('dim_papers') }}
),

general as (
    select
        p.*,
        p.arxiv_id in (select a.arxiv_id from {{ ref('fct_method_adoptions') }} as a) as is_included
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
    -- threads that name the method, whatever their role (proposals are a subset)
    select distinct arxiv_id from {{ ref('fct_thread_method_mentions') }}
),

widely_included as (
    select
        count(*) as methods,
        count(*) filter (where reports_stating > 0) as stated
    from {{ ref('dim_methods') }}
    where is_widely_included
),

ours as (
    select
        1 as sort_order,
        'screened_papers' as metric_id,
        cast(count(*) filter (where in_pool) as varchar) as our_value
    from papers
    union all
    select
        2 as sort_order,
        'general_method_papers' as metric_id,
        cast(count(*) as varchar) as our_value
    from general
    union all
    select
        3 as sort_order,
        'included_papers' as metric_id,
        cast(count(*) filter (where is_included) as varchar) as our_value
    from general
    union all
    select
        4 as sort_order,
        'inclusion_rate' as metric_id,
        {{ double_to_text(ratio('count(*) filter (where is_included)', 'count(*)', 3)) }} as our_value
    from general
    union all
    select
        5 as sort_order,
        'cohort_size_range' as metric_id,
        cast({{ first_by('papers', 'cohort_quarter asc') }} as varchar)
        || ' -> '
        || cast({{ first_by('papers', 'cohort_quarter desc') }} as varchar) as our_value
    from cohorts
    union all
    select
        6 as sort_order,
        'cohort_included_180d_range' as metric_id,
        cast(min(included_within_horizon) as varchar)
        || ' - '
        || cast(max(included_within_horizon) as varchar) as our_value
    from cohorts
    where horizon_fully_observed
    union all
    select
        case factor when 'large_policy' then 7 when 'loss_change' then 8 else 9 end as sort_order,
        factor || '_gap' as metric_id,
        cast(cast({{ round_double('100 * included_share') }} as integer) as varchar)
        || '% vs '
        || cast(cast({{ round_double('100 * other_share') }} as integer) as varchar)
        || '%' as our_value
    from factors
    union all
    select
        10 as sort_order,
        'no_thread_share' as metric_id,
        cast(cast({{ round_double(
            '100 * cast(count(*) filter (where arxiv_id not in (select t.arxiv_id from threads as t)) as double precision)'
            ~ ' / nullif(count(*), 0)'
        ) }} as integer) as varchar) || '%' as our_value
    from general
    where not is_included
    union all
    select
        11 as sort_order,
        'report_mentions' as metric_id,
        cast(stated as varchar) || ' of ' || cast(methods as varchar) as our_value
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
