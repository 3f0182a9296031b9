// A full binary block (docs/FORMAT.md) of start positions, for tests that need binary input of some size.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "fen/normalize.h"
#include "formats/binary_file.h"
#include "formats/binary_record.h"

namespace fenmill {

// kMaxBlockRecords start positions as one block (its header and checksum included), 128 KiB of records.
inline std::string start_position_block() {
  Position start;
  normalize_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", start);
  std::vector<std::uint8_t> records(kMaxBlockRecords * kRecordSize);
  for (std::uint32_t i = 0; i < kMaxBlockRecords; ++i) encode_record(start, records.data() + i * kRecordSize);
  std::string block;
  append_block(block, records.data(), kMaxBlockRecords);
  return block;
}

}  // namespace fenmill
