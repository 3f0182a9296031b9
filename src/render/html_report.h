// The HTML report of `fenmill validate --html`: the run's counts (records, valid, invalid by code) and one
// entry per kept rejected record (RunOutcome::reported) with file:line:column, code, message, the input and
// its picture. One self-contained file: inline CSS and SVG, no scripts, fonts or images from elsewhere.
#pragma once
#include <string>
#include <string_view>

#include "pipeline/job.h"
#include "pipeline/run.h"

namespace fenmill::render {

std::string html_report(const Job& job, const RunOutcome& outcome);


// The FEN inside a rejected record's line, for a semantic error whose column is where the FEN starts:
// the line from that column up to a CSV/JSON delimiter (',' '"', or a tab after the first column).
std::string_view fen_in_record(std::string_view input, std::uint32_t column);

}  // namespace fenmill::render
