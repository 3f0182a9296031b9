#include "formats/binary_file.h"

#include <algorithm>
#include <cstring>

#define XXH_INLINE_ALL
#include <xxhash.h>

namespace fenmill {
namespace {

void put_u16(std::string& out, std::uint16_t v) {
  out.push_back(static_cast<char>(v & 0xFF));
  out.push_back(static_cast<char>(v >> 8));
}
void put_u32(std::string& out, std::uint32_t v) {
  for (int i = 0; i < 4; ++i) out.push_back(static_cast<char>((v >> (8 * i)) & 0xFF));
}
void put_u64(std::string& out, std::uint64_t v) {
  for (int i = 0; i < 8; ++i) out.push_back(static_cast<char>((v >> (8 * i)) & 0xFF));
}
std::uint16_t get_u16(const std::uint8_t* p) { return static_cast<std::uint16_t>(p[0] | (p[1] << 8)); }
std::uint32_t get_u32(const std::uint8_t* p) {
  return std::uint32_t(p[0]) | std::uint32_t(p[1]) << 8 | std::uint32_t(p[2]) << 16 | std::uint32_t(p[3]) << 24;
}
std::uint64_t get_u64(const std::uint8_t* p) { return std::uint64_t(get_u32(p)) | std::uint64_t(get_u32(p + 4)) << 32; }

struct StatusInfo {
  std::string_view name;
  std::string_view message;
};
constexpr StatusInfo kStatusInfo[] = {
#define FENMILL_X(id, name, msg) {name, msg},
    FENMILL_BINARY_STATUSES(FENMILL_X)
#undef FENMILL_X
};

}  // namespace

std::string_view binary_status_name(BinaryStatus status) { return kStatusInfo[static_cast<int>(status)].name; }
std::string_view binary_status_message(BinaryStatus status) { return kStatusInfo[static_cast<int>(status)].message; }

std::uint64_t block_checksum(const std::uint8_t* records, std::size_t bytes) { return XXH3_64bits(records, bytes); }

void append_header(std::string& out, BinaryVariant variant, std::uint16_t record_size) {
  out.append(kBinaryMagic, sizeof kBinaryMagic);
  put_u16(out, kBinaryVersion);
  put_u16(out, static_cast<std::uint16_t>(variant));
  put_u16(out, record_size);
  put_u16(out, kBinaryFlagEndBlock);
}

void append_end_block(std::string& out, std::uint64_t total_records) {
  put_u32(out, 0);  // count 0: the end
  put_u32(out, 0);  // reserved
  put_u64(out, total_records);
}

void append_block(std::string& out, const std::uint8_t* records, std::size_t n, std::size_t record_size) {
  while (n > 0) {
    std::uint32_t count = static_cast<std::uint32_t>(std::min<std::size_t>(n, kMaxBlockRecords));
    std::size_t bytes = count * record_size;
    out.reserve(out.size() + kBlockHeaderSize + bytes);
    put_u32(out, count);
    put_u32(out, 0);  // reserved
    put_u64(out, block_checksum(records, bytes));
    out.append(reinterpret_cast<const char*>(records), bytes);
    records += bytes;
    n -= count;
  }
}

BinaryWriter::BinaryWriter(std::string& out, BinaryVariant variant, std::uint16_t record_size)
    : out_(out), record_size_(record_size), pending_(kMaxBlockRecords * std::size_t(record_size)) {
  append_header(out_, variant, record_size);
}

void BinaryWriter::add(const Position& pos) {
  encode_record(pos, pending_.data() + pending_count_ * record_size_);
  ++records_added_;
  if (++pending_count_ == kMaxBlockRecords) flush();
}

void BinaryWriter::add_record(const std::uint8_t* record) {
  std::memcpy(pending_.data() + pending_count_ * record_size_, record, record_size_);
  ++records_added_;
  if (++pending_count_ == kMaxBlockRecords) flush();
}

void BinaryWriter::finish() {
  flush();
  append_end_block(out_, records_added_);
}

void BinaryWriter::flush() {
  append_block(out_, pending_.data(), pending_count_, record_size_);
  pending_count_ = 0;
}

BinaryStatus parse_header(const std::uint8_t* data, std::size_t size, BinaryHeader& out) {
  if (size < kFileHeaderSize) return BinaryStatus::kTruncatedHeader;
  if (std::memcmp(data, kBinaryMagic, sizeof kBinaryMagic) != 0) return BinaryStatus::kBadMagic;
  out.version = get_u16(data + 8);
  std::uint16_t variant = get_u16(data + 10);
  out.record_size = get_u16(data + 12);
  out.flags = get_u16(data + 14);
  if (out.version != kBinaryVersion) return BinaryStatus::kBadVersion;
  if (variant > static_cast<std::uint16_t>(BinaryVariant::kXiangqi)) return BinaryStatus::kBadVariant;
  out.variant = static_cast<BinaryVariant>(variant);
  if (out.record_size != (out.variant == BinaryVariant::kChess ? kRecordSize : kXiangqiRecordSize))
    return BinaryStatus::kBadRecordSize;
  if ((out.flags & ~kBinaryFlagEndBlock) != 0) return BinaryStatus::kBadFlags;
  return BinaryStatus::kOk;
}

BinaryStatus parse_block(const std::uint8_t* data, std::size_t size, std::size_t record_size, BinaryBlock& out,
                         bool end_block) {
  if (size == 0) return BinaryStatus::kEnd;
  out = BinaryBlock{};
  out.bytes = kBlockHeaderSize;
  if (size < kBlockHeaderSize) return BinaryStatus::kTruncatedBlock;
  std::uint32_t count = get_u32(data);
  if ((count == 0 && !end_block) || count > kMaxBlockRecords) return BinaryStatus::kBadBlockCount;
  if (get_u32(data + 4) != 0) return BinaryStatus::kBadBlockReserved;
  if (count == 0) {
    out.end = true;
    out.total = get_u64(data + 8);
    return BinaryStatus::kOk;
  }
  std::size_t record_bytes = count * record_size;
  out.bytes = kBlockHeaderSize + record_bytes;
  if (size - kBlockHeaderSize < record_bytes) return BinaryStatus::kTruncatedBlock;
  const std::uint8_t* records = data + kBlockHeaderSize;
  if (block_checksum(records, record_bytes) != get_u64(data + 8)) return BinaryStatus::kBadChecksum;
  out.records = records;
  out.count = count;
  return BinaryStatus::kOk;
}

BinaryStatus BinaryReader::read_header() {
  BinaryStatus status = parse_header(data_, size_, header_);
  if (status == BinaryStatus::kOk) position_ = kFileHeaderSize;
  return status;
}

BinaryStatus BinaryReader::next_block(BinaryBlock& out) {
  if (position_ == 0) {  // header not read yet
    BinaryStatus status = read_header();
    if (status != BinaryStatus::kOk) return status;
  }
  if (ended_) return BinaryStatus::kEnd;
  block_index_ = blocks_read_;
  block_offset_ = position_;
  const bool end_block = header_.flags & kBinaryFlagEndBlock;
  BinaryStatus status = parse_block(data_ + position_, size_ - position_, header_.record_size, out, end_block);
  if (status == BinaryStatus::kEnd && end_block) return BinaryStatus::kMissingEndBlock;
  if (status != BinaryStatus::kOk) return status;
  if (out.end) {
    if (out.total != records_read_) return BinaryStatus::kBadEndBlock;
    if (position_ + out.bytes != size_) return BinaryStatus::kDataAfterEnd;
    ended_ = true;
    return BinaryStatus::kEnd;
  }
  position_ += out.bytes;
  ++blocks_read_;
  records_read_ += out.count;
  return BinaryStatus::kOk;
}

}  // namespace fenmill
