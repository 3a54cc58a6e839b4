"""Great Expectations suites as code, one per table family, and the runner Dagster checks call."""
