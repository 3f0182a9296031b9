// Runs one fenmill job end to end: read inputs in chunks, process chunks in parallel (oneTBB),
// dedup and write in input order, then the rejects, the summary and the exit code.
#pragma once
#include <functional>
#include <string>
#include <vector>

#include "pipeline/counts.h"
#include "pipeline/job.h"

namespace fenmill {

enum ExitCode : int { kExitOk = 0, kExitDataProblem = 1, kExitUsageOrIo = 2 };

// A rejected record kept for the HTML report (validate --html).
struct ReportedReject {
  std::string file;
  std::uint64_t line = 0;
  std::uint32_t column = 0;
  std::string code;     // e.g. "PAWN_ON_BACK_RANK"
  std::string message;  // as in the rejects file
  std::string input;    // the original line (PGN: the offending token); of a long one the bytes around the column
  bool xiangqi = false;
  bool pgn = false;  // a PGN game: no position to draw, and its code may be named like a FEN code (CLOCK_RANGE)
  // The byte of `input` that `column` names, as an offset: in a CSV row over several lines the column counts in
  // the FEN's line, not the first. npos: column - 1.
  std::size_t column_at = std::string::npos;
  // A record longer than kMaxReportedInput: its size, and the bytes of it before `input` (else both 0).
  std::uint64_t input_bytes = 0;
  std::uint64_t input_skipped = 0;
};

constexpr std::size_t kMaxReportedRejects = 10000;  // the HTML report shows at most this many
// Of a longer record the report keeps (and shows) this many bytes, from kReportedBeforeColumn before the column:
// 10,000 rejected lines of 1 MiB would otherwise be held in memory and written out whole, 10 GiB.
constexpr std::size_t kMaxReportedInput = 2048;
constexpr std::size_t kReportedBeforeColumn = 512;

struct RunOutcome {
  int exit_code = kExitOk;
  std::string error;  // set with kExitUsageOrIo
  Counts counts;
  double seconds = 0;
  std::uint64_t bytes_in = 0;
  std::uint64_t distinct = 0;
  std::vector<ReportedReject> reported;  // filled when job.html_path is set (first kMaxReportedRejects)
};

// Makes the bytes of validate --html's report (src/render/html_report.h) from the run's outcome.
using HtmlReport = std::function<std::string(const RunOutcome&)>;

// Runs the job. Every output (-o, --rejects, --summary, and job.html_path made by `html_report`) is opened before
// the work, so an existing file stops the run at once, and written and closed before any is published.
RunOutcome run_job(const Job& job, const HtmlReport& html_report = nullptr);

}  // namespace fenmill
