# Runnable scenarios; each is examples/<name>.cc and runs as ./ns3 run <name>.
set(AICLUSTER_EXAMPLES
  trace-replay
  trace-convert
  minimal-experiment
  ina-shared-aggregation
  rail-incast
  rail-scaling
)
