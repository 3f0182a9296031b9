#include "io/atomic_output.h"

#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "io/temp_file_registry.h"

namespace fenmill {
namespace {

std::string errno_text() { return std::strerror(errno); }

// The process umask without changing it (umask() both reads and sets, racing with other threads).
mode_t current_umask() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line))
    if (line.rfind("Umask:", 0) == 0) return static_cast<mode_t>(std::strtoul(line.c_str() + 6, nullptr, 8));
  return 022;
}

std::string directory_of(const std::string& path) {
  std::size_t slash = path.rfind('/');
  if (slash == std::string::npos) return ".";
  if (slash == 0) return "/";
  return path.substr(0, slash);
}

// Makes the rename itself durable.
void sync_directory(const std::string& dir) {
  int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return;
  ::fsync(fd);
  ::close(fd);
}

// ".<name>.fenmill-XXXXXX", or ".fenmill-XXXXXX" when that would pass the file system's name limit (NAME_MAX).
std::string temp_name_for(const std::string& dir, const std::string& base) {
  std::string name = "." + base + ".fenmill-XXXXXX";
  long limit = ::pathconf(dir.empty() ? "." : dir.c_str(), _PC_NAME_MAX);
  if (name.size() > static_cast<std::size_t>(limit > 0 ? limit : 255)) name = ".fenmill-XXXXXX";
  return dir + name;
}

}  // namespace

namespace {

// The descriptor a name spelled exactly /dev/stdin, /dev/fd/N, ... stands for, or -1.
int descriptor_in_name(const std::string& name) {
  if (name == "/dev/stdin") return STDIN_FILENO;
  if (name == "/dev/stdout") return STDOUT_FILENO;
  if (name == "/dev/stderr") return STDERR_FILENO;
  for (std::string_view prefix : {"/dev/fd/", "/proc/self/fd/"}) {
    if (name.rfind(prefix, 0) != 0) continue;
    std::string_view digits = std::string_view(name).substr(prefix.size());
    if (digits.empty() || digits.size() > 9 || digits.find_first_not_of("0123456789") != std::string_view::npos) return -1;
    return std::atoi(std::string(digits).c_str());
  }
  return -1;
}

}  // namespace

// The descriptor a name such as /dev/stderr or /dev/fd/3 stands for, or -1. These are symlinks to whatever the
// descriptor is (a terminal, a pipe, a log file): writing goes through the descriptor, never renames onto the name.
// (/dev/stdin too: read as a plain name, `-o /dev/stdin --force` replaced the /dev/stdin symlink with a file.)
// Under any spelling (//dev/stdout, /dev/./stdout) and through symlinks to them (a link to /dev/stdout): with
// stdout redirected to a file, `-o //dev/stdout --force` renamed a temporary file onto the /dev/stdout symlink.
int descriptor_named_by(const std::string& target) {
  std::string name = target;
  for (int hop = 0; hop < 8; ++hop) {
    name = std::filesystem::path(name).lexically_normal().string();
    if (int fd = descriptor_in_name(name); fd >= 0) return fd;
    char link[4096];
    const ssize_t n = ::readlink(name.c_str(), link, sizeof link);
    if (n <= 0 || static_cast<std::size_t>(n) == sizeof link) return -1;  // not a symlink (the usual case)
    std::string next(link, static_cast<std::size_t>(n));
    name = next[0] == '/' ? next : directory_of(name) + "/" + next;
  }
  return -1;
}

std::unique_ptr<AtomicOutput> AtomicOutput::open(const std::string& target, bool force, std::string& error) {
  if (target == "-") return stream(target, STDOUT_FILENO);
  if (int named = descriptor_named_by(target); named >= 0) {
    if (named == STDOUT_FILENO) return stream(target, STDOUT_FILENO);
    int fd = ::fcntl(named, F_DUPFD_CLOEXEC, 3);
    if (fd < 0) {
      error = target + ": " + errno_text();
      return nullptr;
    }
    return stream(target, fd);
  }

  mode_t mode = 0666 & ~current_umask();
  struct stat st;
  if (::stat(target.c_str(), &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode)) {
    int fd = ::open(target.c_str(), O_WRONLY | O_CLOEXEC | O_NOCTTY);
    if (fd < 0) {
      error = target + ": " + errno_text();
      return nullptr;
    }
    return stream(target, fd);
  }
  if (::lstat(target.c_str(), &st) == 0) {
    if (S_ISDIR(st.st_mode)) {
      error = target + ": is a directory";
      return nullptr;
    }
    if (!force) {
      error = target + ": already exists (use --force to overwrite)";
      return nullptr;
    }
    // The replaced file's permissions, but not setuid/setgid: new contents never inherit those (a write to the
    // file itself would clear them too).
    if (S_ISREG(st.st_mode)) mode = st.st_mode & 01777;
  } else if (errno != ENOENT) {
    error = target + ": " + errno_text();
    return nullptr;
  }

  std::size_t slash = target.rfind('/');
  std::string base = slash == std::string::npos ? target : target.substr(slash + 1);
  if (base.empty()) {
    error = target + ": not a file name";
    return nullptr;
  }
  std::string temp = temp_name_for(slash == std::string::npos ? std::string() : target.substr(0, slash + 1), base);
  int fd = ::mkostemp(temp.data(), O_CLOEXEC);
  if (fd < 0) {
    error = target + ": cannot create a temporary file " + temp + ": " + errno_text();
    return nullptr;
  }
  int slot = register_temp_file(temp);
  ::fchmod(fd, mode);  // mkstemp makes 0600; give the result the permissions a plain create would
  return std::unique_ptr<AtomicOutput>(new AtomicOutput(target, std::move(temp), fd, force, slot));
}

std::unique_ptr<AtomicOutput> AtomicOutput::stream(std::string target, int fd) {
  std::unique_ptr<AtomicOutput> out(new AtomicOutput(std::move(target), "", fd, false, -1));
  out->fd_is_stdout_ = fd == STDOUT_FILENO;
  return out;
}

std::string AtomicOutput::scratch_directory() const {
  if (!is_stream()) return directory_of(target_);
  const char* tmp = std::getenv("TMPDIR");
  return tmp && *tmp ? tmp : "/tmp";
}

AtomicOutput::AtomicOutput(std::string target, std::string temp_path, int fd, bool force, int registry_slot)
    : target_(std::move(target)),
      temp_path_(std::move(temp_path)),
      fd_(fd),
      force_(force),
      registry_slot_(registry_slot),
      buffer_(new char[kBufferSize]) {}

AtomicOutput::~AtomicOutput() {
  if (is_stream()) {
    if (!finished_) flush();  // nothing to roll back on a stream: do not lose what was written
    if (!fd_is_stdout_) ::close(fd_);
    return;
  }
  abandon();
}

bool AtomicOutput::is_terminal() const { return ::isatty(fd_) == 1; }

bool AtomicOutput::write_all(const char* data, std::size_t size) {
  if (!error_.empty()) return false;
  if (finished_) {
    error_ = target_ + ": write after commit() or abandon()";
    return false;
  }
  while (size > 0) {
    ssize_t n = ::write(fd_, data, size);
    if (n < 0) {
      if (errno == EINTR) continue;
      // Standard output handed over non-blocking (as some spawners leave it): a full pipe is waited out, not an
      // error. (The flag is shared with whoever gave the descriptor: not cleared.)
      if (errno == EAGAIN || errno == EWOULDBLOCK) {
        pollfd ready{fd_, POLLOUT, 0};
        if (::poll(&ready, 1, -1) >= 0 || errno == EINTR) continue;
      }
      error_ = display_name() + ": write: " + errno_text();
      return false;
    }
    data += n;
    size -= static_cast<std::size_t>(n);
  }
  return true;
}

bool AtomicOutput::flush() {
  if (finished_) return write_all(nullptr, 0);  // reports "write after commit"
  std::size_t n = used_;
  used_ = 0;
  return write_all(buffer_.get(), n);
}

bool AtomicOutput::write_slow(std::string_view bytes) {
  if (!flush()) return false;
  if (bytes.size() >= kBufferSize) return write_all(bytes.data(), bytes.size());  // big blocks: no copy
  std::memcpy(buffer_.get(), bytes.data(), bytes.size());
  used_ = bytes.size();
  return true;
}

bool AtomicOutput::prepare(std::string& error) {
  if (finished_) {
    error = target_ + ": already committed or abandoned";
    return false;
  }
  if (prepared_ && used_ > 0) {
    error = target_ + ": write after prepare()";
    return false;
  }
  if (prepared_) return true;
  if (!flush()) {
    error = error_;
    return false;
  }
  if (!is_stream()) {
    // A target that appeared since open() fails here, before the run publishes any of its outputs (they are
    // all prepared first), not only at its own rename after the others are in place. (The rename still refuses
    // one that appears in between.)
    struct stat st;
    if (!force_ && ::lstat(target_.c_str(), &st) == 0) {
      error_ = target_ + ": already exists (use --force to overwrite)";
      error = error_;
      return false;
    }
    if (::fsync(fd_) != 0) {
      error_ = target_ + ": fsync: " + errno_text();
      error = error_;
      return false;
    }
    int fd = fd_;
    fd_ = -1;
    if (::close(fd) != 0) {  // NFS and quota errors may only show up here
      error_ = target_ + ": close: " + errno_text();
      error = error_;
      return false;
    }
  }
  prepared_ = true;
  return true;
}

bool AtomicOutput::commit(std::string& error) {
  if (!prepare(error)) return false;
  if (is_stream()) {
    finish();
    return true;
  }
  int renamed;
  if (force_) {
    renamed = ::rename(temp_path_.c_str(), target_.c_str());
  } else {
    // Never replace a target that appeared since open().
    renamed = ::renameat2(AT_FDCWD, temp_path_.c_str(), AT_FDCWD, target_.c_str(), RENAME_NOREPLACE);
    if (renamed != 0 && (errno == EINVAL || errno == ENOSYS)) {  // file system without RENAME_NOREPLACE
      renamed = ::link(temp_path_.c_str(), target_.c_str());
      if (renamed == 0) ::unlink(temp_path_.c_str());
    }
  }
  if (renamed != 0) {
    error = errno == EEXIST ? target_ + ": already exists (use --force to overwrite)"
                            : target_ + ": cannot rename " + temp_path_ + ": " + errno_text();
    return false;
  }
  unregister_temp_file(registry_slot_);
  registry_slot_ = -1;
  finish();
  sync_directory(directory_of(target_));
  return true;
}

void AtomicOutput::finish() {
  finished_ = true;
  used_ = kBufferSize;  // a later write() misses the fast path and fails in write_all() instead of vanishing
}

void AtomicOutput::abandon() {
  if (finished_) return;
  finish();
  if (is_stream()) return;
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
  ::unlink(temp_path_.c_str());
  unregister_temp_file(registry_slot_);
  registry_slot_ = -1;
}

}  // namespace fenmill
