// libFuzzer target: FEN parse + validate + normalize + write on arbitrary bytes, in every mode.
// Invariants checked: no crash/UB (sanitizers), an accepted position normalizes idempotently (as FEN, and as EPD
// with the record's operations; chess and Xiangqi), the placement the parser vouches for is what the writer
// would build, a record called canonical is the writer's text in both notations (FEN output copies it), the vector
// placement readers (AVX-512, AVX2; the Xiangqi AVX2 one) and the vector clock reader agree with their loops, and the
// fast path reads a record as the careful one does (the first space doubled forces the careful one).
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <utility>

#include "core/keys.h"
#include "fen/clock_text.h"
#include "fen/epd_operations.h"
#include "fen/normalize.h"
#include "fen/placement_fast.h"
#include "formats/binary_record.h"
#include "xiangqi/normalize.h"
#include "xiangqi/placement_fast.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  using Reader = bool (*)(const char*, const char*, fenmill::Position&, const char*&);
  for (auto [supported, reader] :
       {std::pair<bool, Reader>{fenmill::placement_avx512_supported(), fenmill::parse_placement_avx512},
        std::pair<bool, Reader>{fenmill::placement_avx2_supported(), fenmill::parse_placement_avx2}}) {
    if (!supported) continue;
    fenmill::Position a, b;
    const char *after_a = nullptr, *after_b = nullptr;
    bool simd = reader(text.data(), text.data() + size, a, after_a);
    bool scalar = fenmill::parse_placement_scalar(text.data(), text.data() + size, b, after_b);
    if (simd && (!scalar || after_a != after_b || !(a.by_color[0] == b.by_color[0] && a.by_color[1] == b.by_color[1])))
      std::abort();
    for (int t = 0; simd && t < fenmill::kPieceTypeCount; ++t)
      if (a.by_type[t] != b.by_type[t]) std::abort();
    if (scalar && !simd && after_b - text.data() < 64) std::abort();  // the vector paths give up only at 64+
  }
  if (fenmill::placement_avx2_supported()) {  // the Xiangqi AVX2 reader against its loop, the same way
    namespace xq = fenmill::xiangqi;
    xq::Position a, b;
    a.clear();
    b.clear();
    std::uint8_t seen_a = 0, seen_b = 0;
    const char *after_a = nullptr, *after_b = nullptr;
    const bool simd = xq::parse_placement_avx2(text.data(), text.data() + size, a, seen_a, after_a);
    const bool scalar = xq::parse_placement_scalar(text.data(), text.data() + size, b, seen_b, after_b);
    if (simd && (!scalar || after_a != after_b || seen_a != seen_b || !(a == b))) std::abort();
    if (scalar && !simd && after_b - text.data() < 64) std::abort();
  }
#if defined(__SSE2__)
  {
    fenmill::ClockText a, b;
    const bool sse2 = fenmill::read_clock_text_sse2(text.data(), text.data() + size, a);
    if (sse2 != fenmill::read_clock_text_scalar(text.data(), text.data() + size, b) ||
        (sse2 && (a.halfmove != b.halfmove || a.fullmove != b.fullmove || a.leading_zero != b.leading_zero)))
      std::abort();
  }
#endif
  const std::size_t first_space = text.find(' ');
  const std::string careful_text = first_space == std::string_view::npos
                                       ? std::string()
                                       : std::string(text.substr(0, first_space)) + " " + std::string(text.substr(first_space));
  for (int mode = 0; mode < 4; ++mode) {
    fenmill::NormalizeOptions options;
    options.repair = mode & 1;
    options.chess960 = mode & 2;
    options.allow_operations = mode == 3;
    options.ep = mode == 1 ? fenmill::EpPolicy::kPseudo : mode == 2 ? fenmill::EpPolicy::kKeep : fenmill::EpPolicy::kLegal;
    fenmill::Position pos;
    fenmill::NormalizeResult r = fenmill::normalize_fen(text, pos, options);
    if (!careful_text.empty()) {
      fenmill::Position careful;
      const fenmill::NormalizeResult c = fenmill::normalize_fen(careful_text, careful, options);
      if (c.code != r.code) std::abort();
      if (r.ok() && (!(careful == pos) || c.fields != r.fields || c.repairs != r.repairs ||
                     (r.rest > first_space ? c.rest != r.rest + 1 : c.rest != r.rest)))
        std::abort();
    }
    if (!r.ok()) continue;
    char buf[fenmill::kMaxFenLength];
    std::size_t n = fenmill::write_fen(pos, buf);
    fenmill::Position again;
    fenmill::NormalizeResult r2 = fenmill::normalize_fen(std::string_view(buf, n), again, options);
    if (!r2.ok() || !(again == pos)) std::abort();  // normalizing must be idempotent
    if (options.allow_operations) {  // EPD output (clocks, then the other operations) reads back as the same position
      char fields[fenmill::kMaxFenLength];
      std::string epd(fields, fenmill::write_epd(pos, fields));
      fenmill::append_epd_operations_but_clocks(epd, text.substr(r.rest));
      if (r.operations_as_written) {  // the copy the pipeline then makes is what the writer would write
        std::string copied(fields, fenmill::write_epd(pos, fields));
        fenmill::append_epd_operations_but_clocks(copied, text.substr(r.rest), true);
        if (copied != epd) std::abort();
      }
      fenmill::Position back;
      fenmill::NormalizeResult r3 = fenmill::normalize_fen(epd, back, options);
      if (!r3.ok() || !(back == pos)) std::abort();
    }
    if (r.placement_length > 0) {
      char copied[fenmill::kMaxFenLength];
      std::size_t m = fenmill::write_fen(pos, copied, fenmill::CastlingNotation::kXFen, text.substr(0, r.placement_length));
      if (std::string_view(copied, m) != std::string_view(buf, n)) std::abort();
    }
    if (r.canonical) {  // copied to FEN output as it came
      char shredder[fenmill::kMaxFenLength];
      const std::string_view as_read = text.substr(0, r.rest);
      if (as_read != std::string_view(buf, n) ||
          as_read != std::string_view(shredder, fenmill::write_fen(pos, shredder, fenmill::CastlingNotation::kShredder)))
        std::abort();
    }
    std::uint8_t record[fenmill::kRecordSize];
    fenmill::encode_record(pos, record);
    fenmill::Position decoded;
    if (!fenmill::decode_record(record, decoded) || !(decoded == pos)) std::abort();
    (void)fenmill::dedup_key(pos, fenmill::KeyLevel::kPosition);
    (void)fenmill::polyglot_key(pos);
  }
  // The same for Xiangqi: FEN and EPD output read back as the position they were written from.
  for (int mode = 0; mode < 2; ++mode) {
    namespace xq = fenmill::xiangqi;
    xq::NormalizeOptions options;
    options.repair = options.allow_operations = mode == 1;
    xq::Position pos;
    const xq::NormalizeResult r = xq::normalize_fen(text, pos, options);
    if (!r.ok()) continue;
    char buf[xq::kMaxFenLength];
    xq::Position again;
    if (!xq::normalize_fen(std::string_view(buf, xq::write_fen(pos, buf)), again, options).ok() || !(again == pos))
      std::abort();
    if (!options.allow_operations) continue;
    std::string epd(buf, xq::write_epd(pos, buf));
    fenmill::append_epd_operations_but_clocks(epd, text.substr(r.rest));
    if (!xq::normalize_fen(epd, again, options).ok() || !(again == pos)) std::abort();
  }
  return 0;
}
