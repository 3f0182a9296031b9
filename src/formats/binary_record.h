// The 32-byte binary chess position record (docs/FORMAT.md, "Record"). Holds every field of a valid
// position, Chess960 castling rooks included, so encode -> decode gives back the same Position.
#pragma once
#include <cstddef>
#include <cstdint>

#include "core/position.h"

namespace fenmill {

constexpr std::size_t kRecordSize = 32;

// Piece codes of the record's 4-bit nibbles.
enum RecordCode : std::uint8_t {
  kCodeWhitePawn = 0,   // 0-5: white P N B R Q K, in PieceType order
  kCodeBlackPawn = 6,   // 6-11: black p n b r q k
  kCodeWhiteCastlingRook = 12,
  kCodeBlackCastlingRook = 13,
  kCodeEpPawn = 14,     // the pawn that just made a double push (colour: the side not to move)
  kCodeInvalid = 15,
};

// Writes the record of a position that passed validate() (at most 32 pieces, castling rooks and the ep
// pawn where the position says). For other positions the result is unspecified but memory-safe.
void encode_record(const Position& pos, std::uint8_t out[kRecordSize]);

// Reads a record; false if it is malformed: more than 32 pieces, a code 15, a stray non-zero nibble or
// reserved bit, a misplaced ep pawn (wrong rank, or its passed/origin square occupied), more than one ep
// pawn, a castling rook off its back rank or without exactly one king of its colour on that rank, two
// castling rooks on one side of the king, a fullmove number of 0 or above 1000000. Any 32 bytes are safe.
// Accepted records re-encode to the same bytes. Chess rules (kings, checks, pawn counts) are left to
// validate().
bool decode_record(const std::uint8_t in[kRecordSize], Position& out);

// The implementations, for tests and benchmarks: a portable one, and one with PDEP/PEXT (BMI2) that the two functions
// above pick once where those are fast (the placement reader's rule, fen/placement_fast.h; FENMILL_NO_SIMD=1 in the
// environment: the portable one). The *_bmi2 ones may be called only where binary_record_bmi2_pays_off().
void encode_record_portable(const Position& pos, std::uint8_t out[kRecordSize]);
bool decode_record_portable(const std::uint8_t in[kRecordSize], Position& out);
void encode_record_bmi2(const Position& pos, std::uint8_t out[kRecordSize]);
bool decode_record_bmi2(const std::uint8_t in[kRecordSize], Position& out);
bool binary_record_bmi2_pays_off();

}  // namespace fenmill
