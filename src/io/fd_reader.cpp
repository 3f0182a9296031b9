#include "io/fd_reader.h"

#include <poll.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace fenmill {
namespace {

// One read(), retried on EINTR, and on EAGAIN once poll() says bytes (or the end) have come: a descriptor handed
// over non-blocking (stdin from some process spawners, e.g. node's child_process) failed the run with "Resource
// temporarily unavailable" whenever the writer was slower than fenmill. The flag belongs to the descriptor's
// open file description, shared with whoever gave it, so it is waited out, not cleared. Returns -1 on error.
ssize_t read_some(int fd, char* dst, std::size_t max_bytes) {
  for (;;) {
    ssize_t n = ::read(fd, dst, max_bytes);
    if (n >= 0) return n;
    if (errno == EAGAIN || errno == EWOULDBLOCK) {
      pollfd ready{fd, POLLIN, 0};
      if (::poll(&ready, 1, -1) < 0 && errno != EINTR) return -1;
    } else if (errno != EINTR) {
      return -1;
    }
  }
}

}  // namespace

FdReader::~FdReader() {
  if (owns_fd_) ::close(fd_);
}

std::string_view FdReader::peek(std::size_t n, std::string& error) {
  while (peeked_.size() < n) {
    ssize_t got = read_some(fd_, peeked_.prepare(n - peeked_.size()), n - peeked_.size());
    if (got < 0) {
      error = name() + ": read: " + std::strerror(errno);
      break;
    }
    if (got == 0) break;
    read_from_fd_ += static_cast<std::uint64_t>(got);
    peeked_.commit(static_cast<std::size_t>(got));
  }
  return peeked_.view().substr(peeked_pos_);
}

std::size_t FdReader::read(char* dst, std::size_t max_bytes, std::string& error) {
  if (peeked_pos_ < peeked_.size()) {
    std::size_t n = peeked_.size() - peeked_pos_;
    if (n > max_bytes) n = max_bytes;
    std::memcpy(dst, peeked_.data() + peeked_pos_, n);
    peeked_pos_ += n;
    return n;
  }
  ssize_t got = read_some(fd_, dst, max_bytes);
  if (got < 0) {
    error = name() + ": read: " + std::strerror(errno);
    return 0;
  }
  read_from_fd_ += static_cast<std::uint64_t>(got);
  // The end of a regular file before the size it had when opened: another process has cut it short, and
  // ending the input here would publish a partial output with exit 0. (A file that grew is read to its end.)
  if (got == 0 && max_bytes > 0 && read_from_fd_ < expected_)
    error = shrank_error();
  return static_cast<std::size_t>(got);
}

std::size_t FdReader::read_at(char* dst, std::size_t n, std::uint64_t offset, std::string& error) const {
  for (;;) {
    ssize_t got = ::pread(fd_, dst, n, static_cast<off_t>(offset));
    if (got >= 0) return static_cast<std::size_t>(got);
    if (errno == EINTR) continue;
    error = name() + ": read: " + std::strerror(errno);
    return 0;
  }
}

bool FdReader::map_window(std::uint64_t offset, std::size_t n, FileWindow& window) const {
  // A file that shrank since it was opened would raise SIGBUS on the lost pages: read it instead (this narrows
  // the window for that, it cannot close it).
  struct stat st;
  if (regular_size_ == 0 || ::fstat(fd_, &st) != 0 || static_cast<std::uint64_t>(st.st_size) < offset + n) return false;
  return window.map(fd_, offset, n);
}

}  // namespace fenmill
