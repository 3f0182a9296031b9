#include "fen/errors.h"

namespace fenmill {
namespace {
constexpr std::string_view kNames[] = {
#define FENMILL_X(id, name, msg) name,
    FENMILL_ERROR_CODES(FENMILL_X)
#undef FENMILL_X
};
constexpr std::string_view kMessages[] = {
#define FENMILL_X(id, name, msg) msg,
    FENMILL_ERROR_CODES(FENMILL_X)
#undef FENMILL_X
};
}  // namespace

std::string_view error_name(ErrorCode code) { return kNames[static_cast<int>(code)]; }
std::string_view error_message(ErrorCode code) { return kMessages[static_cast<int>(code)]; }
bool is_record_format_error(ErrorCode code) {
  return code == ErrorCode::kCsvField || code == ErrorCode::kJsonField || code == ErrorCode::kBadRecord ||
         code == ErrorCode::kLineTooLong;
}
bool is_syntax_error(ErrorCode code) {
  return (code != ErrorCode::kOk && code < ErrorCode::kMissingKing) || is_record_format_error(code);
}
bool error_from_name(std::string_view name, ErrorCode& out) {
  for (int i = 0; i < kErrorCodeCount; ++i)
    if (kNames[i] == name) {
      out = static_cast<ErrorCode>(i);
      return true;
    }
  return false;
}

}  // namespace fenmill
