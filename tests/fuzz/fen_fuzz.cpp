// libFuzzer target: FEN parse + validate + normalize + write on arbitrary bytes, in every mode.
// Invariants checked: no crash/UB (sanitizers), and an accepted position normalizes idempotently.
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "core/keys.h"
#include "fen/normalize.h"
#include "formats/binary_record.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  for (int mode = 0; mode < 4; ++mode) {
    fenmill::NormalizeOptions options;
    options.repair = mode & 1;
    options.chess960 = mode & 2;
    options.allow_operations = mode == 3;
    options.ep = mode == 1 ? fenmill::EpPolicy::kPseudo : mode == 2 ? fenmill::EpPolicy::kKeep : fenmill::EpPolicy::kLegal;
    fenmill::Position pos;
    fenmill::NormalizeResult r = fenmill::normalize_fen(text, pos, options);
    if (!r.ok()) continue;
    char buf[fenmill::kMaxFenLength];
    std::size_t n = fenmill::write_fen(pos, buf);
    fenmill::Position again;
    fenmill::NormalizeResult r2 = fenmill::normalize_fen(std::string_view(buf, n), again, options);
    if (!r2.ok() || !(again == pos)) std::abort();  // normalizing must be idempotent
    std::uint8_t record[fenmill::kRecordSize];
    fenmill::encode_record(pos, record);
    fenmill::Position decoded;
    if (!fenmill::decode_record(record, decoded) || !(decoded == pos)) std::abort();
    (void)fenmill::dedup_key(pos, fenmill::KeyLevel::kPosition);
    (void)fenmill::polyglot_key(pos);
  }
  return 0;
}
