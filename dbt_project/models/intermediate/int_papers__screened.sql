-- Screening of every landed paper: RL-related, and which kind of contribution it is.
-- Each decision keeps the signal that made it, so a wrong call can be traced.
with papers as (
    select
        *,
        lower(title || ' ' || abstract) as full_text
    from {{ ref('stg_arxiv__papers') }}
),

signals as (
    select
        *,
        regexp_extract(full_text, '(reinforcement learning|policy optimi[sz]ation|rlhf|rlvr|\bgrpo\b|\bppo\b)', 1) as rl_signal,
        regexp_extract(lower(title), '\b(survey|review)\b', 1) as survey_signal,
        regexp_extract(lower(title), '\b(benchmark)\b', 1) as benchmark_signal,
        regexp_extract(lower(title), '\b(dataset|corpus)\b', 1) as dataset_signal,
        regexp_extract(abstract, '(We (?:propose|introduce) [^,]{1,40}, an? (?:new |novel )?(?:policy optimi[sz]ation|reinforcement learning) (?:method|algorithm|objective))', 1) as method_signal,
        regexp_extract(abstract, '(We apply reinforcement learning[^.]*)', 1) as application_signal
    from papers
)

select
    arxiv_id,
    first_version_date,
    rl_signal <> '' as is_rl_related,
    case
        when rl_signal = '' then 'not_rl'
        when survey_signal <> '' then 'survey'
        when benchmark_signal <> '' then 'benchmark'
        when dataset_signal <> '' then 'dataset'
        when method_signal <> '' then 'general_method'
        when application_signal <> '' then 'application'
        else 'analysis'
    end as paper_kind,
    case
        when rl_signal = '' then 'no RL term in title or abstract'
        when survey_signal <> '' then 'title: ' || survey_signal
        when benchmark_signal <> '' then 'title: ' || benchmark_signal
        when dataset_signal <> '' then 'title: ' || dataset_signal
        when method_signal <> '' then 'abstract: ' || method_signal
        when application_signal <> '' then 'abstract: ' || application_signal
        else 'RL term without a method, benchmark or application claim: ' || rl_signal
    end as kind_signal
from signals
