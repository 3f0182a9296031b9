// Reads a file descriptor (stdin, a pipe, a FIFO, a character device) with read() in blocks.
#pragma once
#include <cstdint>
#include <memory>
#include <string>

#include "io/byte_buffer.h"
#include "io/input_source.h"

namespace fenmill {

class FdReader final : public InputSource {
 public:
  // owns_fd: close fd on destruction (false for stdin).
  FdReader(int fd, bool owns_fd, std::string name) : InputSource(std::move(name)), fd_(fd), owns_fd_(owns_fd) {}
  ~FdReader() override;
  FdReader(const FdReader&) = delete;
  FdReader& operator=(const FdReader&) = delete;

  // Reads ahead until n bytes are buffered or the input ends, without consuming them (format sniffing
  // on a pipe, which cannot seek back). Returns the buffered bytes (maybe fewer than n).
  std::string_view peek(std::size_t n, std::string& error);

  std::size_t read(char* dst, std::size_t max_bytes, std::string& error) override;

  // A regular file of `size` bytes: positional reads are allowed (see InputSource::read_at).
  void allow_positional_reads(std::uint64_t size) { regular_size_ = expected_ = size; }
  // In-order reads should yield at least n bytes (standard input redirected from a regular file: its size from
  // the offset it was handed over at); fewer is the "file shrank" error.
  void expect_bytes(std::uint64_t n) { expected_ = n; }
  std::uint64_t positional_size() const override { return regular_size_; }
  std::size_t read_at(char* dst, std::size_t n, std::uint64_t offset, std::string& error) const override;
  bool map_window(std::uint64_t offset, std::size_t n, FileWindow& window) const override;

 private:
  int fd_;
  bool owns_fd_;
  ByteBuffer peeked_;
  std::size_t peeked_pos_ = 0;
  std::uint64_t regular_size_ = 0;
  std::uint64_t expected_ = 0;      // bytes the in-order reads should yield at least (0: unknown)
  std::uint64_t read_from_fd_ = 0;  // bytes read in order so far, peeked ones included
};

}  // namespace fenmill
