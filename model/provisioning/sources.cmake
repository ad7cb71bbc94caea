# Data provisioning: loaders (local, DPP, Alluxio, KSpeed) as a max-min model over storage,
# CPU, host memory, PCIe and rails; their packet-level realization; the engine's data-loading term.
list(APPEND AICLUSTER_SOURCES
  model/provisioning/provisioning-model.cc
  model/provisioning/provisioning-data-loading.cc
  model/provisioning/provisioning-fabric-run.cc
)
list(APPEND AICLUSTER_HEADERS
  model/provisioning/provisioning-model.h
  model/provisioning/provisioning-data-loading.h
  model/provisioning/provisioning-fabric-run.h
)
