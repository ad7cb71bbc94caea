# rdma component: sources and headers (owned by the rdma engineer).
list(APPEND AICLUSTER_SOURCES
  model/rdma/rail-topology.cc
  model/rdma/rdma-header.cc
  model/rdma/lossless-channel.cc
  model/rdma/lossless-net-device.cc
  model/rdma/rdma-endpoint.cc
  model/rdma/rdma-switch.cc
  model/rdma/rdma-fabric.cc
  model/rdma/rdma-packet-fabric.cc
  model/rdma/rdma-rate-fabric.cc
)
list(APPEND AICLUSTER_HEADERS
  model/rdma/rail-topology.h
  model/rdma/rdma-header.h
  model/rdma/rdma-transfer.h
  model/rdma/lossless-channel.h
  model/rdma/lossless-net-device.h
  model/rdma/rdma-endpoint.h
  model/rdma/rdma-switch.h
  model/rdma/rdma-fabric.h
  model/rdma/rdma-packet-fabric.h
  model/rdma/rdma-rate-fabric.h
)
