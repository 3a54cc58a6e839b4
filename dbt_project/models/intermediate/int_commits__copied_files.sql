-- Files of a framework that are copies of another tracked framework's code (their method names are
-- that framework's, not this one's adoptions), one row per (framework_id, path) with how it was told:
--   vendored_root  below a top-level folder named after the other framework, arrived more than a month
--                  after the framework's own code began (a submodule turned into files)
--   nested_copy    below a folder named after it, at a path of that framework's repository
--                  (`verl_patch/verl/trainer/ppo/core_algos.py`)
--   at_its_path    a code or config file at the other framework's path, below the package root or a
--                  vendored copy's root, three parts deep, there first (`verl_tool/trainer/config/algorithm.py`)
-- A fork (sharing the other's commits) and a framework that began as such a copy keep their own.
with commits as (
    select * from {{ ref('int_commits__registered') }}
    where on_default_branch
),

mentions as (
    select
        framework_id,
        path,
        committed_at
    from {{ ref('int_commits__default_branch_mentions') }}
),

first_code as (
    -- when each framework's own code began: its first commit adding to a code file
    select
        framework_id,
        min(committed_at) as first_code_at
    from mentions
    where {{ regex_contains('lower(path)', '\\.(py|pyx|c|cc|cpp|cu|h|hpp|rs|go|js|ts|java|scala|jl|lua)$') }}
    group by framework_id
),

forks as (
    -- a framework whose history shares commits with another tracked framework's is a fork of it (or its
    -- origin): it keeps the other's package name as its own, whenever that name arrived
    select distinct
        a.framework_id,
        b.framework_id as other_framework_id
    from commits as a
    inner join commits as b on a.sha = b.sha and a.framework_id <> b.framework_id
),

framework_paths as (
    -- every file path each framework's mined commits touched, and when first
    select
        framework_id,
        path,
        min(committed_at) as first_at
    from mentions
    where strpos(path, '/') > 0
    group by framework_id, path
),

vendored_roots as (
    -- a top-level folder named after another tracked framework that arrived more than a month after the
    -- framework's own code began is a copy of that framework vendored in (a submodule turned into files):
    -- its code and docs are the other framework's (a fork whose package keeps its origin's name starts with it,
    -- or shares its origin's commits: its package renamed after the fork, openllama2/ -> openrlhf/)
    select
        p.framework_id,
        split_part(p.path, '/', 1) as root
    from framework_paths as p
    inner join {{ ref('int_frameworks__names') }} as t
        on {{ method_token("split_part(p.path, '/', 1)") }} = t.token and p.framework_id <> t.framework_id
    inner join first_code as f on p.framework_id = f.framework_id
    left join forks as k on p.framework_id = k.framework_id and t.framework_id = k.other_framework_id
    where k.framework_id is null
    group by p.framework_id, split_part(p.path, '/', 1)
    having min(p.first_at) > min(f.first_code_at) + interval '30 days'
),

framework_files as (
    -- with a key in lower case, separators as '_'
    select
        framework_id,
        path,
        first_at,
        regexp_replace(lower(path), '[^a-z0-9/.]+', '_', 'g') as path_key
    from framework_paths
),

nested_candidates as (
    -- a file below a folder named after another tracked framework (not at the top level), with its path
    -- from that folder
    select
        f.framework_id,
        f.path,
        t.framework_id as other_framework_id,
        substr('/' || f.path_key, strpos('/' || f.path_key, '/' || t.token || '/') + 1) as other_path_key
    from framework_files as f
    inner join {{ ref('int_frameworks__names') }} as t
        on f.framework_id <> t.framework_id and strpos('/' || f.path_key, '/' || t.token || '/') > 1
),

nested_copies as (
    -- ... whose path from that folder is a path of that framework's own repository
    -- (`verl_patch/verl/trainer/ppo/core_algos.py`): a copy of that framework's file (patched in or
    -- vendored), its methods are the other framework's
    select distinct
        n.framework_id,
        n.path
    from nested_candidates as n
    inner join framework_files as o
        on n.other_framework_id = o.framework_id and n.other_path_key = o.path_key
),

code_file_tails as (
    -- code and config files with their path below the first folder (a package's root) and below the second
    select
        framework_id,
        path,
        first_at,
        path_key,
        substr(path_key, strpos(path_key, '/') + 1) as tail
    from framework_files
    where {{ regex_contains('path_key', '\\.(py|ya?ml|toml|json)$') }}
),

code_file_keys as (
    select
        framework_id,
        path,
        first_at,
        path_key as file_key,
        true as is_whole
    from code_file_tails
    union all
    select
        framework_id,
        path,
        first_at,
        tail as file_key,
        false as is_whole
    from code_file_tails
    union all
    select
        framework_id,
        path,
        first_at,
        substr(tail, strpos(tail, '/') + 1) as file_key,
        false as is_whole
    from code_file_tails
    where strpos(tail, '/') > 0
),

copied_files as (
    -- a code or config file whose path, below its package's root (`verl_tool/trainer/config/algorithm.py`)
    -- or a vendored copy's (`verl/verl/trainer/ppo/core_algos.py`), is the path of another tracked
    -- framework's file (whole or below its root), three parts deep and there first: a copy of that file,
    -- its method names are the other framework's. A fork (sharing the other's commits) keeps its own, and
    -- so does a framework that began as such a copy (its first month of code: SkyRL's verl/)
    select distinct
        c.framework_id,
        c.path
    from code_file_keys as c
    inner join code_file_keys as o
        on
            c.file_key = o.file_key and c.framework_id <> o.framework_id
            and c.first_at > o.first_at and not (c.is_whole and o.is_whole)
    inner join first_code as f on c.framework_id = f.framework_id
    left join forks as k on c.framework_id = k.framework_id and o.framework_id = k.other_framework_id
    where
        k.framework_id is null
        and c.first_at > f.first_code_at + interval '30 days'
        and length(c.file_key) - length(replace(c.file_key, '/', '')) >= 2
),

vendored_files as (
    select
        p.framework_id,
        p.path
    from framework_paths as p
    inner join vendored_roots as v on p.framework_id = v.framework_id and starts_with(p.path, v.root || '/')
),

copies as (
    select
        framework_id,
        path,
        'vendored_root' as copy_kind
    from vendored_files
    union all
    select
        framework_id,
        path,
        'nested_copy' as copy_kind
    from nested_copies
    union all
    select
        framework_id,
        path,
        'at_its_path' as copy_kind
    from copied_files
)

select
    framework_id,
    path,
    min(copy_kind) as copy_kind
from copies
group by framework_id, path
