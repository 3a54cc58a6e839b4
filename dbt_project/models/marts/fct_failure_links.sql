-- Issues reporting a training failure (thread role failure_report, ingestion/github/thread_roles.py), with
-- the kind of failure, linked to the method they name and to the commits and files that implement
-- that method in the same framework. Every failure report is kept: one whose text matches none of
-- the named kinds is `other_failure` (the role decides what a failure is, the kind only sorts them).
with failures as (
    select
        *,
        lower(title || ' ' || coalesce(body, '')) as failure_text
    from {{ ref('int_threads__unified') }}
    where thread_role = 'failure_report'
),

classified as (
    select
        *,
        case
            when
                {{ regex_contains('failure_text', '\\bnan\\b|\\binf\\b|\\bnan loss|loss (becomes|is|goes) (nan|inf)') }}
                then 'nan_or_inf_loss'
            when {{ regex_contains('failure_text', 'entropy (collapse|drops)') }} then 'entropy_collapse'
            when {{ regex_contains('failure_text', 'reward (collapse|falls|drops)') }} then 'reward_collapse'
            when {{ regex_contains('failure_text', 'out of memory|\\boom\\b') }} then 'out_of_memory'
            when {{ regex_contains('failure_text', '\\bdiverg') }} then 'divergence'
            when {{ regex_contains('failure_text', '\\bhangs?\\b|\\bdeadlock|\\bstuck\\b') }} then 'hang'
            when
                {{ regex_contains('failure_text', "not (converg|improv|increas|learn)|no longer (improv|increas)|"
                    ~ "plateau|stagnat|reproduce|worse than|lower than|wrong|incorrect|mismatch") }}
                then 'no_progress_or_wrong_results'
            when {{ regex_contains('failure_text', 'crash|segmentation fault|sigkill|killed|nccl') }} then 'crash'
            else 'other_failure'
        end as failure_kind
    from failures
),

implementations as (
    select
        framework_id,
        arxiv_id,
        string_agg(distinct path, ';' order by path) as implementing_paths,
        string_agg(distinct sha, ';' order by sha) as implementing_commits,
        count(distinct sha) as implementing_commit_count
    from {{ ref('int_commits__paper_links') }}
    group by framework_id, arxiv_id
)

select
    c.thread_id || ':' || coalesce(m.arxiv_id, 'unlinked') as failure_link_id,
    c.thread_id,
    c.framework_id,
    c.number,
    c.title,
    c.failure_kind,
    c.state,
    c.created_at,
    m.arxiv_id,
    i.implementing_paths,
    i.implementing_commits,
    coalesce(i.implementing_commit_count, 0) as implementing_commit_count,
    c.maintainer_replies > 0 as maintainer_replied,
    c.is_complete as thread_is_complete
from classified as c
left join {{ ref('int_threads__paper_mentions') }} as m on c.thread_id = m.thread_id
left join implementations as i on c.framework_id = i.framework_id and m.arxiv_id = i.arxiv_id
