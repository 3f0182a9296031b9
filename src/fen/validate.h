// Semantic checks: can this position occur in a game of chess? One ErrorCode per rule.
#pragma once
#include <string_view>
#include <cstdint>

#include "core/position.h"
#include "fen/errors.h"

namespace fenmill {

enum class EpPolicy : std::uint8_t {
  kLegal,   // keep the ep square only if an en-passant capture is legal (the default)
  kPseudo,  // keep it if a pawn of the side to move attacks it
  kKeep,    // keep it as written (once it is consistent)
};

// What repair mode changed, as bits.
enum Repair : std::uint8_t {
  kRepairNone = 0,
  kRepairCastling = 1,  // dropped castling rights without king or rook
  kRepairEp = 2,        // dropped an impossible en-passant square
  kRepairClock = 4,     // fixed an impossible clock
};

// Hints for a rejected position, appended to the message.
enum Hint : std::uint8_t {
  kHintNone = 0,
  kHintFlipped = 1,  // pawns march the wrong way: board written from rank 1, or colours swapped
  kHintByKings = 2,  // with kHintFlipped: there are no pawns, the kings stand on each other's back rank
  kHintChess960 = 4,  // rejected for its castling rights, valid read as Chess960 (--chess960: KQkq are X-FEN)
  kHintCarriageReturn = 8,  // the record holds a CR that ends no line: the input's lines may end in CR alone
  kHintEpd = 16,  // a FEN input's record, rejected, that is a valid EPD record (operations after its fourth field)
};

// 16 bytes, the bitboard first: returned in two registers (x86-64 SysV) rather than through memory.
struct Verdict {
  Bitboard squares = 0;       // the squares that break the rule (for pictures and messages)
  ErrorCode code = ErrorCode::kOk;
  std::uint8_t repairs = 0;   // Repair bits
  std::uint8_t hints = 0;     // Hint bits
  bool ok() const { return code == ErrorCode::kOk; }
};

// Checks every rule; in repair mode first drops bad castling rights / ep square and fixes the
// halfmove clock after a double push, then checks what is left. Does not apply an ep policy.
Verdict validate(Position& pos, bool repair = false);

// True if a pawn of the side to move can capture en passant legally (pseudo: attacks the square).
bool ep_capture_legal(const Position& pos);
bool ep_capture_pseudo(const Position& pos);

// Looks for the "flipped board / swapped colours" pattern.
std::uint8_t position_hints(const Position& pos);

// Which side breaks the one-king rule, for the message of MISSING_KING and TOO_MANY_KINGS: "White has none",
// "neither side has one", "Black has more than one", ... (empty when both sides have one king). White is checked
// first, as validate() does.
std::string_view king_count_detail(const Position& pos);

}  // namespace fenmill
