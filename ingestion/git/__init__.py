"""Framework git histories -> `raw_git`.

`source.git_history_source` (pipeline `git_history`) mines each framework's default branch
(first-parent history) into `commits`, `commit_files`, `commit_mentions`, `repo_files_at_head`,
`contribution_rules` and `git_quarantine`, all merged on their keys. Incremental: dlt state keeps the
last mined commit per framework; a run mines `last..HEAD`, and re-mines from the merge base after a
force push (rows of commits that left the branch are hard-deleted).
Parts: `mining` (git log pass), `mentions` (scanners), `jobs` (per-framework jobs, worker processes),
`rows` (rows and Arrow tables), `pydriller_path` (the pydriller engine), `contribution_rules`.
"""
