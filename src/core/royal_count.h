// The words for a broken one-king (Xiangqi: one-general) rule, shared by both variants' messages: which side has none
// or more than one. The first side (White, Red) is checked first, as the validators do.
#pragma once
#include <string_view>

namespace fenmill {

// `first` and `second`: each side's kings (generals), as bitboards of either variant. Empty when each has one.
template <typename Bitboard>
std::string_view royal_count_detail(Bitboard first, Bitboard second, bool xiangqi) {
  const auto more_than_one = [](Bitboard b) { return (b & (b - 1)) != 0; };
  if (!first) return second ? (xiangqi ? "Red has none" : "White has none") : "neither side has one";
  if (more_than_one(first)) return xiangqi ? "Red has more than one" : "White has more than one";
  if (!second) return "Black has none";
  if (more_than_one(second)) return "Black has more than one";
  return {};
}

}  // namespace fenmill
