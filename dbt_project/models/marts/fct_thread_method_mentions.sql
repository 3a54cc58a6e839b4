-- Every issue or pull-request thread that names a paper's method (by arXiv id or alias), whatever
-- its role: the study's "threads naming a method" figure. The role (proposal, bug_report,
-- failure_report, question, other) and the cue that decided it say what the thread is about;
-- proposals and their outcome are fct_method_proposals. `is_main_method`: the paper the thread is
-- about, i.e. named in its title, or every paper it names when its title names none (a proposal of
-- GSPO that mentions GRPO in passing is tied to GSPO).
select
    m.thread_id || ':' || m.arxiv_id as mention_id,
    t.thread_id,
    t.framework_id,
    t.number,
    t.thread_kind,
    m.arxiv_id,
    m.match_kind,
    m.named_in_title,
    m.named_in_title or not bool_or(m.named_in_title) over (partition by m.thread_id) as is_main_method,
    t.title,
    t.thread_role,
    t.role_signal,
    t.created_at
from {{ ref('int_threads__paper_mentions') }} as m
inner join {{ ref('int_threads__unified') }} as t on m.thread_id = t.thread_id
inner join {{ ref('dim_papers') }} as p on m.arxiv_id = p.arxiv_id
