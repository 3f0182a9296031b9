#include "io/input_peek.h"

#include <sys/stat.h>

#include <cstring>
#include <memory>

#include "io/input_source.h"

namespace fenmill {
namespace {

// Serves the bytes already read from an input, then the rest of it, or the error the peek met (a stream
// that failed while peeking, e.g. corrupt zstd, must fail when read, not look like a clean end).
class PrefixedSource final : public InputSource {
 public:
  PrefixedSource(std::string prefix, std::unique_ptr<InputSource> rest, std::string pending_error)
      : InputSource(rest->name()), prefix_(std::move(prefix)), rest_(std::move(rest)), pending_error_(std::move(pending_error)) {}

  std::size_t read(char* dst, std::size_t max_bytes, std::string& error) override {
    if (pos_ < prefix_.size()) {
      std::size_t n = std::min(max_bytes, prefix_.size() - pos_);
      std::memcpy(dst, prefix_.data() + pos_, n);
      pos_ += n;
      return n;
    }
    if (!pending_error_.empty()) {
      error = pending_error_;
      return 0;
    }
    return rest_->read(dst, max_bytes, error);
  }

 private:
  std::string prefix_;
  std::size_t pos_ = 0;
  std::unique_ptr<InputSource> rest_;
  std::string pending_error_;
};

// A regular file can be opened again from its start; stdin, a pipe, a FIFO or a device cannot.
bool is_reopenable(const std::string& path) {
  struct stat st;
  return path != "-" && ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

}  // namespace

bool peek_input(const std::string& path, std::size_t n, std::string& head, std::string& error,
                const std::function<bool(std::string_view)>& enough) {
  head.clear();
  std::unique_ptr<InputSource> source = InputSource::open(path, error, InputOptions{.map_files = false});
  if (!source) return false;
  while (head.size() < n && !(enough && enough(head))) {
    if (source->read(head, n - head.size(), error) == 0) break;
  }
  bool ok = error.empty();
  if (!is_reopenable(path)) InputSource::keep_stream(path, std::make_unique<PrefixedSource>(head, std::move(source), error));
  return ok;
}

}  // namespace fenmill
