-- Every (paper, framework) pair the framework's default branch implements or documents as supported
-- (int_commits__paper_links), dated by the first such commit's author date, with how much evidence
-- backs it and the claim verifier's support (seed claim_verifier: a logistic regression over these
-- evidence counts, fitted on judged claims by bench/claim_verifier.py). A pair whose support is under
-- the verifier's threshold (one thin mention of a name, say) is held back: fct_method_adoptions keeps
-- the supported ones.
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
        count(*) as evidence_rows,
        count(distinct path) as evidence_paths,
        count(distinct sha) as evidence_commits,
        max(confidence) as best_confidence,
        string_agg(distinct evidence, ';' order by evidence) as evidence_kinds,
        bool_or(evidence_grade = 'implementation') as is_implemented,
        bool_or(match_kind = 'arxiv_id') as is_named_by_id
    from links
    group by arxiv_id, framework_id
),

claims as (
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
        s.evidence_rows,
        s.evidence_paths,
        s.is_named_by_id,
        p.is_general_method,
        count(*) over (partition by r.arxiv_id) > 1 as is_claimed_elsewhere,
        s.best_confidence as confidence,
        r.is_before_first_version
    from ranked as r
    inner join {{ ref('dim_papers') }} as p on r.arxiv_id = p.arxiv_id
    inner join summary as s on r.arxiv_id = s.arxiv_id and r.framework_id = s.framework_id
    where r.link_rank = 1
),

-- the verifier's inputs, named as in the seed's `feature` column
features as (
    select
        adoption_id,
        ln(1 + evidence_rows) as log_evidence_rows,
        ln(1 + evidence_paths) as log_evidence_paths,
        ln(1 + evidence_commits) as log_evidence_commits,
        cast(is_named_by_id as double) as named_by_id,
        cast(is_implemented as double) as implemented,
        cast(is_claimed_elsewhere as double) as claimed_elsewhere,
        cast(coalesce(is_general_method, false) as double) as general_method
    from claims
),

feature_values as (
    unpivot features
    on
        log_evidence_rows, log_evidence_paths, log_evidence_commits, named_by_id, implemented,
        claimed_elsewhere, general_method
    into name feature value feature_value
),

verifier as (
    select * from {{ ref('claim_verifier') }}
),

scored as (
    select
        v.adoption_id,
        count(*) as features_scored,
        sum((v.feature_value - w.mean) / w.scale * w.coefficient) as linear_score
    from feature_values as v
    inner join verifier as w on v.feature = w.feature
    group by v.adoption_id
)

select
    c.*,
    s.features_scored,
    round(1 / (1 + exp(-(s.linear_score + i.coefficient))), 4) as support,
    1 / (1 + exp(-(s.linear_score + i.coefficient))) >= t.coefficient as is_supported
from claims as c
inner join scored as s on c.adoption_id = s.adoption_id
cross join (select coefficient from verifier where feature = '(intercept)') as i
cross join (select coefficient from verifier where feature = '(threshold)') as t
