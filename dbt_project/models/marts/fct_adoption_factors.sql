-- Included vs other general-method papers of the same quarters (quarters with at least one
-- inclusion), for each feature the study compares; once with all papers and once without
-- papers from the frameworks' maintainers.
with included as (
    select distinct arxiv_id from {{ ref('fct_method_adoptions') }}
),

papers as (
    select
        p.cohort_quarter,
        p.is_large_policy,
        p.changes_loss,
        p.releases_code,
        p.is_maintainer_paper,
        i.arxiv_id is not null as is_included
    from {{ ref('dim_papers') }} as p
    left join included as i on p.arxiv_id = i.arxiv_id
    where p.is_general_method
),

included_quarters as (
    select distinct cohort_quarter
    from papers
    where is_included
),

comparable as (
    select p.*
    from papers as p
    inner join included_quarters as q on p.cohort_quarter = q.cohort_quarter
),

populations as (
    select
        'all_papers' as population,
        *
    from comparable
    union all
    select
        'without_maintainer_papers' as population,
        *
    from comparable
    where not is_maintainer_paper
),

factors as (
    select
        population,
        is_included,
        'large_policy' as factor,
        is_large_policy as has_factor
    from populations
    union all
    select
        population,
        is_included,
        'loss_change' as factor,
        changes_loss as has_factor
    from populations
    union all
    select
        population,
        is_included,
        'code_release' as factor,
        releases_code as has_factor
    from populations
),

counts as (
    select
        population,
        factor,
        count(*) filter (where is_included) as included_papers,
        count(*) filter (where is_included and has_factor) as included_with_factor,
        count(*) filter (where not is_included) as other_papers,
        count(*) filter (where not is_included and has_factor) as other_with_factor
    from factors
    group by population, factor
)

select
    population || ':' || factor as factor_row_id,
    population,
    factor,
    included_papers,
    included_with_factor,
    {{ ratio('included_with_factor', 'included_papers') }} as included_share,
    other_papers,
    other_with_factor,
    {{ ratio('other_with_factor', 'other_papers') }} as other_share,
    {{ round_double(
        'cast(included_with_factor as double precision) / nullif(included_papers, 0)'
        ~ ' - cast(other_with_factor as double precision) / nullif(other_papers, 0)', 4
    ) }} as share_gap
from counts
