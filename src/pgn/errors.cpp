#include "pgn/errors.h"

namespace fenmill {
namespace {
constexpr std::string_view kNames[] = {
#define FENMILL_X(id, name, msg) name,
    FENMILL_PGN_ERROR_CODES(FENMILL_X)
#undef FENMILL_X
};
constexpr std::string_view kMessages[] = {
#define FENMILL_X(id, name, msg) msg,
    FENMILL_PGN_ERROR_CODES(FENMILL_X)
#undef FENMILL_X
};
}  // namespace

std::string_view pgn_error_name(PgnError code) { return kNames[static_cast<int>(code)]; }
std::string_view pgn_error_message(PgnError code) { return kMessages[static_cast<int>(code)]; }

}  // namespace fenmill
