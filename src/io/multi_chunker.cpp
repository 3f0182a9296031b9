#include "io/multi_chunker.h"

namespace fenmill {

MultiChunker::MultiChunker(std::vector<std::string> paths, std::size_t chunk_size, const InputOptions& options)
    : paths_(std::move(paths)), chunk_size_(chunk_size), options_(options) {}

bool MultiChunker::next(Chunk& out, std::string& error) {
  error.clear();
  for (;;) {
    if (ranged_) {
      std::uint64_t size = ranged_->positional_size();
      if (ranged_offset_ < size) {
        out.storage.clear();
        out.bytes = {};
        out.source_index = ranged_index_;
        out.source_name = ranged_->name();
        out.offset = ranged_offset_;
        out.range_end = size - ranged_offset_ > chunk_size_ ? ranged_offset_ + chunk_size_ : size;
        out.skipped = out.long_line_bytes = out.too_large_game_lines = 0;
        out.starts_input = ranged_offset_ == 0;
        out.sequence = sequence_++;
        out.source = ranged_;
        ranged_offset_ = out.range_end;
        return true;
      }
      ranged_.reset();
    }
    if (!current_) {
      if (next_input_ >= paths_.size()) return false;
      std::size_t index = next_input_++;
      std::shared_ptr<InputSource> source = InputSource::open(paths_[index], error, options_);
      if (!source) return false;
      if (index < ranges_allowed_.size() && ranges_allowed_[index] && source->positional_size() > 0) {
        ranged_ = std::move(source);
        ranged_index_ = static_cast<std::uint32_t>(index);
        ranged_offset_ = 0;
        continue;
      }
      const bool limited = index < lines_limited_.size() && lines_limited_[index];
      // One byte more than the longest line: a CR before the '\n' is the line end's, so a line of kMaxLineBytes
      // with CRLF is read whole, and a cut line keeps more than kMaxLineBytes even when its last kept byte is a CR.
      const bool split = index < lines_split_.size() && lines_split_[index];
      current_.emplace(std::move(source), chunk_size_, static_cast<std::uint32_t>(index),
                       limited ? kMaxLineBytes + 1 : split ? kMaxLineBytes : 0, split);
    }
    if (current_->next(out, error)) {
      out.sequence = sequence_++;
      out.range_end = 0;
      out.window.reset();  // a reused chunk may still hold an earlier range's pages
      return true;
    }
    current_.reset();
    if (!error.empty()) return false;
  }
}

}  // namespace fenmill
