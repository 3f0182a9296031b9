#include "pipeline/report.h"

#include <cstdio>
#include <initializer_list>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "core/utf8.h"
#include "fen/validate.h"
#include "xiangqi/errors.h"

namespace fenmill {
namespace {

void append_uint(std::string& out, std::uint64_t v) { out += std::to_string(v); }

struct Member {
  std::string_view name;
  std::uint64_t value;
};

// Appends `"name": value` for each member, each after `separator`.
void append_members(std::string& out, std::string_view separator, std::initializer_list<Member> members) {
  for (const Member& m : members) {
    ((out += separator) += '"') += m.name;
    out += "\": ";
    append_uint(out, m.value);
  }
}

}  // namespace

namespace {

// The end of the run from `i` of bytes written as they are: printable ASCII but '"' and '\\'. 16 bytes a step, and
// appended as one run: byte by byte, escaping was a quarter of a run whose records are all rejected (in the
// pipeline's serial stage).
std::size_t plain_run_end(std::string_view s, std::size_t i) {
  const std::size_t n = s.size();
#if defined(__SSE2__)
  const __m128i quote = _mm_set1_epi8('"'), backslash = _mm_set1_epi8('\\'), space = _mm_set1_epi8(0x20),
                del = _mm_set1_epi8(0x7F);
  for (; n - i >= 16; i += 16) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(s.data() + i));
    // Signed: bytes from 0x80 are below 0x20 too.
    const __m128i special = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, quote), _mm_cmpeq_epi8(v, backslash)),
                                         _mm_or_si128(_mm_cmplt_epi8(v, space), _mm_cmpeq_epi8(v, del)));
    if (const int mask = _mm_movemask_epi8(special)) return i + static_cast<std::size_t>(__builtin_ctz(static_cast<unsigned>(mask)));
  }
#endif
  for (; i < n; ++i) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c < 0x20 || c >= 0x7F || c == '"' || c == '\\') break;
  }
  return i;
}

}  // namespace

void append_json_string(std::string& out, std::string_view s) {
  out.push_back('"');
  for (std::size_t i = 0; i < s.size();) {
    if (const std::size_t end = plain_run_end(s, i); end > i) {
      out.append(s.data() + i, end - i);
      i = end;
      continue;
    }
    unsigned char c = static_cast<unsigned char>(s[i]);
    if (c >= 0x80) {
      std::size_t n = utf8_sequence_length(s, i);
      if (n) {
        out.append(s.substr(i, n));
        i += n;
        continue;
      }
    }
    char esc[8];
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        if (c < 0x20 || c >= 0x7F) {
          std::snprintf(esc, sizeof esc, "\\u%04x", c);
          out += esc;
        } else {
          out.push_back(static_cast<char>(c));
        }
    }
    ++i;
  }
  out.push_back('"');
}

std::string_view reject_code_name(const Reject& r) {
  return r.pgn != PgnError::kOk ? pgn_error_name(r.pgn) : error_name(r.code);
}

std::string reject_message(const Reject& r, std::string_view detail) {
  if (r.pgn != PgnError::kOk) {
    std::string m = "game " + std::to_string(r.game);
    if (r.ply) m += ", ply " + std::to_string(r.ply);
    m += ": ";
    m += pgn_error_message(r.pgn);
    if (r.code != ErrorCode::kOk) {
      m += " (";
      m += error_name(r.code);
      m += ": ";
      m += error_message(r.code);
      m += ')';
    }
    if (r.valid_as_xiangqi)
      m += " (hint: a Xiangqi position: games are replayed as chess; fenmill reads Xiangqi positions, not games)";
    else if (r.xiangqi_game)
      m += " (hint: a Xiangqi game: games are replayed as chess; fenmill reads Xiangqi positions (FEN, EPD), not games)";
    return m;
  }
  std::string m(r.xiangqi ? xiangqi::message_for(r.code) : error_message(r.code));
  if (!detail.empty()) (m += ": ") += detail;
  if (r.squares && !is_syntax_error(r.code)) {
    m += " (squares:";
    for (Bitboard b = r.squares; b; b &= b - 1) {
      Square s = lsb(b);
      m += ' ';
      m += static_cast<char>('a' + file_of(s));
      m += static_cast<char>('1' + rank_of(s));
    }
    m += ')';
  }
  if (r.xiangqi_squares && !is_syntax_error(r.code)) {  // Xiangqi points: files a-i, ranks 0-9 from Red's side
    m += " (squares:";
    for (int s = 0; s < xiangqi::kSquareCount; ++s) {
      if (!(r.xiangqi_squares & xiangqi::square_bb(static_cast<xiangqi::Square>(s)))) continue;
      m += ' ';
      m += static_cast<char>('a' + xiangqi::file_of(static_cast<xiangqi::Square>(s)));
      m += static_cast<char>('0' + xiangqi::rank_of(static_cast<xiangqi::Square>(s)));
    }
    m += ')';
  }
  if ((r.hints & kHintFlipped) && r.xiangqi)
    m += " (hint: each general stands in the other side's palace: the board may be written from Black's side, or "
         "the colours swapped)";
  else if ((r.hints & kHintFlipped) && (r.hints & kHintByKings))
    m += " (hint: White's king stands on rank 8 and Black's on rank 1: the board may be written from rank 1 instead "
         "of rank 8, or the colours swapped)";
  else if (r.hints & kHintFlipped)
    m += " (hint: White's pawns stand on Black's side and Black's on White's: the board may be written from "
         "rank 1 instead of rank 8, or the colours swapped)";
  if ((r.hints & kHintEpd) && !r.xiangqi)
    m += " (hint: the record is valid read as EPD, with operations: name the file .epd or pass --from epd)";
  if (r.hints & kHintCarriageReturn)
    m += " (hint: the record holds a carriage return (CR) inside it: lines end at LF, so a file whose lines end in "
         "CR alone (classic Mac OS) reads as one line; convert it first, e.g. with tr '\\r' '\\n')";
  if (r.hints & kHintChess960)
    m += " (hint: the position is valid as Chess960: with --chess960, K and Q name the outermost rook, as X-FEN "
         "writes them)";
  if (r.valid_as_xiangqi) m += " (hint: the record is a valid Xiangqi position: --variant xiangqi or auto reads it)";
  return m;
}

void append_reject_json(std::string& out, std::string_view file, const Reject& r, std::string_view input,
                        std::string_view detail) {
  out += "{\"file\":";
  append_json_string(out, file);
  out += ",\"line\":";
  append_uint(out, r.line);
  out += ",\"column\":";
  append_uint(out, r.column);
  out += ",\"code\":\"";
  out += reject_code_name(r);
  out += "\",\"message\":";
  append_json_string(out, reject_message(r, detail));
  out += ",\"input\":";
  append_json_string(out, input);
  if (r.input_bytes != 0) {  // input holds the record's start only
    out += ",\"input_bytes\":";
    append_uint(out, r.input_bytes);
  }
  if (r.pgn != PgnError::kOk) {
    out += ",\"game\":";
    append_uint(out, r.game);
    out += ",\"ply\":";
    append_uint(out, r.ply);
  }
  out += "}\n";
}

namespace {
// Appends text with its control bytes (and DEL, and with `backslash` the backslash too) written as \xNN; bytes
// from 0x80 on stay as they are (UTF-8 names).
void append_with_escapes(std::string& out, std::string_view text, bool backslash) {
  for (char c : text) {
    const auto b = static_cast<unsigned char>(c);
    if (b >= 0x20 && b != 0x7F && !(backslash && b == '\\')) {
      out += c;
      continue;
    }
    char esc[5];
    std::snprintf(esc, sizeof esc, "\\x%02x", b);
    out += esc;
  }
}
}  // namespace

void append_reject_line(std::string& out, std::string_view file, const Reject& r, std::string_view detail) {
  // One report line per record: a control byte in the file name (a newline) is written as \xNN, and so is a
  // backslash, so that no two names print alike.
  append_with_escapes(out, file, true);
  out += ':';
  append_uint(out, r.line);
  out += ':';
  append_uint(out, r.column);
  out += ": ";
  out += reject_code_name(r);
  out += ": ";
  out += reject_message(r, detail);
  out += '\n';
}

std::string one_line(std::string_view message) {
  std::string out;
  out.reserve(message.size());
  append_with_escapes(out, message, false);
  return out;
}

namespace {
// A PGN code named like a FEN code (CLOCK_RANGE) is one key, as it is one code in the rejects: a JSON object with
// a name twice is ambiguous (most readers keep only the last value, and the counts no longer add up).
std::uint64_t pgn_count_named(const Counts& c, std::string_view name) {
  std::uint64_t n = 0;
  for (int i = 1; i < kPgnErrorCount; ++i)
    if (pgn_error_name(static_cast<PgnError>(i)) == name) n += c.invalid_games_by_code[i];
  return n;
}

bool is_fen_code_name(std::string_view name) {
  for (int i = 1; i < kErrorCodeCount; ++i)
    if (error_name(static_cast<ErrorCode>(i)) == name) return true;
  return false;
}

void append_by_code(std::string& out, const Counts& c) {
  out += "{";
  bool first = true;
  for (int i = 1; i < kErrorCodeCount; ++i) {
    const std::uint64_t n = c.invalid_by_code[i] + pgn_count_named(c, error_name(static_cast<ErrorCode>(i)));
    if (!n) continue;
    out += first ? "\"" : ", \"";
    out += error_name(static_cast<ErrorCode>(i));
    out += "\": ";
    append_uint(out, n);
    first = false;
  }
  for (int i = 1; i < kPgnErrorCount; ++i) {
    if (!c.invalid_games_by_code[i] || is_fen_code_name(pgn_error_name(static_cast<PgnError>(i)))) continue;
    out += first ? "\"" : ", \"";
    out += pgn_error_name(static_cast<PgnError>(i));
    out += "\": ";
    append_uint(out, c.invalid_games_by_code[i]);
    first = false;
  }
  out += "}";
}
}  // namespace

std::string summary_json(const Counts& c, const RunFacts& f) {
  std::string out = "{\"records\": ";
  append_uint(out, c.records);
  append_members(out, ", ", {{"valid", c.valid}, {"invalid", c.invalid}, {"repaired", c.repaired},
                             {"completed", c.completed}, {"duplicates", c.duplicates}, {"written", c.written},
                             {"epd_operations_dropped", c.operations_dropped}});
  out += ", \"invalid_by_code\": ";
  append_by_code(out, c);
  char secs[32];
  std::snprintf(secs, sizeof secs, "%.3f", f.seconds);
  out += ", \"seconds\": ";
  out += secs;
  out += ", \"bytes_in\": ";
  append_uint(out, f.bytes_in);
  out += "}\n";
  return out;
}

std::string stats_json(const Counts& c, const RunFacts& f) {
  std::string out = "{\n  \"records\": ";
  append_uint(out, c.records);
  append_members(out, ",\n  ", {{"valid", c.valid}, {"invalid", c.invalid}});
  out += ",\n  \"invalid_by_code\": ";
  append_by_code(out, c);
  append_members(out, ",\n  ", {{"distinct_positions", f.distinct}});
  out += ",\n  \"side_to_move\": {\"w\": ";
  append_uint(out, c.side_to_move[0]);
  out += ", \"b\": ";
  append_uint(out, c.side_to_move[1]);
  out += '}';
  append_members(out, ",\n  ", {{"with_castling_rights", c.with_castling}, {"with_ep_square", c.with_ep}});
  out += ",\n  \"pieces_on_board\": {";
  bool first = true;
  for (int i = 0; i <= 32; ++i) {
    if (!c.piece_count[i]) continue;
    out += first ? "\"" : ", \"";
    append_uint(out, static_cast<std::uint64_t>(i));
    out += "\": ";
    append_uint(out, c.piece_count[i]);
    first = false;
  }
  out += "},\n  \"bytes_in\": ";
  append_uint(out, f.bytes_in);
  out += "\n}\n";
  return out;
}

}  // namespace fenmill
