"""GitHub threads -> `raw_github`.

`source.github_source` (pipeline `github`) loads every framework's `issues`, `pull_requests`,
`comments`, `review_comments` and `reviews` (merged on their keys), marks threads read in part in
`thread_gaps` (read again next run) and quarantines unreadable items in `github_quarantine`. Incremental: one `updated_at` cursor per repository and resource in dlt state,
advanced page by page, so a run stopped by a rate limit resumes where it stopped.
`thread_roles` gives each thread its role (proposal, failure_report, ...) with the deciding signal.
"""
