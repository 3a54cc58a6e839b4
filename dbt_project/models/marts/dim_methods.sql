-- Named methods: the curated catalogue plus every general-method paper's own name, with the
-- frameworks that carry each and the technical reports that state it.
with catalogue as (
    select
        method_id,
        min(method_name) as method_name,
        min(arxiv_id) as arxiv_id
    from {{ ref('method_catalogue') }}
    group by method_id
),

paper_names as (
    -- one name per general-method paper not in the catalogue: its title acronym, else its defined name
    select
        a.arxiv_id,
        {{ first_by('a.alias_token', "case a.alias_source when 'title_acronym' then 1 else 2 end, a.alias_token") }}
            as method_id,
        {{ first_by('a.alias', "case a.alias_source when 'title_acronym' then 1 else 2 end, a.alias_token") }}
            as method_name
    from {{ ref('int_methods__aliases') }} as a
    inner join {{ ref('dim_papers') }} as p on a.arxiv_id = p.arxiv_id and p.is_general_method
    where
        a.alias_source in ('title_acronym', 'defined_name')
        and not a.is_ambiguous
        and a.arxiv_id not in (select c.arxiv_id from catalogue as c)
    group by a.arxiv_id
),

methods as (
    select
        method_id,
        method_name,
        arxiv_id,
        true as is_curated
    from catalogue
    union all
    select
        method_id,
        method_name,
        arxiv_id,
        false as is_curated
    from paper_names
),

carried_by_adoption as (
    select
        arxiv_id,
        framework_id,
        adopted_on
    from {{ ref('fct_method_adoptions') }}
),

carried_by_code_token as (
    -- methods older than the study window are seen by their curated code token on the default branch
    select
        c.arxiv_id,
        m.framework_id,
        min(cm.committed_date) as adopted_on
    from {{ ref('stg_git__commit_mentions') }} as m
    inner join {{ ref('int_commits__registered') }} as cm
        on m.framework_id = cm.framework_id and m.sha = cm.sha and cm.on_default_branch
    inner join {{ ref('method_catalogue') }} as c
        on
            m.mention_kind = 'token' and m.mention_value = c.alias
            and c.alias_kind = 'code_token' and not c.is_common_word
    where c.arxiv_id not in (select dp.arxiv_id from {{ ref('dim_papers') }} as dp)
    group by c.arxiv_id, m.framework_id
),

carried_any as (
    select * from carried_by_adoption
    union all
    select * from carried_by_code_token
),

carried as (
    select
        arxiv_id,
        framework_id,
        min(adopted_on) as adopted_on
    from carried_any
    group by arxiv_id, framework_id
),

carried_summary as (
    select
        arxiv_id,
        count(*) as frameworks_carrying,
        {{ dbt.listagg('framework_id', "';'", 'order by framework_id') }} as framework_ids,
        min(adopted_on) as first_carried_on
    from carried
    group by arxiv_id
),

reports as (
    select
        c.method_id,
        count(distinct rm.arxiv_id) as reports_stating
    from {{ ref('stg_reports__report_mentions') }} as rm
    inner join catalogue as c on rm.method_name = c.method_name
    group by c.method_id
)

select
    m.method_id,
    m.method_name,
    m.arxiv_id,
    m.is_curated,
    p.arxiv_id is not null as is_in_study_window,
    cast(coalesce(s.frameworks_carrying, 0) as bigint) as frameworks_carrying,
    s.framework_ids,
    s.first_carried_on,
    coalesce(s.frameworks_carrying, 0) >= {{ var('widely_included_min_frameworks') }} as is_widely_included,
    cast(coalesce(r.reports_stating, 0) as bigint) as reports_stating
from methods as m
left join {{ ref('dim_papers') }} as p on m.arxiv_id = p.arxiv_id
left join carried_summary as s on m.arxiv_id = s.arxiv_id
left join reports as r on m.method_id = r.method_id
