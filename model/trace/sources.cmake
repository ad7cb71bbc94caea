# Traces in: readers for public trace formats, the workload catalog and the annotator.
list(APPEND AICLUSTER_SOURCES
  model/trace/trace-reader.cc
  model/trace/trace-parse.cc
  model/trace/trace-csv-readers.cc
  model/trace/philly-json-reader.cc
  model/trace/workload-catalog.cc
  model/trace/trace-annotator.cc
  model/trace/strict-parse.cc
)
list(APPEND AICLUSTER_HEADERS
  model/trace/job-record.h
  model/trace/trace-reader.h
  model/trace/workload-catalog.h
  model/trace/trace-annotator.h
  model/trace/strict-parse.h
  model/trace/lazy-mt19937-64.h
)
