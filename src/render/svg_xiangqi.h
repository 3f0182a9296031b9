// A Xiangqi position as a self-contained SVG, drawn the traditional way: pieces on the 9 x 10 points where
// the lines cross, the river with 楚河 漢界, the palaces' diagonals and the cannon and soldier marks; pieces as
// discs with their characters (Red 帥仕相傌俥炮兵, Black 將士象馬車砲卒). A rejected position gets its offending
// points outlined in red and the error as a caption. The characters need a CJK font on the viewing machine.
#pragma once
#include <string>

#include "render/svg_common.h"
#include "xiangqi/position.h"

namespace fenmill::render {

// `marked`: points to outline (a0 = bit 0), e.g. xiangqi::Verdict::squares.
std::string xiangqi_svg(const xiangqi::Position& pos, xiangqi::Bitboard marked, const Caption& caption,
                        const RenderOptions& options);

}  // namespace fenmill::render
