// Checks made before any work, so that a run which cannot succeed stops at once instead of after writing
// (part of) its output: every input can be read, and no two outputs are one file.
#pragma once
#include <string>

#include "pipeline/job.h"

namespace fenmill {

// Empty when the job may start; otherwise what is wrong. Refused: an input that is missing, unreadable or a
// directory; two of -o, --rejects, --summary, --html naming the same file (stdout counts as one file; /dev/null
// and other devices may be shared); --rejects, --summary or --html naming an input; an input that is a FIFO or
// pipe some output writes to. (-o may name an input with --force: the input is read whole before the rename
// replaces it.)
std::string preflight_error(const Job& job);

}  // namespace fenmill
