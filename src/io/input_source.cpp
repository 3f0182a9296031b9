#include "io/input_source.h"

#include <fcntl.h>
#include <linux/magic.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <map>

#include "io/fd_reader.h"
#include "io/file_extension.h"
#include "io/mapped_file.h"
#include "io/zstd_reader.h"

namespace fenmill {
namespace {

// Whether a regular file's size is what it holds: not on the kernel's pseudo file systems, where sysfs and
// configfs say 4096 for a few bytes, mqueue 80 for ~50 (the shrink check would call such a file cut short) and
// procfs says 0. Their files are read as streams.
bool size_is_real(int fd) {
  constexpr unsigned long kMqueueMagic = 0x19800202, kConfigfsMagic = 0x62656570;  // not in <linux/magic.h>
  struct statfs fs;
  if (::fstatfs(fd, &fs) != 0) return true;
  switch (static_cast<unsigned long>(fs.f_type)) {
    case SYSFS_MAGIC:
    case PROC_SUPER_MAGIC:
    case DEBUGFS_MAGIC:
    case TRACEFS_MAGIC:
    case SECURITYFS_MAGIC:
    case CGROUP_SUPER_MAGIC:
    case CGROUP2_SUPER_MAGIC:
    case SELINUX_MAGIC:
    case SMACK_MAGIC:
    case PSTOREFS_MAGIC:
    case EFIVARFS_MAGIC:
    case BINFMTFS_MAGIC:
    case BPF_FS_MAGIC:
    case kMqueueMagic:
    case kConfigfsMagic:
      return false;
    default:
      return true;
  }
}

class MemorySource final : public InputSource {
 public:
  MemorySource(std::string bytes, std::string name) : InputSource(std::move(name)), bytes_(std::move(bytes)) {}
  std::size_t read(char* dst, std::size_t max_bytes, std::string&) override {
    std::size_t n = bytes_.size() - pos_ < max_bytes ? bytes_.size() - pos_ : max_bytes;
    std::memcpy(dst, bytes_.data() + pos_, n);
    pos_ += n;
    return n;
  }
  std::string_view mapped() const override { return bytes_; }

 private:
  std::string bytes_;
  std::size_t pos_ = 0;
};

std::map<std::string, std::unique_ptr<InputSource>>& kept_streams() {
  static std::map<std::string, std::unique_ptr<InputSource>> kept;
  return kept;
}

// Whether open() decompresses an input that starts with `head`: zstd content, or a ".zst" name in any case, as
// the format is read from the name under it (x.fen.ZST is FEN): plain text there is an error, not read as it is.
bool decompresses(std::string_view head, const std::string& path) {
  return looks_like_zstd(head) || has_extension(path, ".zst");
}

}  // namespace

bool InputSource::is_compressed_file(const std::string& path) {
  char head[4];
  ssize_t n = 0;
  if (int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC); fd >= 0) {
    n = ::pread(fd, head, sizeof head, 0);
    ::close(fd);
  }
  return decompresses(std::string_view(head, n > 0 ? static_cast<std::size_t>(n) : 0), path);
}

std::size_t InputSource::read(std::string& buf, std::size_t max_bytes, std::string& error) {
  std::size_t old = buf.size();
  buf.resize(old + max_bytes);
  std::size_t n = read(buf.data() + old, max_bytes, error);
  buf.resize(old + n);
  return n;
}

std::unique_ptr<InputSource> InputSource::from_memory(std::string bytes, std::string name) {
  return std::make_unique<MemorySource>(std::move(bytes), std::move(name));
}

void InputSource::keep_stream(const std::string& path, std::unique_ptr<InputSource> source) {
  kept_streams()[path] = std::move(source);
}

std::unique_ptr<InputSource> InputSource::open(const std::string& path, std::string& error,
                                               const InputOptions& options) {
  const bool is_stdin = path == "-";
  if (auto kept = kept_streams().find(path); kept != kept_streams().end()) {
    std::unique_ptr<InputSource> source = std::move(kept->second);
    kept_streams().erase(kept);
    return source;
  }
  std::string name = input_name(path);
  int fd = 0;
  if (!is_stdin) {
    do fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    while (fd < 0 && errno == EINTR);  // opening a FIFO blocks until a writer comes, and can be interrupted
    if (fd < 0) {
      error = path + ": " + std::strerror(errno);
      return nullptr;
    }
  }
  struct stat st;
  if (::fstat(fd, &st) != 0) {
    error = name + ": fstat: " + std::strerror(errno);
    if (!is_stdin) ::close(fd);
    return nullptr;
  }
  if (S_ISDIR(st.st_mode)) {
    error = name + ": is a directory";
    if (!is_stdin) ::close(fd);
    return nullptr;
  }

  std::unique_ptr<InputSource> source;
  std::string_view head;
  // stdin redirected from a file (`< file`) is mapped too, when nothing has read from it yet.
  const bool sized = S_ISREG(st.st_mode) && st.st_size > 0 && size_is_real(fd);  // read as a stream otherwise
  bool mappable = options.map_files && sized && (!is_stdin || ::lseek(fd, 0, SEEK_CUR) == 0);
  if (mappable) {
    auto mapped = MappedFile::map(fd, static_cast<std::size_t>(st.st_size), name, error);
    if (is_stdin) ::lseek(fd, 0, SEEK_END);  // consumed, as if read: "- -" must not map it twice
    if (!is_stdin) ::close(fd);  // the mapping stays valid without the descriptor
    if (!mapped) return nullptr;
    head = mapped->mapped().substr(0, 4);
    source = std::move(mapped);
  } else {
    // Standard input redirected from a file (`< f`) is read in order from where it was handed over.
    const off_t handed_at = is_stdin && sized ? ::lseek(fd, 0, SEEK_CUR) : -1;
    auto reader = std::make_unique<FdReader>(fd, !is_stdin, name);
    head = reader->peek(4, error);
    if (!error.empty()) return nullptr;
    if (!is_stdin && sized) reader->allow_positional_reads(static_cast<std::uint64_t>(st.st_size));
    if (handed_at >= 0 && handed_at <= st.st_size) reader->expect_bytes(static_cast<std::uint64_t>(st.st_size - handed_at));
    source = std::move(reader);
  }
  if (decompresses(head, path)) return ZstdReader::wrap(std::move(source), error);
  return source;
}

}  // namespace fenmill
