// Standard input, output or error may be closed when fenmill starts (`<&-`, some daemons and cron setups).
// The next file fenmill opened would then get descriptor 0 or 1, and "-" would read or write that file:
// an output could be read back as input, or a report land in the output. So closed ones are opened on
// /dev/null at once, and the caller refuses a run that needs one of them.
// Likewise a name such as /dev/fd/3 for a descriptor that was not open when fenmill started: the first file
// fenmill opened itself would take that number (the -o output's temporary file), and a --rejects /dev/fd/3
// would write into it.
#pragma once
#include <initializer_list>
#include <string>
#include <vector>

namespace fenmill::cli {

struct ClosedStreams {
  bool in = false, out = false, err = false;
};

// Call first thing in main(). Returns which of standard input, output and error were closed.
ClosedStreams occupy_closed_standard_streams();

// Makes stderr (fenmill's summary, notes, warnings and errors) wait while standard error is a full pipe handed
// over non-blocking (O_NONBLOCK, as some spawners leave it, often shared with standard output by `2>&1`): stdio
// met EAGAIN there and dropped the line, so a run could end, even with exit 2, without a word. Call at the start
// of main(), after occupy_closed_standard_streams().
void wait_for_room_on_stderr();

// Whether a path names standard input ("-", /dev/stdin, /dev/fd/0, /proc/self/fd/0) or standard output.
bool names_standard_input(const std::string& path);
bool names_standard_output(const std::string& path);

// False, after saying why on stderr, when one of `inputs` names a closed standard input or one of `outputs`
// (empty ones are skipped) a closed standard output or error, or either names a descriptor (/dev/fd/N,
// /proc/self/fd/N) that is not open. Call before fenmill opens any file of its own.
bool closed_streams_unused(const ClosedStreams& closed, const std::vector<std::string>& inputs,
                           std::initializer_list<const std::string*> outputs);

}  // namespace fenmill::cli
