# Shared pieces used by several components (no component of its own): the weighted max-min
# solver that the rdma rate fabric and provisioning fill their resources with, its
# single-resource case in closed form for storage (water-fill), the one
# table of short component names (esa, kspeed, cba, fifo, ...), the one progress reporter,
# the one 64-bit mix (split-mix.h), the one huge-page hint for large arrays (huge-pages.h)
# the replays' event queue (lazy-removal-scheduler.h) and the series' number text
# (csv-column-text.h), and a pooled allocator for trees filled and emptied per job
# (node-pool.h).
list(APPEND AICLUSTER_SOURCES
  model/common/max-min-solver.cc
  model/common/component-registry.cc
  model/common/water-fill.cc
  model/common/progress-reporter.cc
  model/common/huge-pages.cc
  model/common/lazy-removal-scheduler.cc
  model/common/csv-column-text.cc
)
list(APPEND AICLUSTER_HEADERS
  model/common/max-min-solver.h
  model/common/component-registry.h
  model/common/water-fill.h
  model/common/progress-reporter.h
  model/common/split-mix.h
  model/common/huge-pages.h
  model/common/lazy-removal-scheduler.h
  model/common/csv-column-text.h
  model/common/node-pool.h
)
