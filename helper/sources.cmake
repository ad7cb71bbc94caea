# Helpers that assemble experiments ns-3 style.
list(APPEND AICLUSTER_SOURCES
  helper/cluster-builder.cc
  helper/cluster-engine-helper.cc
  helper/cluster-replay.cc
  helper/cluster-scenario.cc
  helper/replay-process.cc
  helper/strict-options.cc
  helper/sweep-runner.cc
)
list(APPEND AICLUSTER_HEADERS
  helper/cluster-builder.h
  helper/cluster-engine-helper.h
  helper/cluster-replay.h
  helper/cluster-scenario.h
  helper/replay-process.h
  helper/strict-options.h
  helper/sweep-runner.h
)
