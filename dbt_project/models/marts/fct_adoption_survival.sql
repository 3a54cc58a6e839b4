-- Time to first adoption as a Kaplan-Meier survival table per quarterly cohort of
-- general-method papers: a paper not adopted by the observation end is censored there,
-- so late cohorts are not read as failures.
with papers as (
    select
        p.arxiv_id,
        p.cohort_quarter,
        p.first_version_date,
        min(a.days_from_paper) as days_to_adoption
    from {{ ref('dim_papers') }} as p
    left join {{ ref('fct_method_adoptions') }} as a on p.arxiv_id = a.arxiv_id
    where p.is_general_method
    group by p.arxiv_id, p.cohort_quarter, p.first_version_date
),

observation as (
    select max(committed_date) as observation_end from {{ ref('int_commits__registered') }}
),

durations as (
    select
        p.cohort_quarter,
        cast(case
            when p.days_to_adoption is not null then greatest(p.days_to_adoption, 0)
            else {{ dbt.datediff('p.first_version_date', 'o.observation_end', 'day') }}
        end as integer) as days,
        p.days_to_adoption is not null as is_event
    from papers as p
    cross join observation as o
),

steps as (
    select
        cohort_quarter,
        days,
        count(*) filter (where is_event) as adopted,
        count(*) filter (where not is_event) as censored
    from durations
    group by cohort_quarter, days
),

at_risk as (
    select
        cohort_quarter,
        days,
        adopted,
        censored,
        cast(sum(adopted + censored) over (
            partition by cohort_quarter order by days desc rows between unbounded preceding and current row
        ) as bigint) as papers_at_risk
    from steps
)

select
    cohort_quarter,
    days,
    papers_at_risk,
    adopted,
    censored,
    -- S(t) = prod (1 - d_i / n_i); a step with d = n drops survival to zero
    case
        when min(case when adopted = papers_at_risk then 0 else 1 end) over w = 0 then cast(0 as double precision)
        else {{ round_double(
            'exp(sum(ln(case when adopted < papers_at_risk then 1.0 - cast(adopted as double precision)'
            ~ ' / papers_at_risk else 1.0 end)) over w)', 6
        ) }}
    end as share_not_yet_adopted
from at_risk
window w as (partition by cohort_quarter order by days asc rows between unbounded preceding and current row)
