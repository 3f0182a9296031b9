// libFuzzer target: the binary input path (formats/binary_*.h, the pipeline's record step) on arbitrary bytes.
// Byte 0 picks what the rest is: a whole file as it comes, or records that are put in a well-formed file (valid
// checksums, so the records get decoded) which is then cut short, damaged or extended at a place the input picks.
// Invariants: no crash/UB (sanitizers); a record decode_record accepts re-encodes to the same bytes (chess and
// Xiangqi); a decoded position that validates writes a FEN (X-FEN and Shredder) that reads back as itself, and one
// that does not writes a FEN that is rejected too; the in-memory reader and the streaming chunker (pieces of any
// size, a plain file, a .zst, the file given twice) give the same records and fail at the same block with the same
// status, a readable one-line message naming the input; chunks come numbered in order, each input's first one
// marked; every record of a chunk is written or rejected, and each written FEN reads back.
#include <unistd.h>
#include <zstd.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "fen/normalize.h"
#include "formats/binary_chunker.h"
#include "formats/binary_file.h"
#include "formats/binary_record.h"
#include "pipeline/chunk_processor.h"
#include "xiangqi/normalize.h"
#include "xiangqi/record.h"
#include "xiangqi/validate.h"

namespace {

using fenmill::BinaryStatus;

void check(bool ok) {
  if (!ok) std::abort();
}

// A stream that hands out at most `piece` bytes a read, as a pipe may.
class PieceSource final : public fenmill::InputSource {
 public:
  PieceSource(std::string_view bytes, std::size_t piece) : InputSource("piece.bin"), bytes_(bytes), piece_(piece) {}
  std::size_t read(char* dst, std::size_t max_bytes, std::string&) override {
    std::size_t n = std::min({max_bytes, piece_, bytes_.size() - at_});
    std::copy_n(bytes_.data() + at_, n, dst);
    at_ += n;
    return n;
  }

 private:
  std::string_view bytes_;
  std::size_t piece_, at_ = 0;
};

void check_chess_record(const std::uint8_t* in) {
  fenmill::Position pos;
  if (!fenmill::decode_record(in, pos)) return;
  std::uint8_t again[fenmill::kRecordSize];
  fenmill::encode_record(pos, again);
  check(std::equal(again, again + sizeof again, in));
  for (int mode = 0; mode < 4; ++mode) {
    fenmill::NormalizeOptions options;
    options.repair = mode & 1;
    options.chess960 = mode & 2;
    options.ep = mode == 1 ? fenmill::EpPolicy::kPseudo : mode == 2 ? fenmill::EpPolicy::kKeep : fenmill::EpPolicy::kLegal;
    fenmill::Position valid = pos;
    if (!fenmill::validate(valid, options.repair).ok()) {  // as FEN, the position is rejected too
      char fen[fenmill::kMaxFenLength];
      fenmill::Position back;
      check(!fenmill::normalize_fen(std::string_view(fen, fenmill::write_fen(pos, fen)), back, options).ok());
      continue;
    }
    fenmill::apply_ep_policy(valid, options.ep);
    for (auto notation : {fenmill::CastlingNotation::kXFen, fenmill::CastlingNotation::kShredder}) {
      char fen[fenmill::kMaxFenLength];
      const std::size_t n = fenmill::write_fen(valid, fen, notation);
      fenmill::Position back;
      check(fenmill::normalize_fen(std::string_view(fen, n), back, options).ok() && back == valid);
    }
  }
}

void check_xiangqi_record(const std::uint8_t* in) {
  namespace xq = fenmill::xiangqi;
  xq::Position pos;
  if (!xq::decode_record(in, pos)) return;
  std::uint8_t again[xq::kRecordSize];
  xq::encode_record(pos, again);
  check(std::equal(again, again + sizeof again, in));
  if (!xq::validate(pos).ok()) return;
  for (auto letters : {xq::Letters::kUcci, xq::Letters::kWxf}) {
    char fen[xq::kMaxFenLength];
    const std::size_t n = xq::write_fen(pos, fen, letters);
    xq::Position back;
    check(xq::normalize_fen(std::string_view(fen, n), back, xq::NormalizeOptions{}).ok() && back == pos);
  }
}

// What reading a file gave: its records back to back, and the error (status and block) it stopped at.
struct Reading {
  std::string records;
  BinaryStatus status = BinaryStatus::kEnd;
  std::uint64_t block = 0;
  std::string error;  // the chunker's message
};

Reading read_in_memory(std::string_view file) {
  Reading r;
  fenmill::BinaryReader reader(file);
  fenmill::BinaryBlock block;
  while ((r.status = reader.next_block(block)) == BinaryStatus::kOk)
    r.records.append(reinterpret_cast<const char*>(block.records), block.count * reader.header().record_size);
  r.block = reader.block_index();
  return r;
}

// The chunker over `paths` (kept streams or files): every chunk also goes through the pipeline's record step.
Reading read_chunked(std::vector<std::string> paths, bool map_files = false) {
  Reading r;
  fenmill::BinaryChunker chunker(std::move(paths), {.map_files = map_files});
  fenmill::Chunk chunk;
  fenmill::Job job;
  job.variant = fenmill::Variant::kAuto;
  std::uint64_t sequence = 0;
  std::int64_t last_input = -1;
  while (chunker.next(chunk, r.error)) {
    // Numbered in order; the first chunk of each input (and only it) starts it.
    check(chunk.sequence == sequence++ && chunk.source_index >= last_input);
    check(chunk.starts_input == (chunk.source_index != last_input));
    last_input = chunk.source_index;
    r.records.append(chunk.bytes);
    fenmill::SourceFormat source;
    source.format = fenmill::InputFormat::kBinary;
    source.xiangqi = chunker.variant() == fenmill::BinaryVariant::kXiangqi;
    const std::size_t size = source.xiangqi ? fenmill::xiangqi::kRecordSize : fenmill::kRecordSize;
    check(!chunk.bytes.empty() && chunk.bytes.size() % size == 0);
    fenmill::ChunkResult result;
    fenmill::process_chunk(chunk.bytes, chunk.starts_input, source, job, result);
    const std::uint64_t n = chunk.bytes.size() / size;
    check(result.lines == n && result.counts.records == n && result.counts.valid + result.counts.invalid == n &&
          result.rejects.size() == result.counts.invalid);
    std::string_view out(result.out.data(), result.out.size());
    std::uint64_t lines = 0;
    for (std::size_t at = 0; at < out.size(); ++lines) {
      const std::size_t end = out.find('\n', at);
      check(end != std::string_view::npos);
      const std::string_view fen = out.substr(at, end - at);
      if (source.xiangqi) {
        fenmill::xiangqi::Position back;
        check(fenmill::xiangqi::normalize_fen(fen, back, {}).ok());
      } else {
        fenmill::Position back;
        check(fenmill::normalize_fen(fen, back, {}).ok());
      }
      at = end + 1;
    }
    check(lines == result.counts.valid);
  }
  return r;
}

void same_reading(const Reading& memory, const Reading& chunked) {
  check(chunked.records == memory.records);
  if (memory.status == BinaryStatus::kEnd) {
    check(chunked.error.empty());
    return;
  }
  // One line, naming the input and (past the header) the block, with the reader's words for what is wrong.
  const std::string& e = chunked.error;
  check(!e.empty() && e.find('\n') == std::string::npos);
  check(e.find(std::string(fenmill::binary_status_message(memory.status))) != std::string::npos);
  const bool header = memory.status >= BinaryStatus::kTruncatedHeader && memory.status <= BinaryStatus::kBadFlags;
  if (!header) check(e.find(": block " + std::to_string(memory.block) + " at byte ") != std::string::npos);
}

// Whether bytes open with a zstd frame (or a skippable one): InputSource decompresses such a file whatever its name.
bool opens_zstd_frame(std::string_view bytes) {
  if (bytes.size() < 4) return false;
  const std::uint32_t magic = std::uint32_t(std::uint8_t(bytes[0])) | std::uint32_t(std::uint8_t(bytes[1])) << 8 |
                              std::uint32_t(std::uint8_t(bytes[2])) << 16 | std::uint32_t(std::uint8_t(bytes[3])) << 24;
  return magic == 0xFD2FB528u || (magic & 0xFFFFFFF0u) == 0x184D2A50u;
}

std::string temp_path(const char* suffix) {
  return "/tmp/fenmill-binary-fuzz-" + std::to_string(getpid()) + suffix;
}

bool write_file(const std::string& path, std::string_view bytes) {
  std::FILE* f = std::fopen(path.c_str(), "wb");
  if (!f) return false;
  const bool ok = std::fwrite(bytes.data(), 1, bytes.size(), f) == bytes.size();
  return std::fclose(f) == 0 && ok;
}

// The file read in memory, and streamed in pieces of `piece` bytes; every fourth piece size also from a file on
// disk (read or mapped) and a .bin.zst, which cost a few file operations each.
void check_file(std::string_view file, std::size_t piece) {
  const Reading memory = read_in_memory(file);
  fenmill::InputSource::keep_stream("piece.bin", std::make_unique<PieceSource>(file, piece));
  same_reading(memory, read_chunked({"piece.bin"}));
  if (piece % 4 == 1) {  // the file twice, as two inputs: the second one is read as afresh (or never, after an error)
    Reading twice = memory;
    if (memory.status == BinaryStatus::kEnd) twice.records += memory.records;
    fenmill::InputSource::keep_stream("piece.bin", std::make_unique<PieceSource>(file, piece));
    fenmill::InputSource::keep_stream("again.bin", std::make_unique<PieceSource>(file, piece));
    same_reading(twice, read_chunked({"piece.bin", "again.bin"}));
    fenmill::InputSource::keep_stream("again.bin", nullptr);  // not opened after an error
  }
  if (piece % 4 != 0) return;
  const std::string plain = temp_path(".bin");
  if (!opens_zstd_frame(file) && write_file(plain, file))
    same_reading(memory, read_chunked({plain}, piece & 8));
  std::remove(plain.c_str());
  std::string packed(ZSTD_compressBound(file.size()), '\0');
  packed.resize(ZSTD_compress(packed.data(), packed.size(), file.data(), file.size(), 1));
  const std::string zst = temp_path(".bin.zst");
  if (write_file(zst, packed)) same_reading(memory, read_chunked({zst}));
  std::remove(zst.c_str());
}

// `records` put in a well-formed file of the variant, in blocks of `per_block` records.
std::string build_file(std::string_view records, bool xiangqi, bool end_block, std::size_t per_block) {
  const std::size_t size = xiangqi ? fenmill::kXiangqiRecordSize : fenmill::kRecordSize;
  std::string file;
  fenmill::append_header(file, xiangqi ? fenmill::BinaryVariant::kXiangqi : fenmill::BinaryVariant::kChess,
                         static_cast<std::uint16_t>(size));
  if (!end_block) file[14] = 0;
  const std::size_t n = records.size() / size;
  for (std::size_t at = 0; at < n; at += per_block)
    fenmill::append_block(file, reinterpret_cast<const std::uint8_t*>(records.data() + at * size),
                          std::min(per_block, n - at), size);
  if (end_block) fenmill::append_end_block(file, n);
  return file;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 4) return 0;
  const std::uint8_t mode = data[0], where = data[1], piece = data[2], what = data[3];
  const std::string_view rest(reinterpret_cast<const char*>(data) + 4, size - 4);
  const auto* bytes = reinterpret_cast<const std::uint8_t*>(rest.data());
  for (std::size_t at = 0; at + fenmill::kRecordSize <= rest.size(); at += fenmill::kRecordSize)
    check_chess_record(bytes + at);
  for (std::size_t at = 0; at + fenmill::kXiangqiRecordSize <= rest.size(); at += fenmill::kXiangqiRecordSize)
    check_xiangqi_record(bytes + at);

  const std::size_t piece_size = 1 + piece % 40;
  if ((mode & 3) == 0) {  // the bytes as a file
    check_file(rest, piece_size);
    return 0;
  }
  std::string file = build_file(rest, mode & 4, !(mode & 8), 1 + (mode >> 4));
  check_file(file, piece_size);  // intact: every record read back, in order
  const Reading intact = read_in_memory(file);
  const std::size_t record_size = mode & 4 ? fenmill::kXiangqiRecordSize : fenmill::kRecordSize;
  check(intact.status == BinaryStatus::kEnd && intact.records == rest.substr(0, rest.size() / record_size * record_size));
  const std::size_t at = file.size() * where / 256;
  switch (mode & 3) {
    case 1: file.resize(at); break;                         // cut short
    case 2: file[at] = static_cast<char>(file[at] ^ (what | 1)); break;  // one byte damaged
    case 3: file.append(rest.substr(0, what % 40)); break;  // bytes after the end
  }
  check_file(file, piece_size);
  return 0;
}
