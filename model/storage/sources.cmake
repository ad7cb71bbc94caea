# Disaggregated storage: remote storage backend, compute-side cache tier, cache/bandwidth
# allocation policies (baselines, CBA, AutoCBA), the engine's storage data-loading model,
# its helper, and the packet-level storage server/client applications.
list(APPEND AICLUSTER_SOURCES
  model/storage/storage-problem.cc
  model/storage/storage-backend.cc
  model/storage/cache-tier.cc
  model/storage/storage-policy.cc
  model/storage/storage-data-loading.cc
  model/storage/auto-cba.cc
  model/storage/storage-helper.cc
  model/storage/storage-apps.cc
)
list(APPEND AICLUSTER_HEADERS
  model/storage/storage-problem.h
  model/storage/storage-backend.h
  model/storage/cache-tier.h
  model/storage/storage-policy.h
  model/storage/storage-data-loading.h
  model/storage/auto-cba.h
  model/storage/storage-helper.h
  model/storage/storage-apps.h
)
