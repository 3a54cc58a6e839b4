-- Quarterly cohorts of general-method papers (by first-version date): how many reached a
-- framework within the inclusion horizon, how many ever, and whether the horizon has been
-- fully observed yet (late cohorts are censored, not failures).
with papers as (
    select * from {{ ref('dim_papers') }}
    where is_general_method
),

first_adoption as (
    select
        arxiv_id,
        min(days_from_paper) as days_to_first_adoption
    from {{ ref('fct_method_adoptions') }}
    group by arxiv_id
),

observation as (
    select max(committed_date) as observation_end
    from {{ ref('int_commits__registered') }}
),

cohorts as (
    select
        p.cohort_quarter,
        count(*) as papers,
        count(*) filter (
            where a.days_to_first_adoption <= {{ var('inclusion_horizon_days') }}
        ) as included_within_horizon,
        count(a.arxiv_id) as ever_included,
        max(o.observation_end) as observation_end
    from papers as p
    left join first_adoption as a on p.arxiv_id = a.arxiv_id
    cross join observation as o
    group by p.cohort_quarter
)

select
    cohort_quarter,
    {{ quarter_label('cohort_quarter') }} as cohort_label,
    papers,
    included_within_horizon,
    ever_included,
    {{ ratio('included_within_horizon', 'papers') }} as included_within_horizon_rate,
    {{ ratio('ever_included', 'papers') }} as ever_included_rate,
    observation_end,
    cast({{ dbt.dateadd('day', var('inclusion_horizon_days'), dbt.dateadd('month', 3, 'cohort_quarter')) }} as date)
    <= observation_end as horizon_fully_observed
from cohorts
