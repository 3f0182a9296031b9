// The 36-byte binary Xiangqi position record (docs/XIANGQI.md, "Binary record"; the file header's variant
// field is 1, BinaryVariant::kXiangqi, and its record size 36). Holds every field of a valid position, so
// encode -> decode gives back the same Position.
#pragma once
#include <cstddef>
#include <cstdint>

#include "xiangqi/position.h"

namespace fenmill::xiangqi {

constexpr std::size_t kRecordSize = 36;

// Piece codes of the record's 4-bit nibbles: colour * 7 + PieceType.
enum RecordCode : std::uint8_t {
  kCodeRedGeneral = 0,    // 0-6: Red general advisor elephant horse chariot cannon soldier
  kCodeBlackGeneral = 7,  // 7-13: Black, same order
  kCodeFirstInvalid = 14, // 14 and 15 are never written
};

// Writes the record of a position that passed validate() (at most 32 pieces). For other positions the
// result is unspecified but memory-safe.
void encode_record(const Position& pos, std::uint8_t out[kRecordSize]);

// Reads a record; false if it is malformed: an occupancy bit above point 89, more than 32 pieces, a code
// 14 or 15, a stray non-zero nibble, flag bits other than bit 0, a non-zero reserved byte, a fullmove
// number of 0 or above 1000000. Any 36 bytes are safe. Accepted records re-encode to the same bytes.
// Xiangqi rules (generals, palaces, checks) are left to validate().
bool decode_record(const std::uint8_t in[kRecordSize], Position& out);

}  // namespace fenmill::xiangqi
