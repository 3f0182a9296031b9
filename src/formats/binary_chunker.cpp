#include "formats/binary_chunker.h"

namespace fenmill {

bool BinaryChunker::read_exact(ByteBuffer& buf, std::size_t n, std::string& error) {
  char* dst = buf.prepare(n);
  std::size_t got = 0;
  while (got < n) {
    std::size_t r = source_->read(dst + got, n - got, error);
    if (r == 0) break;
    got += r;
  }
  buf.commit(got);
  offset_ += got;
  return got == n && error.empty();
}

namespace {

// The value a bad header holds, next to what this fenmill reads: "(version 2; this fenmill reads version 1)".
std::string header_detail(const ByteBuffer& head, BinaryStatus status) {
  if (head.size() < kFileHeaderSize) return {};
  const auto u16 = [&](std::size_t at) {
    return std::to_string(static_cast<unsigned>(static_cast<unsigned char>(head.data()[at])) |
                          static_cast<unsigned>(static_cast<unsigned char>(head.data()[at + 1])) << 8);
  };
  switch (status) {
    case BinaryStatus::kBadVersion:
      return " (version " + u16(8) + "; this fenmill reads version " + std::to_string(kBinaryVersion) + ")";
    case BinaryStatus::kBadVariant:
      return " (variant " + u16(10) + "; 0 is chess, 1 Xiangqi)";
    case BinaryStatus::kBadRecordSize:
      return " (" + u16(12) + " bytes; chess records are " + std::to_string(kRecordSize) + ", Xiangqi " +
             std::to_string(kXiangqiRecordSize) + ")";
    case BinaryStatus::kBadFlags:
      return " (flags " + u16(14) + ")";
    default:
      return {};
  }
}

}  // namespace

bool BinaryChunker::open_next(std::string& error) {
  source_.reset();
  if (next_input_ >= paths_.size()) return false;
  source_index_ = static_cast<std::uint32_t>(next_input_);
  const std::string& path = paths_[next_input_++];
  source_ = InputSource::open(path, error, options_);
  if (!source_) return false;
  ByteBuffer head;
  offset_ = 0;
  if (!read_exact(head, kFileHeaderSize, error) && !error.empty()) return false;
  BinaryStatus s = parse_header(reinterpret_cast<const std::uint8_t*>(head.data()), head.size(), header_);
  if (s != BinaryStatus::kOk) {
    error = source_->name() + ": " + std::string(binary_status_message(s)) + header_detail(head, s);
    return false;
  }
  block_index_ = 0;
  records_ = 0;
  return true;
}

std::string BinaryChunker::block_error(std::uint64_t block_offset, BinaryStatus status) const {
  return source_->name() + ": block " + std::to_string(block_index_) + " at byte " + std::to_string(block_offset) +
         ": " + std::string(binary_status_message(status));
}

bool BinaryChunker::check_end(const BinaryBlock& end, std::uint64_t block_offset, std::string& error) {
  if (end.total != records_) {
    error = block_error(block_offset, BinaryStatus::kBadEndBlock) + " (" + std::to_string(end.total) + " said, " +
            std::to_string(records_) + " read)";
    return false;
  }
  ByteBuffer after;
  if (read_exact(after, 1, error) || !error.empty()) {
    if (error.empty()) error = block_error(block_offset, BinaryStatus::kDataAfterEnd);
    return false;
  }
  return true;
}

bool BinaryChunker::next(Chunk& out, std::string& error) {
  for (;;) {
    if (!source_ && !open_next(error)) return false;
    out.storage.clear();
    std::uint64_t block_offset = offset_;
    const bool end_block = header_.flags & kBinaryFlagEndBlock;
    if (!read_exact(out.storage, kBlockHeaderSize, error)) {
      if (!error.empty()) return false;
      if (out.storage.empty() && !end_block) {  // clean end of this input
        source_.reset();
        continue;
      }
      error = block_error(block_offset, out.storage.empty() ? BinaryStatus::kMissingEndBlock : BinaryStatus::kTruncatedBlock);
      return false;
    }
    BinaryBlock block;
    auto* data = reinterpret_cast<const std::uint8_t*>(out.storage.data());
    BinaryStatus s = parse_block(data, out.storage.size(), header_.record_size, block, end_block);
    if (s == BinaryStatus::kTruncatedBlock &&  // the header is in: read the records it announces
        read_exact(out.storage, block.bytes - out.storage.size(), error))
      s = parse_block(reinterpret_cast<const std::uint8_t*>(out.storage.data()), out.storage.size(),
                      header_.record_size, block, end_block);
    if (!error.empty()) return false;  // a read error (I/O, corrupt or cut-off .zst) is the cause, not the block
    if (s != BinaryStatus::kOk) {
      error = block_error(block_offset, s);
      return false;
    }
    if (block.end) {
      if (!check_end(block, block_offset, error)) return false;
      source_.reset();  // this input is complete
      continue;
    }
    records_ += block.count;
    out.bytes = std::string_view(reinterpret_cast<const char*>(block.records), block.count * header_.record_size);
    out.source = source_;
    out.source_index = source_index_;
    out.range_end = 0;
    out.skipped = out.long_line_bytes = out.too_large_game_lines = 0;
    out.source_name = source_->name();
    out.offset = block_offset;
    out.starts_input = block_index_ == 0;
    out.sequence = sequence_++;
    ++block_index_;
    return true;
  }
}

}  // namespace fenmill
