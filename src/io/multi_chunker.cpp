#include "io/multi_chunker.h"

namespace fenmill {

MultiChunker::MultiChunker(std::vector<std::string> paths, std::size_t chunk_size, const InputOptions& options)
    : paths_(std::move(paths)), chunk_size_(chunk_size), options_(options) {}

bool MultiChunker::next(Chunk& out, std::string& error) {
  error.clear();
  for (;;) {
    if (!current_) {
      if (next_input_ >= paths_.size()) return false;
      std::size_t index = next_input_++;
      std::shared_ptr<InputSource> source = InputSource::open(paths_[index], error, options_);
      if (!source) return false;
      current_.emplace(std::move(source), chunk_size_, static_cast<std::uint32_t>(index));
    }
    if (current_->next(out, error)) {
      out.sequence = sequence_++;
      return true;
    }
    current_.reset();
    if (!error.empty()) return false;
  }
}

}  // namespace fenmill
