// A chess position as a self-contained SVG: light and dark squares, file and rank letters on the edges,
// pieces drawn as shapes (no fonts needed for them), a side-to-move disc, a status line, and for a
// rejected position the offending squares outlined in red with the error as a caption.
#pragma once
#include <string>

#include "core/position.h"
#include "render/svg_common.h"

namespace fenmill::render {

// `marked`: squares to outline (a1 = bit 0), e.g. Verdict::squares.
std::string chess_svg(const Position& pos, Bitboard marked, const Caption& caption, const RenderOptions& options);

// The piece shapes as SVG <g id="fm-..."> elements, for a page that holds them once (RenderOptions::embed_defs off).
std::string chess_piece_defs();

}  // namespace fenmill::render
