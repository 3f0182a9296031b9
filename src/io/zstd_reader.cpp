#include "io/zstd_reader.h"

#include <zstd.h>

#include <cstdint>

namespace fenmill {

bool looks_like_zstd(std::string_view head) {
  if (head.size() < 4) return false;
  std::uint32_t magic = std::uint32_t(std::uint8_t(head[0])) | std::uint32_t(std::uint8_t(head[1])) << 8 |
                        std::uint32_t(std::uint8_t(head[2])) << 16 | std::uint32_t(std::uint8_t(head[3])) << 24;
  return magic == ZSTD_MAGICNUMBER || (magic & ZSTD_MAGIC_SKIPPABLE_MASK) == ZSTD_MAGIC_SKIPPABLE_START;
}

std::unique_ptr<ZstdReader> ZstdReader::wrap(std::unique_ptr<InputSource> compressed, std::string& error) {
  ZSTD_DCtx* dctx = ZSTD_createDCtx();
  if (!dctx) {
    error = compressed->name() + ": zstd: cannot allocate a decompression context";
    return nullptr;
  }
  // Lichess dumps and `zstd --long` use windows up to 2 GiB; the default limit (128 MiB) would refuse them.
  ZSTD_DCtx_setParameter(dctx, ZSTD_d_windowLogMax, 31);
  return std::unique_ptr<ZstdReader>(new ZstdReader(std::move(compressed), dctx));
}

ZstdReader::ZstdReader(std::unique_ptr<InputSource> compressed, ZSTD_DCtx* dctx)
    : InputSource(compressed->name()), compressed_(std::move(compressed)), dctx_(dctx) {
  std::string_view whole = compressed_->mapped();
  if (!whole.empty()) {
    in_data_ = whole.data();
    in_size_ = whole.size();
    compressed_done_ = true;
    saw_input_ = true;
  }
}

ZstdReader::~ZstdReader() { ZSTD_freeDCtx(dctx_); }

bool ZstdReader::refill(std::string& error) {
  if (compressed_done_) return false;
  std::size_t want = ZSTD_DStreamInSize();
  in_buffer_.clear();
  std::size_t n = compressed_->read(in_buffer_.prepare(want), want, error);
  if (n == 0) {
    compressed_done_ = true;
    return false;
  }
  in_buffer_.commit(n);
  in_data_ = in_buffer_.data();
  in_size_ = n;
  in_pos_ = 0;
  saw_input_ = true;
  return true;
}

std::size_t ZstdReader::read(char* dst, std::size_t max_bytes, std::string& error) {
  if (finished_) return 0;
  for (;;) {
    if (!checked_start_ && in_size_ > 0) {  // (zstd alone would say "Unknown frame descriptor")
      checked_start_ = true;
      if (in_size_ >= 4 && !looks_like_zstd(std::string_view(in_data_, 4))) {
        error = name() + ": not zstd data (no zstd frame at the start), though the name ends in .zst";
        finished_ = true;
        return 0;
      }
    }
    // Call the decoder while it has input, or may still hold decoded bytes that did not fit last time.
    if (in_pos_ < in_size_ || frame_open_) {
      ZSTD_inBuffer in{in_data_, in_size_, in_pos_};
      ZSTD_outBuffer out{dst, max_bytes, 0};
      std::size_t r = ZSTD_decompressStream(dctx_, &out, &in);
      // The compressed bytes read are not read again (the decoder keeps its own window): a mapping lets them go.
      if (in.pos > in_pos_) compressed_->release(std::string_view(in_data_ + in_pos_, in.pos - in_pos_));
      in_pos_ = in.pos;
      if (ZSTD_isError(r)) {
        error = name() + ": zstd: " + ZSTD_getErrorName(r);
        finished_ = true;
        return 0;
      }
      frame_open_ = r != 0;
      if (out.pos > 0) return out.pos;
      if (in_pos_ < in_size_) continue;  // consumed a header or a skippable frame without output
    }
    std::string read_error;
    if (refill(read_error)) continue;
    finished_ = true;
    if (!read_error.empty()) {
      error = read_error;
      return 0;
    }
    if (frame_open_) error = name() + ": zstd: truncated input (the last frame is incomplete)";
    else if (!saw_input_) error = name() + ": zstd: empty file, not a zstd stream";
    return 0;
  }
}

}  // namespace fenmill
