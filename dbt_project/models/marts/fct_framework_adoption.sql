-- Per framework: how many papers it adopted, how fast, and through which kind of evidence.
with adoptions as (
    select
        f.framework_id,
        f.display_name,
        a.adoption_id,
        a.days_from_paper,
        a.first_evidence,
        coalesce(
            p.is_maintainer_paper
            and {{ dbt.position('f.framework_id', "coalesce(p.maintainer_framework_ids, '')") }} > 0,
            false
        ) as is_own_maintainers_paper
    from {{ ref('dim_frameworks') }} as f
    left join {{ ref('fct_method_adoptions') }} as a on f.framework_id = a.framework_id
    left join {{ ref('dim_papers') }} as p on a.arxiv_id = p.arxiv_id
),

per_framework as (
    select
        framework_id,
        display_name,
        count(adoption_id) as adoptions,
        count(adoption_id) filter (
            where days_from_paper <= {{ var('inclusion_horizon_days') }}
        ) as adoptions_within_horizon,
        {{ median('days_from_paper') }} as median_days_to_adoption,
        min(days_from_paper) as fastest_days_to_adoption,
        count(adoption_id) filter (where first_evidence = 'docs') as first_seen_in_docs,
        count(adoption_id) filter (where first_evidence <> 'docs') as first_seen_in_code,
        count(adoption_id) filter (where is_own_maintainers_paper) as adoptions_of_own_maintainers_papers
    from adoptions
    group by framework_id, display_name
)

select
    framework_id,
    display_name,
    adoptions,
    adoptions_within_horizon,
    median_days_to_adoption,
    fastest_days_to_adoption,
    {{ ratio('first_seen_in_docs', 'adoptions') }} as share_first_seen_in_docs,
    {{ ratio('first_seen_in_code', 'adoptions') }} as share_first_seen_in_code,
    adoptions_of_own_maintainers_papers
from per_framework
