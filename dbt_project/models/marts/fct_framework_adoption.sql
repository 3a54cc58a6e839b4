-- Per framework: how many papers it adopted, how fast, and through which kind of evidence.
select
    f.framework_id,
    f.display_name,
    count(a.adoption_id) as adoptions,
    count(a.adoption_id) filter (where a.days_from_paper <= {{ var('inclusion_horizon_days') }})
        as adoptions_within_horizon,
    median(a.days_from_paper) as median_days_to_adoption,
    min(a.days_from_paper) as fastest_days_to_adoption,
    round(count(a.adoption_id) filter (where a.first_evidence = 'docs') / nullif(count(a.adoption_id), 0), 4)
        as share_first_seen_in_docs,
    round(count(a.adoption_id) filter (where a.first_evidence <> 'docs') / nullif(count(a.adoption_id), 0), 4)
        as share_first_seen_in_code,
    count(a.adoption_id) filter (where p.is_maintainer_paper and contains(coalesce(p.maintainer_framework_ids, ''), f.framework_id))
        as adoptions_of_own_maintainers_papers
from {{ ref('dim_frameworks') }} as f
left join {{ ref('fct_method_adoptions') }} as a on f.framework_id = a.framework_id
left join {{ ref('dim_papers') }} as p on a.arxiv_id = p.arxiv_id
group by f.framework_id, f.display_name
