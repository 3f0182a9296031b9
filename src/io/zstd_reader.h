// Streaming zstd decompression of another input (ZSTD_decompressStream): bounded memory, no temp files.
// Accepts skippable frames (lichess dumps start with one) and any number of concatenated frames.
#pragma once
#include <memory>
#include <string>

#include "io/byte_buffer.h"
#include "io/input_source.h"

struct ZSTD_DCtx_s;

namespace fenmill {

class ZstdReader final : public InputSource {
 public:
  // Decompresses `compressed`; reads it through mapped() when it is mapped (no copy), else through read().
  static std::unique_ptr<ZstdReader> wrap(std::unique_ptr<InputSource> compressed, std::string& error);
  ~ZstdReader() override;
  ZstdReader(const ZstdReader&) = delete;
  ZstdReader& operator=(const ZstdReader&) = delete;

  std::size_t read(char* dst, std::size_t max_bytes, std::string& error) override;

 private:
  ZstdReader(std::unique_ptr<InputSource> compressed, ZSTD_DCtx_s* dctx);
  bool refill(std::string& error);

  std::unique_ptr<InputSource> compressed_;
  ZSTD_DCtx_s* dctx_;
  ByteBuffer in_buffer_;           // used only when the compressed input is not mapped
  const char* in_data_ = nullptr;  // current compressed block
  std::size_t in_size_ = 0;
  std::size_t in_pos_ = 0;
  bool compressed_done_ = false;   // no more compressed bytes to fetch
  bool saw_input_ = false;         // an empty ".zst" is an error, like the zstd CLI says
  bool checked_start_ = false;  // the first bytes were looked at: a ".zst" name may hold plain text
  bool frame_open_ = false;        // inside a frame: the last ZSTD_decompressStream returned > 0
  bool finished_ = false;
};

// True when the bytes start with a zstd frame or a skippable frame magic number.
bool looks_like_zstd(std::string_view head);

}  // namespace fenmill
