#include "cli/standard_streams.h"

#include <fcntl.h>
#include <poll.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>

#include "io/atomic_output.h"
#include "pipeline/report.h"

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
  return ClosedStreams{closed[0], closed[1], closed[2]};
}

namespace {

// stderr's writes: every byte, polling while a non-blocking pipe is full. (The O_NONBLOCK flag belongs to the
// open file description, shared with whoever handed it over: waited out, not cleared.)
ssize_t write_to_stderr(void*, const char* data, std::size_t size) {
  std::size_t done = 0;
  while (done < size) {
    const ssize_t n = ::write(STDERR_FILENO, data + done, size - done);
    if (n >= 0) {
      done += static_cast<std::size_t>(n);
      continue;
    }
    if (errno == EINTR) continue;
    if (errno == EAGAIN || errno == EWOULDBLOCK) {
      pollfd ready{STDERR_FILENO, POLLOUT, 0};
      if (::poll(&ready, 1, -1) >= 0 || errno == EINTR) continue;
    }
    return done > 0 ? static_cast<ssize_t>(done) : -1;
  }
  return static_cast<ssize_t>(done);
}

}  // namespace

// Always, not only when the flag is set now: whoever shares the descriptor may set it at any time.
void wait_for_room_on_stderr() {
  if (FILE* waiting = ::fopencookie(nullptr, "w", cookie_io_functions_t{nullptr, write_to_stderr, nullptr, nullptr})) {
    std::setvbuf(waiting, nullptr, _IONBF, 0);  // as stderr is: each message goes out whole, at once
    stderr = waiting;
  }
}

bool names_standard_input(const std::string& path) {
  return path == "-" || descriptor_named_by(path) == STDIN_FILENO;  // (descriptor_named_by knows /dev/stdin)
}

bool names_standard_output(const std::string& path) {
  return path == "-" || descriptor_named_by(path) == STDOUT_FILENO;  // (descriptor_named_by knows /dev/stdout)
}

namespace {

// A descriptor name (/dev/fd/N, /proc/self/fd/N, N > 2) whose descriptor is not open now, before fenmill has
// opened anything: said on stderr.
bool names_a_closed_descriptor(const std::string& path) {
  const int fd = descriptor_named_by(path);
  if (fd <= STDERR_FILENO || ::fcntl(fd, F_GETFD) != -1) return false;
  std::fprintf(stderr, "fenmill: %s: descriptor %d is not open\n", one_line(path).c_str(), fd);
  return true;
}

}  // namespace

bool closed_streams_unused(const ClosedStreams& closed, const std::vector<std::string>& inputs,
                           std::initializer_list<const std::string*> outputs) {
  for (const std::string& input : inputs) {
    if (closed.in && names_standard_input(input)) {
      std::fprintf(stderr, "fenmill: standard input (%s) is closed\n", one_line(input).c_str());
      return false;
    }
    if (names_a_closed_descriptor(input)) return false;
  }
  for (const std::string* path : outputs) {
    if (path->empty()) continue;
    if (closed.out && names_standard_output(*path)) {
      std::fprintf(stderr, "fenmill: standard output is closed: name a file instead of %s\n", one_line(*path).c_str());
      return false;
    }
    if (closed.err && descriptor_named_by(*path) == STDERR_FILENO) {  // (said to /dev/null: the exit code tells)
      std::fprintf(stderr, "fenmill: standard error is closed: name a file instead of %s\n", one_line(*path).c_str());
      return false;
    }
    if (names_a_closed_descriptor(*path)) return false;
  }
  return true;
}

}  // namespace fenmill::cli
