#include "pipeline/chunk_processor.h"

#include <cstring>

#include "formats/binary_record.h"

namespace fenmill {
namespace {

bool is_blank_line(std::string_view line) {
  for (char c : line)
    if (c != ' ' && c != '\t' && c != '\r' && c != '\0') return false;
  return true;
}

// EPD operations as written, without trailing blanks/CR/NUL.
std::string_view trimmed_operations(std::string_view line, std::uint32_t rest) {
  std::string_view ops = line.substr(rest);
  while (!ops.empty() && (ops.back() == ' ' || ops.back() == '\t' || ops.back() == '\r' || ops.back() == '\0'))
    ops.remove_suffix(1);
  return ops;
}

void count_stats(const Position& pos, Counts& c) {
  ++c.side_to_move[pos.side_to_move];
  c.with_castling += pos.has_castling();
  c.with_ep += pos.ep_square != kNoSquare;
  ++c.piece_count[popcount(pos.occupied())];
}

}  // namespace

KeyLevel key_level(DedupLevel level) {
  switch (level) {
    case DedupLevel::kFull: return KeyLevel::kFull;
    case DedupLevel::kPosition: return KeyLevel::kPosition;
    case DedupLevel::kPlacementSide: return KeyLevel::kPlacementSide;
    case DedupLevel::kPlacement: return KeyLevel::kPlacement;
  }
  return KeyLevel::kPosition;
}

void ChunkResult::clear() {
  out.clear();
  ends.clear();
  keys.clear();
  rejects.clear();
  reject_text.clear();
  counts = Counts{};
}

void process_chunk(std::string_view bytes, std::uint64_t first_line, bool epd_input, const Job& job,
                   ChunkResult& result) {
  result.clear();
  NormalizeOptions options = job.normalize;
  options.allow_operations = epd_input;
  const bool want_keys = job.dedup() || job.command == Command::kStats;
  const bool want_ends = job.dedup() && job.to != OutputFormat::kBinary;
  const bool write = job.writes_positions();
  const KeyLevel level = key_level(job.key);
  // The default key wants the legal ep square; under another ep policy it is recomputed on a copy.
  const bool key_needs_legal_ep = level == KeyLevel::kPosition && job.normalize.ep != EpPolicy::kLegal;
  Position pos;
  Counts& counts = result.counts;
  std::uint64_t line_number = first_line;
  const char* p = bytes.data();
  const char* end = p + bytes.size();
  while (p < end) {
    const char* nl = static_cast<const char*>(std::memchr(p, '\n', static_cast<std::size_t>(end - p)));
    const char* line_end = nl ? nl : end;
    std::string_view line(p, static_cast<std::size_t>(line_end - p));
    p = nl ? nl + 1 : end;
    std::uint64_t number = line_number++;
    if (is_blank_line(line)) continue;
    ++counts.records;
    NormalizeResult r = normalize_fen(line, pos, options);
    if (!r.ok()) {
      ++counts.invalid;
      ++counts.invalid_by_code[static_cast<int>(r.code)];
      std::string_view shown = line;
      if (!shown.empty() && shown.back() == '\r') shown.remove_suffix(1);
      Reject rej{number, r.column ? r.column : 1, r.code, r.hints, r.squares,
                 static_cast<std::uint32_t>(result.reject_text.size()), 0};
      result.reject_text.append(shown);
      rej.text_end = static_cast<std::uint32_t>(result.reject_text.size());
      result.rejects.push_back(rej);
      continue;
    }
    ++counts.valid;
    counts.repaired += r.repairs != 0;
    counts.completed += r.completed();
    if (job.command == Command::kStats) count_stats(pos, counts);
    if (want_keys) {
      if (key_needs_legal_ep) {
        Position legal = pos;
        apply_ep_policy(legal, EpPolicy::kLegal);
        result.keys.push_back(dedup_key(legal, level));
      } else {
        result.keys.push_back(dedup_key(pos, level));
      }
    }
    if (!write) continue;
    if (job.to == OutputFormat::kBinary) {
      std::size_t at = result.out.size();
      result.out.resize(at + kRecordSize);
      encode_record(pos, reinterpret_cast<std::uint8_t*>(result.out.data() + at));
      continue;
    }
    char buf[kMaxFenLength];
    std::size_t n;
    if (job.to == OutputFormat::kEpd) {
      std::string_view ops = epd_input ? trimmed_operations(line, r.rest) : std::string_view{};
      if (ops.empty()) {
        n = write_epd(pos, buf, job.castling_notation);
      } else {
        n = write_position_fields(pos, buf, job.castling_notation);
        result.out.append(buf, n);
        result.out.push_back(' ');
        result.out.append(ops);
        n = 0;
      }
    } else {
      n = write_fen(pos, buf, job.castling_notation);
    }
    result.out.append(buf, n);
    result.out.push_back('\n');
    if (want_ends) result.ends.push_back(static_cast<std::uint32_t>(result.out.size()));
  }
}

}  // namespace fenmill
