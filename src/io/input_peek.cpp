#include "io/input_peek.h"

#include <cstring>
#include <memory>

#include "io/input_source.h"

namespace fenmill {
namespace {

// Serves the bytes already read from an input, then the rest of it.
class PrefixedSource final : public InputSource {
 public:
  PrefixedSource(std::string prefix, std::unique_ptr<InputSource> rest)
      : InputSource(rest->name()), prefix_(std::move(prefix)), rest_(std::move(rest)) {}

  std::size_t read(char* dst, std::size_t max_bytes, std::string& error) override {
    if (pos_ < prefix_.size()) {
      std::size_t n = std::min(max_bytes, prefix_.size() - pos_);
      std::memcpy(dst, prefix_.data() + pos_, n);
      pos_ += n;
      return n;
    }
    return rest_->read(dst, max_bytes, error);
  }

 private:
  std::string prefix_;
  std::size_t pos_ = 0;
  std::unique_ptr<InputSource> rest_;
};

}  // namespace

bool peek_input(const std::string& path, std::size_t n, std::string& head, std::string& error) {
  head.clear();
  std::unique_ptr<InputSource> source = InputSource::open(path, error, InputOptions{.map_files = false});
  if (!source) return false;
  while (head.size() < n) {
    if (source->read(head, n - head.size(), error) == 0) break;
  }
  bool ok = error.empty();
  if (path == "-") InputSource::keep_stdin(std::make_unique<PrefixedSource>(head, std::move(source)));
  return ok;
}

}  // namespace fenmill
