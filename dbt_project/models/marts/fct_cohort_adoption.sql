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
    from {{ ref('stg_git__commits') }}
)

select
    p.cohort_quarter,
    strftime(p.cohort_quarter, '%Y') || '-Q' || cast(quarter(p.cohort_quarter) as varchar) as cohort_label,
    count(*) as papers,
    count(*) filter (where a.days_to_first_adoption <= {{ var('inclusion_horizon_days') }}) as included_within_horizon,
    count(a.arxiv_id) as ever_included,
    round(
        count(*) filter (where a.days_to_first_adoption <= {{ var('inclusion_horizon_days') }}) / count(*), 4
    ) as included_within_horizon_rate,
    round(count(a.arxiv_id) / count(*), 4) as ever_included_rate,
    any_value(o.observation_end) as observation_end,
    {{ dbt.dateadd('day', var('inclusion_horizon_days'), dbt.dateadd('month', 3, 'p.cohort_quarter')) }} <= any_value(o.observation_end)
        as horizon_fully_observed
from papers as p
left join first_adoption as a on p.arxiv_id = a.arxiv_id
cross join observation as o
group by p.cohort_quarter
