-- The framework registry a refresh tracks: the file `RLTRACK_FRAMEWORKS_CSV` names (the refresh sets
-- it to the registry every source reads: the user's `<data dir>/frameworks.csv` once
-- `rltrack frameworks add` wrote one), else the `frameworks` seed (the default registry).
-- depends_on: {{ ref('frameworks') }}
-- (always after the seed, whichever file is read: Dagster's lineage has the seed upstream, and dbt's threads must
-- build it first so the assets are reported in that order)
{%- set registry_csv = env_var('RLTRACK_FRAMEWORKS_CSV', '') %}
with registry as (
    {%- if registry_csv %}
        select * from read_csv('{{ registry_csv | replace("'", "''") }}', header = true, all_varchar = true)
    {%- else %}
        select * from {{ ref('frameworks') }}
    {%- endif %}
)

select
    cast(framework_id as varchar) as framework_id,
    cast(display_name as varchar) as display_name,
    cast(repo as varchar) as repo,
    coalesce(cast(former_repos as varchar), '') as former_repos,
    coalesce(nullif(cast(default_branch as varchar), ''), 'main') as default_branch,
    coalesce(cast(maintainer_orgs as varchar), '') as maintainer_orgs,
    coalesce(cast(maintainer_domains as varchar), '') as maintainer_domains,
    coalesce(nullif(cast(docs_paths as varchar), ''), 'docs/') as docs_paths,
    coalesce(lower(cast(in_sample as varchar)) = 'true', false) as in_sample
from registry
