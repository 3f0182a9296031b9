#include "io/spill_file.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace fenmill {

std::unique_ptr<SpillFile> SpillFile::create(const std::string& directory, std::string& error) {
  int fd = ::open(directory.c_str(), O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
  if (fd < 0 && (errno == EOPNOTSUPP || errno == EISDIR || errno == EINVAL)) {  // no O_TMPFILE here
    std::string path = directory + "/.fenmill-spill-XXXXXX";
    fd = ::mkostemp(path.data(), O_CLOEXEC);
    if (fd >= 0) ::unlink(path.c_str());
  }
  if (fd < 0) {
    error = directory + ": cannot make a temporary file: " + std::strerror(errno);
    return nullptr;
  }
  return std::unique_ptr<SpillFile>(new SpillFile(fd, directory));
}

SpillFile::~SpillFile() { ::close(fd_); }

bool SpillFile::append(std::string_view bytes) {
  while (error_.empty() && !bytes.empty()) {
    ssize_t n = ::write(fd_, bytes.data(), bytes.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      error_ = what_ + (n < 0 ? std::strerror(errno) : "nothing written");
      break;
    }
    bytes.remove_prefix(static_cast<std::size_t>(n));
    size_ += static_cast<std::uint64_t>(n);
  }
  return error_.empty();
}

long long SpillFile::read_at(std::uint64_t offset, char* dst, std::size_t n) {
  for (;;) {
    ssize_t got = ::pread(fd_, dst, n, static_cast<off_t>(offset));
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) error_ = what_ + std::strerror(errno);
    return got;
  }
}

}  // namespace fenmill
