-- Names each paper's method goes by, normalised to the identifier form commit tokens use, with
-- what the mined histories say about each name (alias hygiene from evidence, not hand lists).
-- Sources: the acronym before a title's colon, the names the screener found the paper defining,
-- and the curated method catalogue (data with its source). Per name:
--   is_framework_name  the name of a tracked framework (named_framework_id), or a name that starts
--                      with it (a work built on it): no method name (but a framework named after its
--                      paper's method, Search-R1 or PRIME, names that method elsewhere), and that
--                      framework's own or built-on paper is not adopted by it
--   predates_paper     the token was in a tracked framework well before the paper's first version
--   is_ordinary_word   its words are common English (wordfreq) or many mined commits carried it
--                      before the paper (document frequency): it counts only in a method context
--   is_ambiguous       several papers claim it and no source ranks one above the others
--   is_model_name      it ends in a version (glm_5, deepseek_v3_2, kimi_k2_5, internvl3), or the mined
--                      histories carry it, or its first word, with two generations glued on (internvl2,
--                      internvl3; nemotron3, nemotron5), or two frameworks write it with a parameter count
--                      as a value (MiMo-7B-RL), or it ends in what it is (joyai_llm, youtu_vl, seed_coder): the
--                      model a recipe trains or serves, not the paper's method
--   is_short_acronym   three letters or fewer (not curated): too short to name one method in code
--                      alone (int_commits__paper_links takes it only beside the paper's id)
--   leads_with_ordinary_word  several words, the first an ordinary one (turn_ppo): in a file or folder
--                      name it counts only where that name starts with it (multi_turn_ppo is another name)
--   is_setting_name    one word plus RL (swe_rl, logic_rl): what is trained, not a method's name
--                      (a curated catalogue name is kept)
-- alias_status: usable | needs_method_context | rejected; alias_reason says why.
with candidates as (
    select
        arxiv_id,
        {{ regex_extract('title', '^([A-Z][A-Za-z0-9.+-]*(?: [A-Z][A-Za-z0-9.+-]*)?):', 1) }} as alias,
        'title_acronym' as alias_source
    from {{ ref('stg_arxiv__papers') }}
    union all
    select
        arxiv_id,
        {{ json_list_as_rows('defined_methods_json') }} as alias,
        'defined_name' as alias_source
    from {{ ref('stg_arxiv__paper_features') }}
    union all
    select
        arxiv_id,
        alias,
        'catalogue' as alias_source
    from {{ ref('method_catalogue') }}
    where alias_kind in ('acronym', 'code_token') and not is_common_word
),

normalised as (
    select distinct
        arxiv_id,
        alias,
        alias_source,
        {{ method_token('alias') }} as alias_token,
        case alias_source when 'catalogue' then 1 when 'title_acronym' then 2 else 3 end as source_rank
    from candidates
    where
        alias <> ''
        -- an alias must look like a name (GSPO, Dr. GRPO, REINFORCE++) unless curated
        and (alias_source = 'catalogue' or length(regexp_replace(alias, '[^A-Z]', '', 'g')) >= 2)
),

named as (
    select *
    from normalised
    where
        length(alias_token) >= 3
        and alias_token not in (select ct.token from {{ ref('common_tokens') }} as ct)
),

paper_claims as (
    -- each paper's best source for a token; the token belongs to the one paper with the best
    -- source (the catalogue, then a title acronym, then a defined name), else to none
    select
        alias_token,
        arxiv_id,
        min(source_rank) as paper_rank
    from named
    group by alias_token, arxiv_id
),

claims as (
    select
        alias_token,
        arxiv_id,
        count(*) over (partition by alias_token) as claimed_by,
        paper_rank = min(paper_rank) over (partition by alias_token)
        and count(*) over (partition by alias_token, paper_rank) = 1 as is_owner
    from paper_claims
),

framework_names as (
    select * from {{ ref('int_frameworks__names') }}
),

framework_cited_ids as (
    -- the arXiv ids each tracked framework's history carries
    select distinct
        m.framework_id,
        m.mention_value as arxiv_id
    from {{ ref('stg_git__commit_mentions') }} as m
    inner join {{ ref('int_commits__registered') }} as c on m.framework_id = c.framework_id and m.sha = c.sha
    where m.mention_kind = 'arxiv_id'
),

token_history as (
    -- when each alias token first appeared in any tracked framework, and its commits with times
    select
        m.mention_value as alias_token,
        m.framework_id,
        c.committed_at,
        max(m.word_zipf) as word_zipf
    from {{ ref('stg_git__commit_mentions') }} as m
    inner join {{ ref('int_commits__registered') }} as c on m.framework_id = c.framework_id and m.sha = c.sha
    where
        m.mention_kind = 'token' and m.mention_value in (select n.alias_token from named as n)
        -- a framework writes its own name from its first commit on: that says nothing of the name's use
        -- elsewhere (a framework named after its method, Search-R1, began before the paper)
        and not exists (
            select fn.token from framework_names as fn
            where fn.framework_id = m.framework_id and fn.token = m.mention_value
        )
    group by m.mention_value, m.framework_id, m.sha, c.committed_at
),

token_use as (
    -- per (paper, token): first use in any framework, the word frequency, and the document
    -- frequency before the paper (share of all mined commits before its first version)
    select
        n.arxiv_id,
        n.alias_token,
        min(h.committed_at) as first_seen_at,
        {{ first_by('h.framework_id', 'h.committed_at, h.framework_id') }} as first_seen_framework_id,
        max(h.word_zipf) as word_zipf,
        count(
            case
                when h.committed_at < p.published_at - interval '{{ var("alias_predates_grace_days") }} days' then 1
            end
        ) as commits_before_paper,
        max(p.published_at) as published_at
    from (
        select distinct
            arxiv_id,
            alias_token
        from named
    ) as n
    inner join token_history as h on n.alias_token = h.alias_token
    left join {{ ref('stg_arxiv__papers') }} as p on n.arxiv_id = p.arxiv_id
    group by n.arxiv_id, n.alias_token
),

commits_before as (
    -- all mined commits before the paper's first version (less the grace): the denominator
    select
        t.arxiv_id,
        t.alias_token,
        count(c.sha) as commits
    from token_use as t
    left join {{ ref('int_commits__registered') }} as c
        on c.committed_at < t.published_at - interval '{{ var("alias_predates_grace_days") }} days'
    group by t.arxiv_id, t.alias_token
),

first_words as (
    -- the first word of each name (the whole name when it has one), with how common it is in English
    -- (read from the mined tokens, which carry their Zipf frequency)
    select
        n.first_word,
        max(m.word_zipf) as word_zipf
    from (
        select distinct split_part(alias_token, '_', 1) as first_word from named
    ) as n
    left join {{ ref('stg_git__commit_mentions') }} as m
        on n.first_word = m.mention_value and m.mention_kind = 'token'
    group by n.first_word
),

glued_generations as (
    -- tokens of a stem with a generation glued on (internvl3, internvl3_5, nemotron5)
    select distinct
        {{ regex_extract('mention_value', '^([a-z]{3,})[0-9]+(_[0-9]+)?$', 1) }} as stem,
        {{ regex_extract('mention_value', '^[a-z]{3,}([0-9]+)(_[0-9]+)?$', 1) }} as generation
    from {{ ref('stg_git__commit_mentions') }}
    where mention_kind = 'token' and {{ regex_contains('mention_value', '^[a-z]{3,}[0-9]+(_[0-9]+)?$') }}
),

model_lines as (
    -- a name, or the first word of a longer one (nemotron_cascade), that the mined histories also carry
    -- with two or more generations glued on (internvl2, internvl3; nemotron3, nemotron5) and that is no
    -- ordinary English word (text2, step3): a model line, whatever its own spelling (a curated catalogue
    -- name is kept)
    select n.alias_token
    from named as n
    inner join first_words as f on split_part(n.alias_token, '_', 1) = f.first_word
    inner join glued_generations as g on f.first_word = g.stem
    where n.alias_source <> 'catalogue' and coalesce(f.word_zipf, 0) < {{ var('ordinary_word_zipf') }}
    group by n.alias_token
    having count(distinct g.generation) >= 2
),

sized_values as (
    -- string values that write a name with a parameter count (`MiMo-7B-RL` -> mimo), per framework
    select distinct
        framework_id,
        {{ regex_extract('mention_value', '^([a-z0-9_]*[a-z])_[0-9]+(_[0-9]+)?_?b(_|$)', 1) }} as alias_token
    from {{ ref('stg_git__commit_mentions') }}
    where
        mention_kind = 'token' and mention_context = 'option_value'
        and {{ regex_contains('mention_value', '^[a-z0-9_]*[a-z]_[0-9]+(_[0-9]+)?_?b(_|$)') }}
),

sized_names as (
    -- names that two or more frameworks write with a parameter count: a model family the frameworks
    -- train, serve or convert (a method's own released checkpoint, FAPO-4B, is named in the one
    -- framework that carries its recipe)
    select alias_token
    from sized_values
    group by alias_token
    having count(distinct framework_id) >= 2
),

leading_words as (
    -- how common in English the first word of each name of several words is: turn_ppo starts with an
    -- ordinary word, dr_grpo not
    select distinct
        n.alias_token,
        f.word_zipf as leading_word_zipf
    from named as n
    inner join first_words as f on split_part(n.alias_token, '_', 1) = f.first_word
    where strpos(n.alias_token, '_') > 0
),

assessed as (
    select
        n.arxiv_id,
        min(n.alias) as alias,
        n.alias_source,
        n.alias_token,
        min(n.source_rank) as source_rank,
        max(c.claimed_by) as claimed_by,
        bool_or(not c.is_owner) as is_ambiguous,
        min(fn.framework_id) as named_framework_id,
        not bool_or(n.alias_token = fn.token) as is_built_on_name,
        max(k.paper_kind) as paper_kind,
        bool_or(n.alias_token = fn.token and fc.arxiv_id is not null) as is_cited_by_named_framework,
        bool_or(
            {{ regex_contains('n.alias_token', '_(v?[0-9]+|[a-z][0-9]+_[0-9]+)(_[0-9]+)?$') }}
            -- a model line's generation glued to its name (internvl3, minicpm4, sail_vl2; not a version prorlv2)
            or {{ regex_contains('n.alias_token', '[a-z][a-uw-z][0-9]+$') }}
            -- a name that ends in what it is, a language, vision-language or code model, maybe with its edition
            -- (JoyAI-LLM Flash, Youtu-VL, Seed-Coder)
            or (
                n.alias_source <> 'catalogue'
                and {{ regex_contains('n.alias_token', '_(llm|vlm|vl|coder)(_[a-z]+)?$') }}
            )
            or ml.alias_token is not null
            or (sn.alias_token is not null and n.alias_source <> 'catalogue')
        ) as is_model_name,
        -- three letters or fewer (ESS, OPD): many things share so short an acronym (a statistic, a
        -- tool); it names this paper's method only beside the paper's id (a curated name is kept)
        bool_or(n.alias_source <> 'catalogue' and length(n.alias_token) <= 3) as is_short_acronym,
        -- one word plus RL (SWE-RL, Logic-RL): a setting trained with RL, a description, not a name
        bool_or(
            n.alias_source <> 'catalogue'
            and {{ regex_contains('n.alias_token', '^([a-z0-9]+_rl|rl_[a-z0-9]+)$') }}
        ) as is_setting_name,
        min(h.first_seen_at) as first_seen_at,
        min(h.first_seen_framework_id) as first_seen_framework_id,
        bool_or(
            h.first_seen_at
            < h.published_at - interval '{{ var("alias_predates_grace_days") }} days'
        ) as predates_paper,
        bool_or(
            coalesce(h.word_zipf, 0) >= {{ var('ordinary_word_zipf') }}
            or coalesce(h.commits_before_paper, 0)
            >= {{ var('ordinary_token_commit_share') }} * greatest(cb.commits, 1)
        ) as is_ordinary_word,
        -- it starts with an ordinary word (turn_ppo, spatial_grpo): inside a longer name it may be a
        -- fragment (multi_turn_ppo) and counts in a file or folder name only where that name starts with it
        bool_or(
            n.alias_source <> 'catalogue' and coalesce(lw.leading_word_zipf, 0) >= {{ var('ordinary_word_zipf') }}
        ) as leads_with_ordinary_word
    from named as n
    inner join claims as c on n.alias_token = c.alias_token and n.arxiv_id = c.arxiv_id
    -- a name that is a framework's name, or starts with it (skyrl_agent: a work built on SkyRL)
    left join framework_names as fn on n.alias_token = fn.token or starts_with(n.alias_token, fn.token || '_')
    left join {{ ref('int_papers__screened') }} as k on n.arxiv_id = k.arxiv_id
    left join framework_cited_ids as fc on fn.framework_id = fc.framework_id and n.arxiv_id = fc.arxiv_id
    left join token_use as h on n.arxiv_id = h.arxiv_id and n.alias_token = h.alias_token
    left join commits_before as cb on n.arxiv_id = cb.arxiv_id and n.alias_token = cb.alias_token
    left join leading_words as lw on n.alias_token = lw.alias_token
    left join model_lines as ml on n.alias_token = ml.alias_token
    left join sized_names as sn on n.alias_token = sn.alias_token
    group by n.arxiv_id, n.alias_source, n.alias_token
),

judged as (
    -- a framework named after its own paper's method (Search-R1, PRIME: the framework cites the paper, a method
    -- or application paper, not a system's): other frameworks that implement the method name it too, so the
    -- name counts there (an unrelated paper that shares a framework's name does not)
    select
        *,
        named_framework_id is not null and not is_built_on_name and is_cited_by_named_framework
        and coalesce(paper_kind in ('general_method', 'application'), false) as is_method_framework_name
    from assessed
)

select
    arxiv_id,
    alias,
    alias_source,
    alias_token,
    cast(claimed_by as integer) as claimed_by,
    coalesce(is_ambiguous, false) as is_ambiguous,
    named_framework_id is not null as is_framework_name,
    named_framework_id,
    coalesce(is_model_name, false) as is_model_name,
    coalesce(predates_paper, false) as predates_paper,
    coalesce(is_ordinary_word, false) as is_ordinary_word,
    coalesce(is_short_acronym, false) as is_short_acronym,
    coalesce(leads_with_ordinary_word, false) as leads_with_ordinary_word,
    first_seen_at,
    case
        when
            named_framework_id is not null and not is_method_framework_name
            or is_ambiguous or is_model_name or is_setting_name
            or coalesce(predates_paper, false)
            then 'rejected'
        when coalesce(is_ordinary_word, false) then 'needs_method_context'
        else 'usable'
    end as alias_status,
    case
        when named_framework_id is not null and is_built_on_name
            then 'named after the framework ' || named_framework_id || ' (a work built on it)'
        when named_framework_id is not null and not is_method_framework_name
            then 'the name of the framework ' || named_framework_id
        when is_ambiguous then 'claimed by ' || cast(claimed_by as varchar) || ' papers'
        when is_model_name then 'a model name'
        when is_setting_name then 'a setting plus RL: describes what is trained, names no method'
        when coalesce(predates_paper, false)
            then 'in ' || first_seen_framework_id || ' since ' || cast(cast(first_seen_at as date) as varchar)
                || ', before the paper'
        when coalesce(is_ordinary_word, false) then 'an ordinary word or identifier'
        else 'a distinctive name'
    end as alias_reason
from judged
