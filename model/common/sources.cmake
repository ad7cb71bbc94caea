# Shared numerics used by several components (no component of its own): the weighted max-min
# solver that the rdma rate fabric, provisioning and storage fill their resources with.
list(APPEND AICLUSTER_SOURCES
  model/common/max-min-solver.cc
)
list(APPEND AICLUSTER_HEADERS
  model/common/max-min-solver.h
)
