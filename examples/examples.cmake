# Runnable scenarios; each is examples/<name>.cc and runs as ./ns3 run <name>.
set(AICLUSTER_EXAMPLES
  trace-replay
  rail-incast
  rail-scaling
  trace-convert
  minimal-experiment
  ina-shared-aggregation
  storage-allocation
  kspeed-provisioning
)
