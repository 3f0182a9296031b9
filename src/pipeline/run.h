// Runs one fenmill job end to end: read inputs in chunks, process chunks in parallel (oneTBB),
// dedup and write in input order, then the rejects, the summary and the exit code.
#pragma once
#include <string>

#include "pipeline/counts.h"
#include "pipeline/job.h"

namespace fenmill {

enum ExitCode : int { kExitOk = 0, kExitDataProblem = 1, kExitUsageOrIo = 2 };

struct RunOutcome {
  int exit_code = kExitOk;
  std::string error;  // set with kExitUsageOrIo
  Counts counts;
  double seconds = 0;
  std::uint64_t bytes_in = 0;
  std::uint64_t distinct = 0;
};

RunOutcome run_job(const Job& job);

}  // namespace fenmill
