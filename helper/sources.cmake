# Helpers that assemble experiments ns-3 style.
list(APPEND AICLUSTER_SOURCES
)
list(APPEND AICLUSTER_HEADERS
)
