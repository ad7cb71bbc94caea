# Data provisioning: loaders (local, DPP, Alluxio, KSpeed) as a max-min model over storage,
# CPU, host memory, PCIe and rails; their packet-level realization; the engine's data-loading term.
list(APPEND AICLUSTER_SOURCES
  model/provisioning/provisioning-loader.cc
  model/provisioning/local-loader.cc
  model/provisioning/dpp-loader.cc
  model/provisioning/alluxio-loader.cc
  model/provisioning/kspeed-loader.cc
  model/provisioning/gpu-index-allocator.cc
  model/provisioning/provisioning-level.cc
  model/provisioning/provisioning-model.cc
  model/provisioning/provisioning-data-loading.cc
  model/provisioning/staged-data-loading.cc
  model/provisioning/provisioning-fabric-run.cc
)
list(APPEND AICLUSTER_HEADERS
  model/provisioning/provisioning-loader.h
  model/provisioning/local-loader.h
  model/provisioning/dpp-loader.h
  model/provisioning/alluxio-loader.h
  model/provisioning/kspeed-loader.h
  model/provisioning/gpu-index-allocator.h
  model/provisioning/provisioning-level.h
  model/provisioning/provisioning-model.h
  model/provisioning/provisioning-data-loading.h
  model/provisioning/staged-data-loading.h
  model/provisioning/provisioning-fabric-run.h
)
