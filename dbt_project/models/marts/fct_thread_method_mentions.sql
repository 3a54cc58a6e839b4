-- Every issue or pull-request thread that names a paper's method (by arXiv id or alias), whatever
-- its role: the study's "threads naming a method" figure. The role (proposal, bug_report,
-- failure_report, question, other) and the cue that decided it say what the thread is about;
-- proposals and their outcome are fct_method_proposals.
select
    m.thread_id || ':' || m.arxiv_id as mention_id,
    t.thread_id,
    t.framework_id,
    t.number,
    t.thread_kind,
    m.arxiv_id,
    m.match_kind,
    t.title,
    t.thread_role,
    t.role_signal,
    t.created_at
from {{ ref('int_threads__paper_mentions') }} as m
inner join {{ ref('int_threads__unified') }} as t on m.thread_id = t.thread_id
inner join {{ ref('dim_papers') }} as p on m.arxiv_id = p.arxiv_id
