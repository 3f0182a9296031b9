#include "cli/standard_streams.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>

#include "io/atomic_output.h"

namespace fenmill::cli {

ClosedStreams occupy_closed_standard_streams() {
  bool closed[3] = {false, false, false};
  for (int fd = 0; fd < 3; ++fd) {
    if (::fcntl(fd, F_GETFD) != -1 || errno != EBADF) continue;
    closed[fd] = true;
    // open() returns the lowest free descriptor: fd itself, as the ones below it are open by now.
    int got = ::open("/dev/null", fd == 0 ? O_RDONLY : O_WRONLY);
    if (got >= 0 && got != fd) {
      ::dup2(got, fd);
      ::close(got);
    }
  }
  return ClosedStreams{closed[0], closed[1]};
}

bool names_standard_input(const std::string& path) {
  return path == "-" || path == "/dev/stdin" || descriptor_named_by(path) == STDIN_FILENO;
}

bool names_standard_output(const std::string& path) {
  return path == "-" || descriptor_named_by(path) == STDOUT_FILENO;  // (descriptor_named_by knows /dev/stdout)
}

}  // namespace fenmill::cli
