# Shared pieces used by several components (no component of its own): the weighted max-min
# solver that the rdma rate fabric and provisioning fill their resources with, its
# single-resource case in closed form for storage (water-fill), and the one
# table of short component names (esa, kspeed, cba, fifo, ...).
list(APPEND AICLUSTER_SOURCES
  model/common/max-min-solver.cc
  model/common/component-registry.cc
  model/common/water-fill.cc
)
list(APPEND AICLUSTER_HEADERS
  model/common/max-min-solver.h
  model/common/component-registry.h
  model/common/water-fill.h
)
