// The binary position file (docs/FORMAT.md): a 16-byte header, then checksummed blocks of up to 4096
// fixed-size records. Writers append to a std::string (one per pipeline chunk); the reader walks a
// buffer holding the file (e.g. mapped) and names the first corrupt block.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/position.h"
#include "formats/binary_record.h"

namespace fenmill {

enum class BinaryVariant : std::uint16_t { kChess = 0, kXiangqi = 1 };

constexpr char kBinaryMagic[8] = {'F', 'E', 'N', 'M', 'I', 'L', 'L', 'B'};
constexpr std::string_view kBinaryMagicText(kBinaryMagic, sizeof kBinaryMagic);
// Whether bytes open as a fenmill binary file does, whatever the file's name.
inline bool starts_with_binary_magic(std::string_view bytes) { return bytes.starts_with(kBinaryMagicText); }
constexpr std::uint16_t kBinaryVersion = 1;
constexpr std::size_t kXiangqiRecordSize = 36;  // xiangqi::kRecordSize (docs/XIANGQI.md, section 6)
constexpr std::size_t kFileHeaderSize = 16;
constexpr std::size_t kBlockHeaderSize = 16;
constexpr std::uint32_t kMaxBlockRecords = 4096;
// Header flag: the blocks end with an end block (count 0, then the file's record total), so a file cut short at a
// block boundary is told from a complete one. fenmill writes it on every file; files without it are still read.
constexpr std::uint16_t kBinaryFlagEndBlock = 1;

struct BinaryHeader {
  std::uint16_t version = kBinaryVersion;
  BinaryVariant variant = BinaryVariant::kChess;
  std::uint16_t record_size = kRecordSize;
  std::uint16_t flags = kBinaryFlagEndBlock;
};

// Appends the 16-byte file header (flags: kBinaryFlagEndBlock).
void append_header(std::string& out, BinaryVariant variant, std::uint16_t record_size = kRecordSize);
// Appends the end block that closes a file: count 0, reserved 0, then the number of records in the file.
void append_end_block(std::string& out, std::uint64_t total_records);
// Appends n records (n * record_size bytes) as ceil(n / 4096) blocks; nothing when n is 0.
void append_block(std::string& out, const std::uint8_t* records, std::size_t n,
                  std::size_t record_size = kRecordSize);
// XXH3-64 (seed 0) of a block's record bytes.
std::uint64_t block_checksum(const std::uint8_t* records, std::size_t bytes);

// Collects records and appends a block to `out` whenever 4096 are pending; finish() writes the rest and the end
// block.
// The header is appended on construction. The caller may move bytes out of `out` between calls.
class BinaryWriter {
 public:
  explicit BinaryWriter(std::string& out, BinaryVariant variant = BinaryVariant::kChess,
                        std::uint16_t record_size = kRecordSize);
  void add(const Position& pos);             // chess: encodes the record
  void add_record(const std::uint8_t* record);  // record_size bytes, already encoded
  void flush();                              // appends pending records as a block (if any)
  void finish();
  std::uint64_t records_added() const { return records_added_; }

 private:
  std::string& out_;
  std::size_t record_size_;
  std::vector<std::uint8_t> pending_;  // kMaxBlockRecords records, allocated once
  std::size_t pending_count_ = 0;
  std::uint64_t records_added_ = 0;
};

#define FENMILL_BINARY_STATUSES(X)                                                         \
  X(kOk, "OK", "no error")                                                                \
  X(kEnd, "END", "no more blocks")                                                        \
  X(kTruncatedHeader, "TRUNCATED_HEADER", "file shorter than the 16-byte header")         \
  X(kBadMagic, "BAD_MAGIC", "not a fenmill binary file (magic is not FENMILLB)")           \
  X(kBadVersion, "BAD_VERSION", "unsupported format version")                             \
  X(kBadVariant, "BAD_VARIANT", "unknown variant")                                        \
  X(kBadRecordSize, "BAD_RECORD_SIZE", "record size does not fit the variant")            \
  X(kBadFlags, "BAD_FLAGS", "reserved header flag bits are set (only bit 0, the end block, is defined)") \
  X(kTruncatedBlock, "TRUNCATED_BLOCK", "the file ends inside a block")                   \
  X(kBadBlockCount, "BAD_BLOCK_COUNT", "block record count outside 1..4096")              \
  X(kBadBlockReserved, "BAD_BLOCK_RESERVED", "non-zero reserved field in a block header") \
  X(kBadChecksum, "BAD_CHECKSUM", "block checksum mismatch: the block is corrupt")                    \
  X(kMissingEndBlock, "MISSING_END_BLOCK", "the file ends before its end block: it was cut short")     \
  X(kBadEndBlock, "BAD_END_BLOCK", "the end block's record total differs from the records before it") \
  X(kDataAfterEnd, "DATA_AFTER_END", "bytes follow the end block")

enum class BinaryStatus : std::uint8_t {
#define FENMILL_X(id, name, msg) id,
  FENMILL_BINARY_STATUSES(FENMILL_X)
#undef FENMILL_X
};

std::string_view binary_status_name(BinaryStatus status);
std::string_view binary_status_message(BinaryStatus status);

// Checks the 16-byte header at data[0..size).
BinaryStatus parse_header(const std::uint8_t* data, std::size_t size, BinaryHeader& out);

struct BinaryBlock {
  const std::uint8_t* records = nullptr;  // points into the caller's buffer
  std::uint32_t count = 0;
  std::size_t bytes = 0;  // block header + records: how far to advance
  bool end = false;             // the end block (count 0)
  std::uint64_t total = 0;      // the end block: the records the file holds before it
};
// Checks the block starting at data[0..size); kEnd when size is 0, kTruncatedBlock when more bytes
// are needed (a streaming reader can then read on: `out.bytes` is the size of the whole block once its header is
// in, else of the header). With `end_block` (the header's kBinaryFlagEndBlock) a
// count of 0 is the end block; the caller checks its total and that nothing follows it.
BinaryStatus parse_block(const std::uint8_t* data, std::size_t size, std::size_t record_size, BinaryBlock& out,
                         bool end_block = false);

// Walks a whole file held in memory.
class BinaryReader {
 public:
  explicit BinaryReader(std::string_view file) : data_(reinterpret_cast<const std::uint8_t*>(file.data())), size_(file.size()) {}
  BinaryStatus read_header();                 // call first
  // kOk, kEnd at the clean end of the file (after its end block, when the header announces one), or an error.
  BinaryStatus next_block(BinaryBlock& out);
  const BinaryHeader& header() const { return header_; }
  // The block next_block last looked at (0-based) and its byte offset: on an error, the corrupt one.
  std::uint64_t block_index() const { return block_index_; }
  std::size_t block_offset() const { return block_offset_; }

 private:
  const std::uint8_t* data_;
  std::size_t size_;
  BinaryHeader header_;
  std::size_t position_ = 0;
  std::uint64_t block_index_ = 0;
  std::size_t block_offset_ = 0;
  std::uint64_t blocks_read_ = 0;
  std::uint64_t records_read_ = 0;
  bool ended_ = false;  // the end block was read
};

}  // namespace fenmill
