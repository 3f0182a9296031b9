// Human and machine text about rejected records and the run: messages, rejects JSON Lines,
// `validate` lines and the summary JSON. Not on the hot path (only invalid records get here).
#pragma once
#include <string>
#include <string_view>

#include "pipeline/chunk_processor.h"
#include "pipeline/counts.h"

namespace fenmill {

// The code as printed: the PGN error's name for a rejected game, else the FEN error's.
std::string_view reject_code_name(const Reject& r);
// "message (squares: e1 h1) (hint: ...)" for a rejected record; "message: detail" when there is a detail.
std::string reject_message(const Reject& r, std::string_view detail = {});

// Appends s as a JSON string literal (quotes included); bytes that are not valid UTF-8 are
// written as \u00XX (read as Latin-1), so the output is always valid JSON.
void append_json_string(std::string& out, std::string_view s);

// {"file":...,"line":...,"column":...,"code":...,"message":...,"input":...}\n
void append_reject_json(std::string& out, std::string_view file, const Reject& r, std::string_view input,
                        std::string_view detail = {});
// FILE:LINE:COLUMN: CODE: message\n (control bytes in FILE written as \xNN, so a record is one line)
void append_reject_line(std::string& out, std::string_view file, const Reject& r, std::string_view detail = {});

// A message for stderr on one line: control bytes (a newline or a terminal escape in a file name) as \xNN.
std::string one_line(std::string_view message);

struct RunFacts {
  double seconds = 0;
  std::uint64_t bytes_in = 0;
  std::uint64_t distinct = 0;  // stats / dedup
};

std::string summary_json(const Counts& c, const RunFacts& facts);
// The `stats` subcommand's report (JSON, pretty enough to read).
std::string stats_json(const Counts& c, const RunFacts& facts);

}  // namespace fenmill
