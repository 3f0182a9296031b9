// A read-only private memory mapping of a whole regular file (possibly larger than 4 GiB).
// If another process truncates the file while it is mapped, touching the lost pages raises SIGBUS:
// that is the price of zero-copy input and is not handled.
#pragma once
#include <memory>
#include <string>

#include "io/input_source.h"

namespace fenmill {

class MappedFile final : public InputSource {
 public:
  // Maps `size` bytes (> 0) of fd from offset 0; does not take ownership of fd (it may be closed after).
  static std::unique_ptr<MappedFile> map(int fd, std::size_t size, std::string name, std::string& error);
  ~MappedFile() override;
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;

  std::size_t read(char* dst, std::size_t max_bytes, std::string& error) override;
  std::string_view mapped() const override { return {data_, size_}; }
  void release(std::string_view bytes) const override;

 private:
  MappedFile(const char* data, std::size_t size, std::string name)
      : InputSource(std::move(name)), data_(data), size_(size) {}
  const char* data_;
  std::size_t size_;
  std::size_t read_pos_ = 0;  // only for callers that use read() rather than mapped()
};

}  // namespace fenmill
