// An output file that appears complete or not at all: bytes go to a temp file in the target's directory
// (".<name>.fenmill-XXXXXX"), and commit() fsyncs it and renames it onto the target. Without commit() (an
// error, an early return, SIGINT/SIGTERM) the temp file is removed and the target is untouched.
// Streams are written in place through the same buffer, with no temp file and nothing to rename: target "-"
// (and "/dev/stdout") is stdout; /dev/stdin, /dev/stderr, /dev/fd/N and /proc/self/fd/N are that descriptor, whatever it
// points at; an existing target that is not a regular file (/dev/null, a FIFO, a terminal) is opened and written
// as it is, without --force: replacing it with a file would be wrong.
#pragma once
#include <cstddef>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>

namespace fenmill {

// The descriptor a name such as /dev/stdin, /dev/stdout, /dev/stderr or /dev/fd/3 stands for, or -1 ("-" is not a name).
int descriptor_named_by(const std::string& target);

class AtomicOutput {
 public:
  static constexpr std::size_t kBufferSize = std::size_t{1} << 20;

  // Refuses an existing target unless `force` (then commit() replaces it; a symlink is replaced, not
  // followed, and the new file keeps the old file's permission bits). Returns null and sets `error` on failure.
  static std::unique_ptr<AtomicOutput> open(const std::string& target, bool force, std::string& error);
  ~AtomicOutput();
  AtomicOutput(const AtomicOutput&) = delete;
  AtomicOutput& operator=(const AtomicOutput&) = delete;

  // Buffered. Returns false once any write failed; error() says why, and commit() will fail.
  bool write(std::string_view bytes) {
    if (bytes.size() <= kBufferSize - used_) {
      std::memcpy(buffer_.get() + used_, bytes.data(), bytes.size());
      used_ += bytes.size();
      return error_.empty();
    }
    return write_slow(bytes);
  }
  bool flush();  // write the buffer out now (not needed before commit())

  // Flushes, fsyncs and closes the temp file (a stream: flushes), so that only the rename is left: a run with
  // several outputs prepares them all before it commits any, and a write error in one leaves none published.
  // False with `error` on failure; commit() will then fail too.
  bool prepare(std::string& error);
  // prepare() if not done yet, then renames onto the target. Once only; false with `error` on failure, and then
  // the temp file is removed when this object goes.
  bool commit(std::string& error);
  // Removes the temp file now (the destructor does it too).
  void abandon();

  bool is_stream() const { return temp_path_.empty(); }
  // The CLI refuses binary output to a terminal.
  bool is_terminal() const;

  const std::string& target() const { return target_; }
  const std::string& temp_path() const { return temp_path_; }  // empty for a stream
  // Where other temporary files for this output belong: the target's directory (it has room for the output),
  // for a stream $TMPDIR, else /tmp.
  std::string scratch_directory() const;
  const std::string& error() const { return error_; }

 private:
  AtomicOutput(std::string target, std::string temp_path, int fd, bool force, int registry_slot);
  static std::unique_ptr<AtomicOutput> stream(std::string target, int fd);
  std::string display_name() const { return fd_is_stdout_ ? "<stdout>" : target_; }
  bool write_slow(std::string_view bytes);
  void finish();
  bool write_all(const char* data, std::size_t size);

  std::string target_;
  std::string temp_path_;
  int fd_;
  bool force_;
  int registry_slot_;
  bool fd_is_stdout_ = false;  // a stream on fd 1: not ours to close
  bool finished_ = false;  // committed or abandoned
  bool prepared_ = false;  // prepare() succeeded: only the rename is left
  std::unique_ptr<char[]> buffer_;
  std::size_t used_ = 0;
  std::string error_;
};

}  // namespace fenmill
