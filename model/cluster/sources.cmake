# The rate-level cluster engine: cluster, jobs, scheduling and placement policies,
# iteration-time models and result files.
list(APPEND AICLUSTER_SOURCES
  model/cluster/cluster-topology.cc
  model/cluster/gpu-allocator.cc
  model/cluster/scheduling-policy.cc
  model/cluster/fifo-policy.cc
  model/cluster/sjf-policy.cc
  model/cluster/tiresias-policy.cc
  model/cluster/iteration-model.cc
  model/cluster/ideal-data-loading.cc
  model/cluster/ideal-gradient-sync.cc
  model/cluster/ring-all-reduce-sync.cc
  model/cluster/link-share.cc
  model/cluster/job-sizing-policy.cc
  model/cluster/paced-group.cc
  model/cluster/finish-queue.cc
  model/cluster/ordered-demands.cc
  model/cluster/cluster-engine.cc
  model/cluster/cluster-results.cc
)
list(APPEND AICLUSTER_HEADERS
  model/cluster/cluster-topology.h
  model/cluster/cluster-job.h
  model/cluster/paced-group.h
  model/cluster/finish-queue.h
  model/cluster/ordered-demands.h
  model/cluster/gpu-allocator.h
  model/cluster/scheduling-policy.h
  model/cluster/fifo-policy.h
  model/cluster/sjf-policy.h
  model/cluster/tiresias-policy.h
  model/cluster/iteration-model.h
  model/cluster/ideal-data-loading.h
  model/cluster/ideal-gradient-sync.h
  model/cluster/ring-all-reduce-sync.h
  model/cluster/link-share.h
  model/cluster/job-sizing-policy.h
  model/cluster/cluster-engine.h
  model/cluster/cluster-results.h
  model/cluster/ns3-compat.h
)
