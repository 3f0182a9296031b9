// The picture of a record that holds no position (a syntax error, or no FEN found in a CSV/JSON line):
// a panel with the error code and message and the text around the offending byte, highlighted, where a
// board would be.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>

#include "render/svg_common.h"

namespace fenmill::render {

// `column`: the 1-based byte column of the error in `text` (0: none known). `text` may be a part of the record
// (the report keeps only the bytes around the column of a long one): `shown_column` is then the column in the
// record, which the picture prints (0: `column`).
std::string message_svg(const Caption& caption, std::string_view text, std::uint32_t column, const RenderOptions& options,
                        std::uint32_t shown_column = 0);

}  // namespace fenmill::render
