// One input's bytes, in order, in blocks: a memory-mapped regular file, stdin/a pipe/a FIFO read in
// blocks, or zstd-compressed content decompressed on the fly (never unpacked to disk).
// No exceptions: failures come back as a message in `error` (I/O errors are not per position).
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "io/file_window.h"

namespace fenmill {

struct InputOptions {
  // Map whole regular files (zero-copy chunks). Off: read() them in blocks like a pipe, or let the pipeline's
  // workers map their own ranges (map_window); whole-file mapping faults a page at a time and holds every
  // page it touched in RSS (docs/PERFORMANCE.md).
  bool map_files = true;
};

// An input's name in messages, reports and rejects: the path as given, "<stdin>" for "-".
inline std::string input_name(const std::string& path) { return path == "-" ? "<stdin>" : path; }

class InputSource {
 public:
  virtual ~InputSource() = default;

  // Opens `path` ("-" = stdin). Regular files are memory-mapped (an empty one is read instead: mmap of 0
  // bytes fails); anything else is read() in blocks. zstd content is recognised by its magic number
  // (a frame 0xFD2FB528 or a skippable frame 0x184D2A5?) or by a ".zst" name (any case), on files and on stdin alike.
  // Returns null and sets `error` (naming the path) on failure.
  static std::unique_ptr<InputSource> open(const std::string& path, std::string& error,
                                           const InputOptions& options = {});
  // Whether open() would decompress the regular file at `path` (by its magic number or its name), so its size
  // on disk says nothing of how many bytes it gives. False for anything that cannot be opened.
  static bool is_compressed_file(const std::string& path);
  // Makes the next open(path) return `source` instead of opening the path again: stdin, a pipe, a FIFO or a
  // device is one stream, so a caller that read its first bytes to sniff them hands the rest back this way
  // (io/input_peek.h).
  static void keep_stream(const std::string& path, std::unique_ptr<InputSource> source);
  // An in-memory input (zero-copy through mapped()); for tests and callers that already hold the bytes.
  static std::unique_ptr<InputSource> from_memory(std::string bytes, std::string name);

  // Writes up to max_bytes (> 0) of the next bytes to dst. Returns how many, 0 at the end of the input or
  // on failure (then `error` is set). Never returns 0 before the end: short counts are normal.
  virtual std::size_t read(char* dst, std::size_t max_bytes, std::string& error) = 0;
  // Convenience: appends up to max_bytes of the next bytes to buf.
  std::size_t read(std::string& buf, std::size_t max_bytes, std::string& error);

  // The whole input when it is mapped in memory (and then read() is unused); empty otherwise.
  // Valid for the lifetime of this object.
  virtual std::string_view mapped() const { return {}; }
  // `bytes`, a piece of mapped() whose records are all written, will not be read again: a file mapping lets its
  // pages go, so that reading a whole-file mapping (--mmap) does not count the file towards the run's RSS. A hint
  // only (a page let go would be read again from the page cache); memory that is not a file mapping is kept.
  virtual void release(std::string_view /*bytes*/) const {}

  // Regular, uncompressed files read without a mapping can also be read at any offset, by several threads at
  // once: the pipeline then lets each worker read its own chunk (io/range_fill.h). Size 0: not possible here.
  virtual std::uint64_t positional_size() const { return 0; }
  // Reads up to n bytes at `offset` (pread); returns how many, 0 at the end of the file or on failure (then
  // `error` is set). Only when positional_size() > 0.
  virtual std::size_t read_at(char*, std::size_t, std::uint64_t, std::string& error) const {
    error = name_ + ": positional reads are not supported";
    return 0;
  }
  // Maps n bytes at `offset` (all inside positional_size()) into `window` instead of reading them. False when
  // this source cannot (then read_at() serves).
  virtual bool map_window(std::uint64_t, std::size_t, FileWindow&) const { return false; }

  // For messages: the path as given, "<stdin>" for "-".
  const std::string& name() const { return name_; }
  // The error of a regular file that ended before the size it had when opened: another process cut it short.
  std::string shrank_error() const { return name_ + ": the file shrank while it was being read (truncated by another process?)"; }

 protected:
  explicit InputSource(std::string name) : name_(std::move(name)) {}

 private:
  std::string name_;
};

}  // namespace fenmill
