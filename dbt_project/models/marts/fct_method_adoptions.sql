-- One row per (paper, framework) the framework implements: dated by the first default-branch
-- commit whose evidence is an implementation or a docs page documenting it as supported
-- (int_commits__paper_links), by its author date (kept by a rebase or a late push). A citation
-- alone (list, news, related work) is not an adoption, and a name that predates the paper is not
-- evidence of it (fct_paper_citations keeps both).
with links as (
    select * from {{ ref('int_commits__paper_links') }}
    where evidence_grade in ('implementation', 'documented')
),

ranked as (
    select
        *,
        cast(authored_at as date) as authored_date,
        row_number() over (
            partition by arxiv_id, framework_id
            order by
                authored_at asc, committed_at asc, confidence desc, path = '' asc, sha asc, path asc,
                matched_value asc
        ) as link_rank
    from links
),

summary as (
    select
        arxiv_id,
        framework_id,
        count(distinct sha) as evidence_commits,
        max(confidence) as best_confidence,
        string_agg(distinct evidence, ';' order by evidence) as evidence_kinds,
        bool_or(evidence_grade = 'implementation') as is_implemented
    from links
    group by arxiv_id, framework_id
)

select
    r.arxiv_id || ':' || r.framework_id as adoption_id,
    r.arxiv_id,
    r.framework_id,
    r.sha as first_commit_sha,
    r.path as first_commit_path,
    r.committed_at as first_committed_at,
    r.authored_at as first_authored_at,
    r.authored_date as adopted_on,
    cast(
        {{ dbt.datediff('p.first_version_date', 'r.authored_date', 'day') }}
        as integer
    ) as days_from_paper,
    r.evidence as first_evidence,
    r.evidence_grade,
    r.evidence_reason,
    r.matched_value,
    r.mention_context as first_context,
    s.is_implemented,
    s.evidence_kinds,
    s.evidence_commits,
    s.best_confidence as confidence,
    r.is_before_first_version
from ranked as r
inner join {{ ref('dim_papers') }} as p on r.arxiv_id = p.arxiv_id
inner join summary as s on r.arxiv_id = s.arxiv_id and r.framework_id = s.framework_id
where r.link_rank = 1
