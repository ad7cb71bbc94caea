/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
#ifndef AICLUSTER_JOB_RECORD_H
#define AICLUSTER_JOB_RECORD_H

#include <cstdint>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup aicluster
 * \brief Where a job record was read: its trace file and line, for results and messages.
 *
 * The file's name is one string shared by every record of the trace, not a "file:line" string
 * per record: on Philly those were 82,247 heap blocks, and with their page faults and copies
 * about a tenth of a scheduling-only replay's CPU time (issue #13).
 */
class RecordSource
{
  public:
    RecordSource() = default;

    /**
     * \param file the trace file's name (shared by the records of one file)
     * \param line its 1-based line, 0 if none
     */
    RecordSource(std::shared_ptr<const std::string> file, uint64_t line)
        : m_file(std::move(file)),
          m_line(line)
    {
    }

    /**
     * \param file the trace file's name
     * \param line its 1-based line, 0 if none
     */
    RecordSource(const std::string& file, uint64_t line)
        : RecordSource(std::make_shared<const std::string>(file), line)
    {
    }

    /** \return the file's name, empty if the record was not read from a file */
    const std::string& File() const
    {
        static const std::string none;
        return m_file ? *m_file : none;
    }

    /** \return the 1-based line, 0 if none */
    uint64_t Line() const
    {
        return m_line;
    }

    /** \return "file:line" ("file" without a line; empty without a file) */
    std::string Text() const
    {
        if (!m_file)
        {
            return m_line == 0 ? std::string() : ":" + std::to_string(m_line);
        }
        return m_line == 0 ? *m_file : *m_file + ":" + std::to_string(m_line);
    }

  private:
    std::shared_ptr<const std::string> m_file; //!< the trace file's name; null if none
    uint64_t m_line{0};                        //!< 1-based line; 0 if none
};

/**
 * \param os the stream
 * \param source where a record was read
 * \return os, with source's Text()
 */
inline std::ostream&
operator<<(std::ostream& os, const RecordSource& source)
{
    return os << source.Text();
}

/**
 * \ingroup aicluster
 * \brief The one internal record of a training job, whatever trace it came from.
 *
 * Trace readers fill what their format carries; the TraceAnnotator fills the
 * rest (model, dataset, iterations) from the WorkloadCatalog, by a documented
 * and seeded rule. A field a reader could not know is left at its "unknown"
 * value so the annotator can tell it apart from a real zero.
 */
struct JobRecord
{
    static constexpr double UNKNOWN = -1.0; //!< value of a numeric field the trace lacks

    uint64_t id{0};             //!< unique within one loaded trace: 0, 1, 2, ... in submit order
    std::string name;           //!< the trace's own job id or name (may be empty)
    double submitTime{0};       //!< submission time [s] since the start of the trace
    uint32_t numGpus{0};        //!< GPUs the job asks for (whole GPUs; see gpuFraction)
    double gpuFraction{1.0};    //!< share of one GPU a GPU-sharing task asks for (Alibaba), else 1
    double duration{UNKNOWN};   //!< run time [s] the trace recorded on numGpus GPUs
    double totalSteps{UNKNOWN}; //!< training iterations the trace gives (Gavel), else unknown
    uint32_t globalBatch{0};    //!< global batch size [samples] the trace gives (Pollux), else 0
    std::string user;           //!< user name or hash (may be empty)
    std::string vc;             //!< virtual cluster / queue / tenant (may be empty)
    std::string status;         //!< final state the trace recorded (Pass, Killed, Failed, ...)
    std::string jobType;        //!< workload type the trace records (Acme: Pretrain, SFT,
                                //!< Evaluation, Debug, Other); empty if it records none
    uint32_t numNodes{0};       //!< nodes the job asked for (Acme node_num); 0 = not recorded
    std::string model;          //!< workload-catalog entry name; empty until annotated
    std::string dataset;        //!< dataset name; empty until annotated
    double iterations{UNKNOWN}; //!< work in training iterations; set by the annotator
    RecordSource source;        //!< file and line the record was read from
};

/**
 * \ingroup aicluster
 * \brief A loaded trace's job records, read-only and shared: every engine that replays them
 *        refers to these records instead of copying them (ClusterEngine::SetJobs).
 */
using SharedJobRecords = std::shared_ptr<const std::vector<JobRecord>>;

} // namespace ns3

#endif // AICLUSTER_JOB_RECORD_H
