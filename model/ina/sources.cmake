# ina component: sources and headers (owned by the ina engineer).
list(APPEND AICLUSTER_SOURCES
)
list(APPEND AICLUSTER_HEADERS
)
