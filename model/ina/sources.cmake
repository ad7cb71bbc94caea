# ina component: sources and headers (owned by the ina engineer).
list(APPEND AICLUSTER_SOURCES
  model/ina/ina-header.cc
  model/ina/ina-aggregator-pool.cc
  model/ina/ina-allocation-policy.cc
  model/ina/ina-switchml-policy.cc
  model/ina/ina-atp-policy.cc
  model/ina/ina-esa-policy.cc
  model/ina/ina-switch.cc
  model/ina/ina-worker.cc
  model/ina/ina-parameter-server.cc
  model/ina/ina-helper.cc
  model/ina/ina-rate-policy.cc
  model/ina/ina-switchml-rate-policy.cc
  model/ina/ina-atp-rate-policy.cc
  model/ina/ina-esa-rate-policy.cc
  model/ina/ina-ranked-holdings.cc
  model/ina/ina-gradient-sync.cc
  model/ina/ina-gradient-sync-racks.cc
)
list(APPEND AICLUSTER_HEADERS
  model/ina/ina-header.h
  model/ina/ina-aggregator-pool.h
  model/ina/ina-allocation-policy.h
  model/ina/ina-switchml-policy.h
  model/ina/ina-atp-policy.h
  model/ina/ina-esa-policy.h
  model/ina/ina-switch.h
  model/ina/ina-worker.h
  model/ina/ina-parameter-server.h
  model/ina/ina-helper.h
  model/ina/ina-rate-policy.h
  model/ina/ina-switchml-rate-policy.h
  model/ina/ina-atp-rate-policy.h
  model/ina/ina-esa-rate-policy.h
  model/ina/ina-ranked-holdings.h
  model/ina/ina-gradient-sync.h
)
