# rdma component: sources and headers (owned by the rdma engineer).
list(APPEND AICLUSTER_SOURCES
)
list(APPEND AICLUSTER_HEADERS
)
