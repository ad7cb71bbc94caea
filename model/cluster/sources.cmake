# The rate-level cluster engine: cluster, jobs, scheduling and placement policies,
# iteration-time models and result files.
list(APPEND AICLUSTER_SOURCES
)
list(APPEND AICLUSTER_HEADERS
)
