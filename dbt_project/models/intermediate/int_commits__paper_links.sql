-- Every mention of a paper on a framework's default branch (its arXiv id, or one of its method
-- aliases as a code token), graded as evidence:
--   implementation  code a user can turn on: a def/class, an option value or config key, a new
--                   file or folder named after it, its id in implementing code, a commit "add X"
--                   changing more than prose pages
--   documented      a docs page (or an example's/recipe's README) documenting it: its heading,
--                   its file name, a config snippet, its id in the page's prose, its id in the
--                   references or lists of a page documenting that method (method_pages)
--   citation        a mention that is no implementation: a list entry, a news line, related work,
--                   a README's prose, data/evaluation/test files, a plain commit message
--   rejected        the alias is not evidence of this paper (see int_methods__aliases), or a name
--                   of ordinary words outside code places (a heading, a fragment of a file name)
-- evidence_reason says what was found and why it counts or not. Only added lines and messages are
-- mined, so deleted code never counts.
{# a page listing the models a framework runs; a folder of model code (architectures, chat templates) #}
{% set models_page = '(supported|available)[-_ ]?models?|models?[-_ ]?(zoo|list|support)' %}
{% set models_folder = '(^|/)[^/]*(models?|templates?)/' %}
{# a commit whose subject is scoped to a model ("[model] add mimo7b", "model: ...", "feat(models): ...") #}
{% set model_commit_subject = '^\\W*(\\[models?\\]|models?\\s*:|[a-z]+\\(models?\\)\\s*:)' %}
{# environments and task sets a framework trains on #}
{% set env_folder = '(^|/)(envs?|environments?|tasksets?|tasks)/' %}
{# a commit subject about a list, a citation, or a model, environment, task set, data set or benchmark #}
{% set subject_names_no_method = '\\b(readme|news|awesome|cite|citation|link|list|blog|projects?|showcase|'
    ~ 'models?|envs?|environments?|tasksets?|datasets?|benchmarks?)\\b' %}
with mentions as (
    select * from {{ ref('int_commits__default_branch_mentions') }}
),

papers as (
    select
        arxiv_id,
        published_at
    from {{ ref('stg_arxiv__papers') }}
),

docs_paths as (
    select
        framework_id,
        unnest({{ split_to_array('docs_paths', ';') }}) as docs_prefix
    from {{ ref('stg_registry__frameworks') }}
),

by_arxiv_id as (
    select
        m.*,
        p.arxiv_id,
        'arxiv_id' as match_kind,
        false as is_known_name,
        'usable' as alias_status,
        'its arXiv id' as alias_reason
    from mentions as m
    inner join papers as p on m.mention_value = p.arxiv_id
    where m.mention_kind = 'arxiv_id'
),

id_commits as (
    -- when a framework carried a paper's arXiv id: within a month of that, an ambiguous, ordinary or
    -- older name of the paper in a method context is taken as its name (an id cited inline for something
    -- else, in related work, news or data corroborates no name)
    select distinct
        framework_id,
        sha,
        arxiv_id,
        committed_at
    from by_arxiv_id
    where mention_context not in ('inline_citation', 'related_work', 'news', 'data')
),

aliases as (
    -- one judgement per (paper, token): a name from several sources is still one name
    select
        arxiv_id,
        alias_token,
        alias_status,
        alias_reason,
        is_framework_name,
        is_model_name,
        bool_or(leads_with_ordinary_word) as leads_with_ordinary_word,
        bool_or(alias_source = 'catalogue') as is_catalogued,
        bool_or(is_short_only) as is_short_only
    from (
        -- an acronym of three letters or fewer (ESS, OPD) is shared by too many things (a statistic,
        -- a tool) to name this paper's method in code alone: only beside its arXiv id (corroborated)
        select
            arxiv_id,
            alias_token,
            alias_source,
            is_framework_name,
            is_model_name,
            leads_with_ordinary_word,
            is_short_acronym and alias_status = 'usable' as is_short_only,
            case when is_short_acronym and alias_status <> 'rejected' then 'rejected' else alias_status end
                as alias_status,
            case
                when is_short_acronym and alias_status <> 'rejected'
                    then 'an acronym of three letters or fewer: named only beside its arXiv id'
                else alias_reason
            end as alias_reason
        from {{ ref('int_methods__aliases') }}
    ) as a
    group by arxiv_id, alias_token, alias_status, alias_reason, is_framework_name, is_model_name
),

corroborated as (
    -- an ambiguous, ordinary or older name (not a framework's name) in a method context, within a
    -- month of the paper's arXiv id in the same framework
    select distinct
        m.framework_id,
        m.sha,
        m.path,
        m.mention_value,
        a.arxiv_id
    from mentions as m
    inner join aliases as a on m.mention_value = a.alias_token
    inner join id_commits as i
        on
            m.framework_id = i.framework_id and a.arxiv_id = i.arxiv_id
            and i.committed_at between m.committed_at - interval '30 days' and m.committed_at + interval '30 days'
    where
        m.mention_kind = 'token'
        and a.alias_status <> 'usable' and not a.is_framework_name and not a.is_model_name
        and m.mention_context in ('path', 'code_def', 'option_value', 'config_key', 'docs_heading')
),

names_beside_ids as (
    -- which papers' ids a file (or message) cites where it names something in code or a heading
    select distinct
        t.framework_id,
        t.mention_value as alias_token,
        i.mention_value as arxiv_id
    from mentions as t
    inner join mentions as i
        on t.framework_id = i.framework_id and t.sha = i.sha and t.path = i.path
    inner join papers as p on i.mention_value = p.arxiv_id
    where
        t.mention_kind = 'token' and i.mention_kind = 'arxiv_id'
        and t.mention_value in (select a.alias_token from aliases as a)
        and t.mention_context in (
            'path', 'code_def', 'option_value', 'config_key', 'code_name', 'docs_heading', 'message'
        )
        and i.mention_context not in ('related_work', 'news', 'data')
),

named_by_another as (
    -- a name that sits beside one other paper's id in two or more frameworks and never beside its own
    -- paper's id is that other paper's name (an acronym two methods share: DPPO in one paper's title, in
    -- the frameworks beside another's id)
    select
        a.arxiv_id,
        a.alias_token,
        min(n.arxiv_id) as other_arxiv_id
    from aliases as a
    inner join names_beside_ids as n on a.alias_token = n.alias_token and a.arxiv_id <> n.arxiv_id
    where
        not exists (
            select 1 as hit from names_beside_ids as o
            where o.alias_token = a.alias_token and o.arxiv_id = a.arxiv_id
        )
    group by a.arxiv_id, a.alias_token, n.arxiv_id
    having count(distinct n.framework_id) >= 2
),

code_tokens as (
    -- tokens code defines or sets (the places a short or fragmentary name is judged in)
    select
        framework_id,
        sha,
        path,
        mention_value,
        mention_context
    from mentions
    where mention_kind = 'token' and mention_context in ('code_def', 'config_key', 'option_value', 'code_name')
),

short_aliases as (
    select distinct alias_token
    from aliases
    where is_short_only
),

loss_suffixes as (
    select '_loss' as suffix
    union all
    select '_advantage' as suffix
    union all
    select '_estimator' as suffix
    union all
    select '_objective' as suffix
),

loss_prefixes as (
    select 'use_' as prefix
    union all
    select 'enable_' as prefix
    union all
    select 'compute_' as prefix
),

short_loss_names as (
    -- the identifiers that name a short acronym's loss, advantage or objective (`use_dft_loss`, `opd_advantage`)
    select
        a.alias_token,
        a.alias_token || s.suffix as loss_token
    from short_aliases as a
    cross join loss_suffixes as s
    union all
    select
        a.alias_token,
        p.prefix || a.alias_token || '_loss' as loss_token
    from short_aliases as a
    cross join loss_prefixes as p
),

short_as_loss as (
    -- a short acronym the same file's code names as a loss, advantage or objective: there it names the
    -- method, as a longer name would
    select distinct
        m.framework_id,
        m.sha,
        m.path,
        n.alias_token
    from code_tokens as m
    inner join short_loss_names as n on m.mention_value = n.alias_token
    inner join code_tokens as l
        on
            m.framework_id = l.framework_id and m.sha = l.sha and m.path = l.path
            and n.loss_token = l.mention_value and l.mention_context <> 'code_name'
    where m.mention_context <> 'code_name'
),

code_token_words as (
    -- a code token's first word and the rest
    select
        framework_id,
        sha,
        path,
        split_part(mention_value, '_', 1) as first_word,
        substr(mention_value, strpos(mention_value, '_') + 1) as after_first_word
    from code_tokens
    where strpos(mention_value, '_') > 0
),

fragment_prone_aliases as (
    -- names of several words whose first word is an ordinary one (world_env, turn_ppo)
    select distinct alias_token
    from aliases
    where leads_with_ordinary_word and not is_catalogued and strpos(alias_token, '_') > 0
),

inside_longer_identifier as (
    -- such a name in code inside a longer identifier of the same file (`app_world_env`, `multi_turn_ppo`:
    -- one more word before it) is a fragment of another thing's name. A verb or flag before the name
    -- (`use_turn_ppo`, `compute_turn_ppo`) names the thing itself.
    select distinct
        l.framework_id,
        l.sha,
        l.path,
        a.alias_token
    from code_token_words as l
    inner join fragment_prone_aliases as a on l.after_first_word = a.alias_token
    where
        l.first_word not in (
            'use', 'enable', 'compute', 'apply', 'run', 'get', 'set', 'build', 'make', 'init', 'is', 'has', 'with',
            'do', 'add', 'create', 'default', 'test', 'load', 'train', 'my'
        )
),

by_alias as (
    select
        m.framework_id,
        m.sha,
        m.path,
        m.mention_kind,
        m.mention_value,
        m.mention_location,
        m.mention_context,
        m.committed_at,
        m.authored_at,
        m.message,
        m.files_changed,
        a.arxiv_id,
        'alias' as match_kind,
        a.is_catalogued or c.sha is not null as is_known_name,
        case
            when c.sha is not null then 'usable'
            when m.fragment_of_longer_name and a.leads_with_ordinary_word and not a.is_catalogued then 'rejected'
            when sl.sha is not null and a.alias_status = 'rejected' and a.is_short_only then 'usable'
            when fi.sha is not null and m.mention_context in ('code_def', 'config_key', 'option_value', 'code_name')
                then 'rejected'
            else a.alias_status
        end as alias_status,
        case
            when c.sha is not null then 'with its arXiv id in the framework within a month'
            when m.fragment_of_longer_name and a.leads_with_ordinary_word and not a.is_catalogued
                then 'a fragment of a longer file or folder name (the name starts with an ordinary word)'
            when sl.sha is not null and a.alias_status = 'rejected' and a.is_short_only
                then 'a short acronym the code names as a loss or advantage (`use_dft_loss`)'
            when fi.sha is not null and m.mention_context in ('code_def', 'config_key', 'option_value', 'code_name')
                then 'a fragment of a longer identifier in the same file (`app_world_env`; the name starts with an '
                    || 'ordinary word)'
            else a.alias_reason
        end as alias_reason
    from (
        -- a name in a file or folder name that no part of the path starts with: inside a longer name
        select
            *,
            mention_context = 'path'
            and strpos(
                '/' || regexp_replace(lower(path), '[^a-z0-9/]+', '_', 'g') || '/', '/' || mention_value || '_'
            ) = 0
            and strpos(
                '/' || regexp_replace(lower(path), '[^a-z0-9/]+', '_', 'g') || '/', '/' || mention_value || '/'
            ) = 0 as fragment_of_longer_name
        from mentions
    ) as m
    inner join (
        select
            a.arxiv_id,
            a.alias_token,
            a.is_framework_name,
            a.is_model_name,
            a.is_catalogued,
            a.leads_with_ordinary_word,
            a.is_short_only,
            case when nb.arxiv_id is null then a.alias_status else 'rejected' end as alias_status,
            case
                when nb.arxiv_id is null then a.alias_reason
                else 'the name of ' || nb.other_arxiv_id || ' (beside its arXiv id in two or more frameworks, '
                    || 'never beside this paper''s)'
            end as alias_reason
        from aliases as a
        left join named_by_another as nb on a.arxiv_id = nb.arxiv_id and a.alias_token = nb.alias_token
    ) as a on m.mention_value = a.alias_token
    left join corroborated as c
        on
            m.framework_id = c.framework_id and m.sha = c.sha and m.path = c.path
            and m.mention_value = c.mention_value and a.arxiv_id = c.arxiv_id
    left join short_as_loss as sl
        on m.framework_id = sl.framework_id and m.sha = sl.sha and m.path = sl.path and m.mention_value = sl.alias_token
    left join inside_longer_identifier as fi
        on m.framework_id = fi.framework_id and m.sha = fi.sha and m.path = fi.path and m.mention_value = fi.alias_token
    where m.mention_kind = 'token'
),

linked as (
    select * from by_arxiv_id
    union all
    select * from by_alias
),

placed as (
    -- the kind of place: message, data (data, evaluation, benchmarks, tests, vendored code), news (blogs, release
    -- notes), docs, readme (a README outside examples), example (examples, recipes, scripts), code
    select
        l.*,
        case
            when l.path = '' then 'message'
            -- tests, evaluation folders (evals/, eval_environments/, offline_eval/), benchmarks, vendored code
            when {{ regex_contains('lower(l.path)',
                '(^|/)(tests?|(evals?|evaluations?)([-_][^/]*)?|[^/]*[-_](evals?|evaluations?)|[^/]*bench[^/]*|docker|'
                ~ 'third_party|vendor|patch(es)?)/') }}
                then 'data'
            -- a data folder holds data; inside a package its code is the package's data handling
            -- (torchrl/data/replay_buffers/samplers.py), while a datasets module loads named datasets (cites
            -- them) and an example's data folder prepares one (examples/data/mathset_90k.py)
            when {{ regex_contains('lower(l.path)', '(^|/)(data|datasets?)/') }}
                and not (
                    {{ regex_contains('lower(l.path)', '^[^/]+/(.*/)?data/.*\\.(py|pyx|rs|cpp|cu|go|ts|js)$') }}
                    and not {{ regex_contains('lower(l.path)', '(^|/)(examples?|recipes?|scripts?|tools?)/') }}
                )
                then 'data'
            -- a hidden folder holds the repository's tooling (CI jobs, assistants' skills, editor settings)
            when {{ regex_contains('l.path', '(^|/)[.][^/]+/') }} then 'data'
            -- a copy of another tracked framework's file (int_commits__copied_files)
            when cp.path is not null then 'data'
            -- a user interface (a frontend, a desktop app, its translations) implements no training method
            when {{ regex_contains('lower(l.path)', '(^|/)(frontend|src-tauri|i18n|locales?)/') }} then 'data'
            -- a dependency manifest names the packages the framework installs, not methods it implements
            when {{ regex_contains('lower(l.path)',
                '(^|/)(pyproject\\.toml|setup\\.(py|cfg)|requirements[^/]*\\.(txt|in)|package(-lock)?\\.json|[^/]*\\.lock|environment\\.ya?ml|pipfile)$') }}
                then 'data'
            -- code that connects an external system (an integrations folder) uses that system, it implements no method
            when {{ regex_contains('lower(l.path)', '(^|/)[^/]*integrations?/') }} then 'data'
            -- a docs page showcasing projects built with the framework cites them
            when {{ regex_contains('lower(l.path)',
                '(^|/)([^/]*[-_])?docs?([-_][^/]*)?/(.*/)?(projects?|showcases?|gallery|community|publications|use[-_]?cases)/') }}
                then 'news'
            when {{ regex_contains('lower(l.path)', '(^|/)(blogs?|news|release[-_]?notes?|changelog)([/.]|$)') }}
                then 'news'
            when exists (
                    select 1 as hit from docs_paths as d
                    where d.framework_id = l.framework_id and starts_with(l.path, d.docs_prefix)
                ) then 'docs'
            -- any docs tree: a package's docs/, old_docs/, a docs site (docs_<name>/, docs-site/)
            when {{ regex_contains('lower(l.path)', '(^|/)([^/]*[-_])?docs?([-_][^/]*)?/') }} then 'docs'
            when {{ regex_contains('lower(l.path)', '(^|/)(examples?|recipes?|scripts?)/') }} then 'example'
            when {{ regex_contains('lower(l.path)', '(^|/)readme[^/]*$') }} then 'readme'
            else 'code'
        end as place,
        {{ regex_contains('lower(l.path)', '\\.(' ~ var('docs_extensions') ~ ')$') }} as is_docs_file,
        {{ regex_contains('lower(l.path)', '\\.ipynb$') }} as is_notebook,
        -- the path's parts in token form, each between slashes: '/examples/search_r1_like/run_sh/'
        '/' || regexp_replace(lower(l.path), '[^a-z0-9/]+', '_', 'g') || '/' as path_parts,
        -- a page's name: its file's, or its folder's for an index page (docs/gspo.md, docs/cispo/index.md)
        regexp_replace(
            regexp_replace(l.path, '/(index|readme)\.[A-Za-z]+$', '', 'i'), '^.*/|\.[A-Za-z]+$', '', 'g'
        ) as page_name
    from linked as l
    left join {{ ref('int_commits__copied_files') }} as cp on l.framework_id = cp.framework_id and l.path = cp.path
),

dataset_files as (
    -- a file named after a name whose content names a data set built on it (`dapo_17k`: the name
    -- and a size): the file is about the data set
    select distinct
        l.framework_id,
        l.sha,
        l.path,
        l.mention_value
    from linked as l
    inner join mentions as d
        on l.framework_id = d.framework_id and l.sha = d.sha and l.path = d.path
    where
        l.match_kind = 'alias' and l.mention_context = 'path' and d.mention_kind = 'token'
        and starts_with(d.mention_value, l.mention_value || '_')
        and {{ regex_contains('substr(d.mention_value, length(l.mention_value) + 2)', '^[0-9]+[km](_|$)') }}
),

model_sized_names as (
    -- a name the same file also writes with a parameter count (`Seed-Coder-8B-Base`, `kestrel_7b`) as a
    -- string: a model's name (registrations, download tables, templates), not a training method
    select distinct
        framework_id,
        sha,
        path,
        {{ regex_extract('mention_value', '^([a-z0-9_]*[a-z])_[0-9]+_?b(_|$)', 1) }} as alias_token
    from mentions
    where
        mention_kind = 'token' and mention_context = 'option_value'
        and {{ regex_contains('mention_value', '^[a-z0-9_]*[a-z]_[0-9]+_?b(_|$)') }}
),

method_pages as (
    -- a docs page dedicated to a method: one in an algorithms folder (docs/algo/, algorithms/), or one
    -- named after this paper's method (its file, or its folder for an index page: docs/gspo.md,
    -- docs/cispo/index.md). The paper's id in its references or lists is the method it documents.
    select
        l.framework_id,
        l.sha,
        l.path,
        l.arxiv_id,
        bool_or(a.arxiv_id is not null) as is_named_page
    from placed as l
    left join aliases as a
        on
            l.arxiv_id = a.arxiv_id and not a.is_framework_name and not a.is_model_name
            and strpos('_' || {{ method_token('l.page_name') }} || '_', '_' || a.alias_token || '_') > 0
    where l.match_kind = 'arxiv_id' and l.place = 'docs' and l.is_docs_file
    group by l.framework_id, l.sha, l.path, l.arxiv_id
    having
        bool_or(a.arxiv_id is not null)
        or bool_or({{ regex_contains('lower(l.path)', '(^|/)(algo|algos|algorithms?)/') }})
),

kinds as (
    select
        s.arxiv_id,
        s.paper_kind,
        -- the screener read an abstract and found no RL method in it (a title alone decides nothing)
        s.paper_kind = 'not_rl' and coalesce(p.abstract, '') <> '' as is_read_not_rl,
        coalesce(s.is_model_report, false) as is_model_report
    from {{ ref('int_papers__screened') }} as s
    inner join {{ ref('stg_arxiv__papers') }} as p on s.arxiv_id = p.arxiv_id
),

own_folders as (
    -- the names of papers named after a framework: the framework's own name (AReaL), or a name made from it
    -- (SkyRL-Agent: a sub-project's, in its top-level folder, or a work built on the framework elsewhere)
    select distinct
        arxiv_id,
        named_framework_id as framework_id,
        alias_token
    from {{ ref('int_methods__aliases') }}
    where named_framework_id is not null
),

own_papers as (
    -- a framework's own system paper, and whether its name is the framework's name itself; or a paper the
    -- framework's top-level README asks to cite in its BibTeX block (ASearcher's, Guru for Reasoning360: its
    -- own paper, whatever its name), which counts wherever the framework cites it by id
    select
        arxiv_id,
        framework_id,
        bool_or(names_the_framework) as names_the_framework
    from (
        select
            o.arxiv_id,
            o.framework_id,
            n.token is not null as names_the_framework
        from own_folders as o
        left join {{ ref('int_frameworks__names') }} as n
            on o.framework_id = n.framework_id and o.alias_token = n.token
        union all
        select
            mention_value as arxiv_id,
            framework_id,
            true as names_the_framework
        from mentions
        where
            mention_kind = 'bibtex_id' and strpos(path, '/') = 0
            and {{ regex_contains('lower(path)', '^readme') }}
    ) as own
    group by arxiv_id, framework_id
),

prose_only_commits as (
    -- commits whose every changed file is a prose page (README, docs): their "add X" adds X to a list or a
    -- page, not to the code (a file without mentions leaves a commit undecided, and so not prose-only)
    select
        framework_id,
        sha
    from mentions
    where
        path <> ''
        and sha in (
            select x.sha from mentions as x
            where x.mention_location = 'message'
        )
    group by framework_id, sha, files_changed
    having
        bool_and({{ regex_contains('lower(path)', '\\.(' ~ var('docs_extensions') ~ ')$') }})
        and count(distinct path) >= files_changed
),

message_ids as (
    -- how many papers each commit message cites by id
    select
        framework_id,
        sha,
        count(distinct mention_value) as message_ids
    from mentions
    where mention_kind = 'arxiv_id' and mention_location = 'message'
    group by framework_id, sha
),

graded as (
    select
        pl.*,
        k.paper_kind,
        k.is_read_not_rl,
        coalesce(k.is_model_report, false) as is_model_report,
        o.framework_id is not null as is_own_paper,
        ds.sha is not null as is_dataset_file,
        mp.arxiv_id is not null as is_method_page,
        ms.sha is not null as is_model_sized,
        ids.message_ids,
        case
            when pl.alias_status = 'rejected' then 'rejected'
            -- the paper that introduces the framework (its name is the paper's name), cited by id anywhere in
            -- the framework's own repository, is what the framework implements (the truth's convention); a
            -- paper named after the framework (X-Agent) only inside its own sub-project's folder (elsewhere it
            -- is a work built on the framework, which a README may list)
            when
                o.framework_id is not null and pl.match_kind = 'arxiv_id'
                and (o.names_the_framework or f.arxiv_id is not null)
                then 'documented'
            when pl.place in ('data', 'news') then 'citation'
            when pl.place = 'readme' and pl.mention_context not in ('docs_heading', 'feature_link') then 'citation'
            -- its id in the references or a list of a page documenting that method (not a paper without an
            -- RL method, nor a data set, benchmark or survey: those are background)
            when
                mp.arxiv_id is not null and o.framework_id is null
                and coalesce(k.paper_kind, '') not in ('not_rl', 'dataset', 'benchmark', 'survey')
                and (
                    pl.mention_context in ('docs_list', 'related_work')
                    or (pl.mention_context = 'inline_citation' and mp.is_named_page)
                )
                then 'documented'
            when pl.mention_context in ('related_work', 'news', 'docs_list', 'inline_citation', 'data') then 'citation'
            -- a name of ordinary words names the method only as a file or folder named after it (a path part
            -- that starts with it: `search_r1_like/`, not `run_tinker_reasoning_search.sh`, a fragment of a
            -- longer name) or beside its paper's id; in code, prose or a heading it is the ordinary word
            -- (`def divert`, `sem`aphore, `stitch_session`, a `tree_training` flag of another method)
            when
                pl.alias_status = 'needs_method_context'
                and not (
                    pl.mention_context = 'path'
                    and (
                        strpos(pl.path_parts, '/' || pl.mention_value || '_') > 0
                        or strpos(pl.path_parts, '/' || pl.mention_value || '/') > 0
                    )
                )
                then 'rejected'
            when k.paper_kind in ('dataset', 'benchmark', 'survey') then 'citation'
            -- a name in an environments or task sets folder names what is trained on (an environment, a data
            -- source, an external task service), not a training method
            when
                pl.match_kind = 'alias' and not pl.is_known_name
                and {{ regex_contains('lower(pl.path)', env_folder) }}
                then 'citation'
            -- a name in a models or templates folder (architectures, converters, chat templates of the models
            -- the framework runs) or on a supported-models page names a model, not a training method; so does
            -- the name of a model's technical report
            when
                pl.match_kind = 'alias' and not pl.is_known_name
                and (
                    {{ regex_contains('lower(pl.path)', models_folder) }}
                    or {{ regex_contains('lower(pl.page_name)', models_page) }}
                    or k.is_model_report
                )
                then 'citation'
            when pl.match_kind = 'alias' and not pl.is_known_name and ms.sha is not null then 'citation'
            -- a commit scoped to a model ("[model] add mimo7b") adds that model (its registration, template,
            -- converter): a paper's name it adds names the model, not a training method
            when
                pl.match_kind = 'alias' and not pl.is_known_name
                and {{ regex_contains("lower(split_part(pl.message, chr(10), 1))", model_commit_subject) }}
                then 'citation'
            -- in a models folder (architectures, builders) the arXiv id of a paper without an RL method, or of
            -- a model's report, cites the model the code builds
            when
                pl.match_kind = 'arxiv_id' and {{ regex_contains('lower(pl.path)', models_folder) }}
                and (k.is_read_not_rl or k.is_model_report)
                then 'citation'
            -- the name of a paper that proposes no RL method names a model, benchmark, environment or
            -- tool a recipe uses (its arXiv id in implementing code, a catalogued name or one beside its
            -- id still counts)
            when pl.match_kind = 'alias' and not pl.is_known_name and k.is_read_not_rl then 'citation'
            when o.framework_id is not null then 'citation'
            when pl.mention_context = 'path' and {{ regex_contains('lower(pl.path)', '[-_.][0-9.]+b[-_.]') }}
                then 'citation'
            -- a name ending like a model line's version (R1, M1, K2) names the model when it is only a
            -- file's name (a run script or config for it) or a config value (a parser, a template); a
            -- folder of its own (a recipe) still counts
            when
                pl.match_kind = 'alias' and {{ regex_contains('pl.mention_value', '_[a-z][0-9]+$') }}
                and (
                    pl.mention_context = 'option_value'
                    or (
                        pl.mention_context = 'path'
                        and strpos(
                            replace(lower(regexp_replace(pl.path, '[^/]*$', '')), '-', '_'), pl.mention_value
                        ) = 0
                    )
                )
                then 'citation'
            when ds.sha is not null then 'citation'
            when pl.place = 'message'
                then case
                        when
                        {{ regex_contains("lower(split_part(pl.message, chr(10), 1))",
                            '\\b(add|adds|added|support|supports|implement|implements|introduce|feat)\\b') }}
                            and not {{ regex_contains("lower(split_part(pl.message, chr(10), 1))",
                            subject_names_no_method) }}
                            -- a documentation-only change ("docs: add X") documents, its pages are graded
                            and not {{ regex_contains("lower(split_part(pl.message, chr(10), 1))",
                            '^\\W*docs?\\W*[:\\]]') }}
                            -- a message citing several papers motivates the change by the literature
                            and coalesce(ids.message_ids, 0) < {{ var('message_related_work_ids') }}
                            and po.sha is null
                            then 'implementation'
                        else 'citation'
                    end
            -- in a docs tree only a page documents: the site's other files (its config, scripts, translations,
            -- lock files) are machinery
            when pl.place = 'docs' and not pl.is_docs_file and not pl.is_notebook then 'citation'
            when pl.place = 'docs' or pl.is_docs_file then 'documented'
            else 'implementation'
        end as evidence_grade
    from placed as pl
    left join kinds as k on pl.arxiv_id = k.arxiv_id
    left join own_papers as o on pl.arxiv_id = o.arxiv_id and pl.framework_id = o.framework_id
    left join own_folders as f
        on
            pl.arxiv_id = f.arxiv_id and pl.framework_id = f.framework_id
            and {{ method_token("split_part(pl.path, '/', 1)") }} = f.alias_token
    left join message_ids as ids on pl.framework_id = ids.framework_id and pl.sha = ids.sha
    left join prose_only_commits as po on pl.framework_id = po.framework_id and pl.sha = po.sha
    left join method_pages as mp
        on pl.framework_id = mp.framework_id and pl.sha = mp.sha and pl.path = mp.path and pl.arxiv_id = mp.arxiv_id
    left join model_sized_names as ms
        on
            pl.framework_id = ms.framework_id and pl.sha = ms.sha and pl.path = ms.path
            and pl.mention_value = ms.alias_token
    left join dataset_files as ds
        on
            pl.framework_id = ds.framework_id and pl.sha = ds.sha and pl.path = ds.path
            and pl.mention_value = ds.mention_value
)

select
    g.framework_id,
    g.arxiv_id,
    g.sha,
    g.path,
    g.mention_location,
    g.mention_context,
    g.place,
    g.committed_at,
    g.authored_at,
    g.mention_value as matched_value,
    g.match_kind,
    case when g.place = 'docs' then 'docs' else g.match_kind end as evidence,
    g.evidence_grade,
    case g.match_kind when 'arxiv_id' then 'arXiv id' else 'name ''' || g.mention_value || '''' end
    || ' as ' || replace(g.mention_context, '_', ' ') || ' in ' || g.place
    || case g.place when 'message' then '' else ' (' || g.path || ')' end
    || ': '
    || case
        when g.evidence_grade = 'rejected' then 'not evidence: ' || g.alias_reason
        when g.evidence_grade = 'citation' and g.place in ('data', 'news', 'readme')
            then 'a citation (' || g.place || ' file), not an implementation'
        when g.evidence_grade = 'citation'
            and g.mention_context in ('related_work', 'news', 'docs_list', 'inline_citation', 'data')
            then 'a citation (' || replace(g.mention_context, '_', ' ') || '), not an implementation'
        when g.evidence_grade = 'citation' and g.place = 'docs' and not g.is_docs_file and not g.is_notebook
            then 'in a file of the docs site that is not a page (its code, config or translations), not a docs page'
        when g.evidence_grade = 'citation' and g.match_kind = 'alias' and not g.is_known_name
            and {{ regex_contains('lower(g.path)', env_folder) }}
            then 'an environment''s or task set''s name, what is trained on, not a method'
        when g.evidence_grade = 'citation' and g.match_kind = 'alias' and not g.is_known_name and g.is_model_report
            then 'the name of a model''s technical report: names the model, not a method'
        when g.evidence_grade = 'citation' and g.match_kind = 'alias' and not g.is_known_name
            and {{ regex_contains('lower(g.path)', models_folder) }}
            then 'a model''s name in a models or templates folder, not a method'
        when g.evidence_grade = 'citation' and g.match_kind = 'alias' and not g.is_known_name
            and {{ regex_contains('lower(g.page_name)', models_page) }}
            then 'a model''s name on a supported-models page, not a method'
        when g.evidence_grade = 'citation' and g.match_kind = 'alias' and not g.is_known_name and g.is_model_sized
            then 'a model''s name: the file also writes it with a parameter count (`Seed-Coder-8B`), not a method'
        when g.evidence_grade = 'citation' and g.match_kind = 'alias' and not g.is_known_name
            and {{ regex_contains("lower(split_part(g.message, chr(10), 1))", model_commit_subject) }}
            then 'a name a commit scoped to a model adds: the model''s, not a method'
        when g.evidence_grade = 'citation' and g.match_kind = 'arxiv_id'
            and {{ regex_contains('lower(g.path)', models_folder) }} and (g.is_read_not_rl or g.is_model_report)
            then 'the id of a model''s paper in a models folder: cites the model built, not a method'
        when g.evidence_grade = 'citation' and g.paper_kind in ('dataset', 'benchmark', 'survey')
            then 'a ' || g.paper_kind || ' paper: used or cited, not a method the framework implements'
        when g.evidence_grade = 'citation' and g.match_kind = 'alias' and not g.is_known_name and g.is_read_not_rl
            then 'the name of a paper without an RL method (a model, benchmark or tool used), not a method'
        when g.evidence_grade = 'citation' and g.is_own_paper then 'a work named after the framework (built on it)'
        when g.evidence_grade = 'citation' and g.is_dataset_file
            then 'a file about a data set named after it (the name with a size), not the method'
        when g.evidence_grade = 'citation' and g.mention_context = 'option_value' then 'a model name as a config value'
        when g.evidence_grade = 'citation' and g.mention_context = 'path' then 'a model name in a file name'
        when g.evidence_grade = 'citation' and g.message_ids >= {{ var('message_related_work_ids') }}
            then 'a commit message citing ' || cast(g.message_ids as varchar) || ' papers (related work)'
        when g.evidence_grade = 'citation' then 'a commit message naming it, not adding it'
        when
            g.evidence_grade = 'documented' and g.is_method_page
            and g.mention_context in ('docs_list', 'related_work', 'inline_citation')
            then 'its id in the references of a page documenting the method'
        when g.evidence_grade = 'documented' and g.is_own_paper then 'the framework''s own system paper'
        when g.evidence_grade = 'documented' then 'documented as supported'
        when g.match_kind = 'alias' and g.alias_status = 'usable' and g.alias_reason <> 'a distinctive name'
            then 'implemented (' || g.alias_reason || ')'
        else 'implemented'
    end as evidence_reason,
    cast(
        case g.evidence_grade
            when 'implementation' then case g.match_kind when 'arxiv_id' then 0.95 else 0.85 end
            when 'documented' then 0.8
            when 'citation' then 0.3
            else 0.0
        end as double precision
    ) as confidence,
    g.committed_at < p.published_at as is_before_first_version
from graded as g
inner join papers as p on g.arxiv_id = p.arxiv_id
