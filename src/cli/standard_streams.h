// Standard input, output or error may be closed when fenmill starts (`<&-`, some daemons and cron setups).
// The next file fenmill opened would then get descriptor 0 or 1, and "-" would read or write that file:
// an output could be read back as input, or a report land in the output. So closed ones are opened on
// /dev/null at once, and the caller refuses a run that needs one of them.
#pragma once
#include <initializer_list>
#include <string>
#include <vector>

namespace fenmill::cli {

struct ClosedStreams {
  bool in = false, out = false;
};

// Call first thing in main(). Returns which of standard input and output were closed.
ClosedStreams occupy_closed_standard_streams();

// Whether a path names standard input ("-", /dev/stdin, /dev/fd/0, /proc/self/fd/0) or standard output.
bool names_standard_input(const std::string& path);
bool names_standard_output(const std::string& path);

// False, after saying why on stderr, when one of `inputs` names a closed standard input or one of `outputs`
// (empty ones are skipped) a closed standard output.
bool closed_streams_unused(const ClosedStreams& closed, const std::vector<std::string>& inputs,
                           std::initializer_list<const std::string*> outputs);

}  // namespace fenmill::cli
