-- One row per (paper, framework) the framework implements: dated by the first default-branch
-- commit whose evidence is an implementation or a docs page documenting it as supported
-- (int_commits__paper_links), by its author date (kept by a rebase or a late push). A citation
-- alone (list, news, related work) is not an adoption, and a name that predates the paper is not
-- evidence of it (fct_paper_citations keeps both). A claim the verifier holds back for too little
-- evidence stays in fct_adoption_claims.
select
    adoption_id,
    arxiv_id,
    framework_id,
    first_commit_sha,
    first_commit_path,
    first_committed_at,
    first_authored_at,
    adopted_on,
    days_from_paper,
    first_evidence,
    evidence_grade,
    evidence_reason,
    matched_value,
    first_context,
    is_implemented,
    evidence_kinds,
    evidence_commits,
    confidence,
    is_before_first_version,
    support
from {{ ref('fct_adoption_claims') }}
where is_supported
