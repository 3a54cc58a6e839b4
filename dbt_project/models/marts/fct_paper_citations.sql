-- Every mention of a paper in a framework's default branch: its arXiv id anywhere, or one of its
-- method names where the name is evidence of it (not a rejected alias). Where (file, kind of
-- place, context), when (commit), and whether it is an implementation, a docs page documenting it,
-- or only a citation (a list entry, news, related work, data). fct_method_adoptions keeps the
-- first implementation or documentation per (paper, framework).
select
    l.framework_id || ':' || l.arxiv_id || ':' || l.sha || ':' || l.path || ':' || l.matched_value as citation_id,
    l.arxiv_id,
    l.framework_id,
    l.sha,
    l.path,
    l.place,
    l.mention_context,
    l.match_kind,
    l.matched_value,
    l.committed_at,
    cast(l.committed_at as date) as cited_on,
    l.evidence_grade,
    l.evidence_reason,
    l.is_before_first_version
from {{ ref('int_commits__paper_links') }} as l
where l.evidence_grade <> 'rejected'
