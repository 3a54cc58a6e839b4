-- Included vs other general-method papers of the same quarters (quarters with at least one
-- inclusion), for each feature the study compares; once with all papers and once without
-- papers from the frameworks' maintainers.
with included as (
    select distinct arxiv_id from {{ ref('fct_method_adoptions') }}
),

papers as (
    select
        p.*,
        i.arxiv_id is not null as is_included
    from {{ ref('dim_papers') }} as p
    left join included as i on p.arxiv_id = i.arxiv_id
    where p.is_general_method
),

comparable as (
    select * from papers
    where cohort_quarter in (select distinct cohort_quarter from papers where is_included)
),

populations as (
    select 'all_papers' as population, * from comparable
    union all
    select 'without_maintainer_papers', * from comparable where not is_maintainer_paper
),

factors as (
    select population, is_included, 'large_policy' as factor, is_large_policy as has_factor from populations
    union all
    select population, is_included, 'loss_change', changes_loss from populations
    union all
    select population, is_included, 'code_release', releases_code from populations
)

select
    population || ':' || factor as factor_row_id,
    population,
    factor,
    count(*) filter (where is_included) as included_papers,
    count(*) filter (where is_included and has_factor) as included_with_factor,
    round(count(*) filter (where is_included and has_factor) / nullif(count(*) filter (where is_included), 0), 4)
        as included_share,
    count(*) filter (where not is_included) as other_papers,
    count(*) filter (where not is_included and has_factor) as other_with_factor,
    round(count(*) filter (where not is_included and has_factor) / nullif(count(*) filter (where not is_included), 0), 4)
        as other_share,
    round(
        count(*) filter (where is_included and has_factor) / nullif(count(*) filter (where is_included), 0)
        - count(*) filter (where not is_included and has_factor) / nullif(count(*) filter (where not is_included), 0),
        4
    ) as share_gap
from factors
group by population, factor
