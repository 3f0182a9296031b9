// parse_placement_fast's reader is chosen before main (src/fen/placement_fast.cpp): this CPU's vector reader, or the
// scalar loop alone when FENMILL_NO_SIMD is set. The end-to-end comparisons (FormatsCli.ScalarAndVector...) cannot
// tell a dispatch that ignores the variable, as both paths give the same output: the last test here runs this test
// binary again with FENMILL_NO_SIMD=1 and has the choice checked in there.
#include <gtest/gtest.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "fen/parse.h"
#include "fen/placement_fast.h"

namespace fenmill {
namespace {

PlacementReader vector_reader_for_this_cpu() {
  if (placement_avx512_supported()) return parse_placement_avx512;
  if (placement_avx2_pays_off()) return parse_placement_avx2;
  return nullptr;
}

TEST(PlacementDispatch, ChoiceFollowsTheCpuAndTheVariable) {
  EXPECT_EQ(choose_placement_reader(true), nullptr);
  EXPECT_EQ(choose_placement_reader(false), vector_reader_for_this_cpu());
}

// Run again by the last test, with FENMILL_NO_SIMD=1.
TEST(PlacementDispatch, ReaderInUseIsTheChoiceForThisEnvironment) {
  const bool no_simd = std::getenv("FENMILL_NO_SIMD") != nullptr;
  EXPECT_EQ(placement_dispatch::vector_reader, choose_placement_reader(no_simd)) << "FENMILL_NO_SIMD set: " << no_simd;
}

// The parser reads placements through the chosen reader (and the scalar loop when it refuses).
bool refusing_reader_calls = false;
bool refusing_reader(const char*, const char*, Position&, const char*&) { return refusing_reader_calls = true, false; }

TEST(PlacementDispatch, ParserCallsTheReaderInUse) {
  const PlacementReader saved = placement_dispatch::vector_reader;
  placement_dispatch::vector_reader = refusing_reader;
  Position pos;
  const std::string placement = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR";
  const ParseResult r = parse_fen(placement + " b KQkq e3 0 1", pos);
  placement_dispatch::vector_reader = saved;
  EXPECT_TRUE(refusing_reader_calls);
  ASSERT_TRUE(r.ok());  // the loop took the placement the reader refused
  EXPECT_EQ(r.placement_length, placement.size());
  EXPECT_EQ(popcount(pos.occupied()), 32);
}

TEST(PlacementDispatch, NoSimdVariableTakesTheScalarLoop) {
  if (vector_reader_for_this_cpu() == nullptr) GTEST_SKIP() << "no vector placement reader on this CPU: nothing to turn off";
  std::array<char, 4096> self{};
  const ssize_t n = ::readlink("/proc/self/exe", self.data(), self.size() - 1);
  if (n <= 0) GTEST_SKIP() << "no /proc/self/exe";
  for (const char* value : {"1", ""}) {  // set, even to nothing
    const std::string command = std::string("FENMILL_NO_SIMD='") + value + "' '" + self.data() +
                                "' --gtest_filter=PlacementDispatch.ReaderInUseIsTheChoiceForThisEnvironment 2>&1";
    FILE* child = ::popen(command.c_str(), "r");
    ASSERT_NE(child, nullptr);
    std::string out;
    for (std::array<char, 4096> buf; std::size_t got = std::fread(buf.data(), 1, buf.size(), child);) out.append(buf.data(), got);
    const int status = ::pclose(child);
    EXPECT_EQ(status, 0) << out;
    EXPECT_NE(out.find("[  PASSED  ] 1 test."), std::string::npos) << out;
  }
}

}  // namespace
}  // namespace fenmill
