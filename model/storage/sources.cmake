# Disaggregated storage: remote storage backend, compute-side cache tier, cache/bandwidth
# allocation policies (baselines, CBA, AutoCBA), the engine's storage data-loading model,
# its helper, and the packet-level storage server/client applications.
list(APPEND AICLUSTER_SOURCES
  model/storage/storage-problem.cc
  model/storage/storage-backend.cc
  model/storage/cache-tier.cc
  model/storage/storage-policy.cc
  model/storage/no-cache-policy.cc
  model/storage/cache-all-policy.cc
  model/storage/fair-share-policy.cc
  model/storage/shared-lru-policy.cc
  model/storage/benefit-ranked-policy.cc
  model/storage/silod-like-policy.cc
  model/storage/cba-policy.cc
  model/storage/dataset-registry.cc
  model/storage/storage-data-loading.cc
  model/storage/auto-cba-solver.cc
  model/storage/auto-cba-job-sizer.cc
  model/storage/auto-cba-sizing.cc
  model/storage/storage-helper.cc
  model/storage/storage-server-app.cc
  model/storage/storage-client-app.cc
)
list(APPEND AICLUSTER_HEADERS
  model/storage/storage-problem.h
  model/storage/storage-backend.h
  model/storage/cache-tier.h
  model/storage/storage-policy.h
  model/storage/no-cache-policy.h
  model/storage/cache-all-policy.h
  model/storage/fair-share-policy.h
  model/storage/shared-lru-policy.h
  model/storage/benefit-ranked-policy.h
  model/storage/silod-like-policy.h
  model/storage/cba-policy.h
  model/storage/dataset-registry.h
  model/storage/storage-totals.h
  model/storage/storage-data-loading.h
  model/storage/auto-cba-solver.h
  model/storage/auto-cba-job-sizer.h
  model/storage/auto-cba-sizing.h
  model/storage/storage-helper.h
  model/storage/storage-server-app.h
  model/storage/storage-client-app.h
)
