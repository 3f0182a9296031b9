// SpillFile gives back exactly the lines written, whatever the block boundaries, and leaves no file behind.
#include <gtest/gtest.h>
#include <dirent.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "io/spill_file.h"

namespace fenmill {
namespace {

std::vector<std::string> read_back(SpillFile& spill) {
  std::vector<std::string> lines;
  EXPECT_TRUE(spill.for_each_line([&](std::string_view line) { lines.emplace_back(line); }));
  return lines;
}

std::size_t entries_in(const std::filesystem::path& dir) {
  std::size_t n = 0;
  for ([[maybe_unused]] const auto& e : std::filesystem::directory_iterator(dir)) ++n;
  return n;
}

class SpillFileTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() / ("fenmill-spill-test-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::filesystem::path dir_;
};

TEST_F(SpillFileTest, GivesBackTheLinesAcrossBlockBoundaries) {
  std::string error;
  auto spill = SpillFile::create(dir_, error);
  ASSERT_TRUE(spill) << error;
  EXPECT_EQ(entries_in(dir_), 0u) << "the file has no name";
  std::mt19937 rng(3);
  std::vector<std::string> expected;
  std::string pending;
  for (int i = 0; i < 3000; ++i) {
    // Mostly FEN-sized lines, some empty, some longer than the 1 MiB read block.
    std::size_t length = i % 1000 == 7 ? (std::size_t{3} << 19) + rng() % 1000 : i % 50 == 0 ? 0 : rng() % 120;
    std::string line(length, static_cast<char>('a' + i % 26));
    expected.push_back(line);
    pending += line + '\n';
    if (pending.size() > 5000 || rng() % 7 == 0) {  // appends of all sizes
      ASSERT_TRUE(spill->append(pending)) << spill->error();
      pending.clear();
    }
  }
  expected.push_back("last line without a newline");
  pending += expected.back();
  ASSERT_TRUE(spill->append(pending));
  std::vector<std::string> lines = read_back(*spill);
  ASSERT_EQ(lines.size(), expected.size());
  for (std::size_t i = 0; i < lines.size(); ++i) ASSERT_EQ(lines[i], expected[i]) << "line " << i;
  EXPECT_EQ(read_back(*spill), expected) << "readable twice";
  spill.reset();
  EXPECT_EQ(entries_in(dir_), 0u);
}

TEST_F(SpillFileTest, EmptyFileHasNoLines) {
  std::string error;
  auto spill = SpillFile::create(dir_, error);
  ASSERT_TRUE(spill) << error;
  EXPECT_TRUE(read_back(*spill).empty());
}

TEST_F(SpillFileTest, MissingDirectoryIsAClearError) {
  std::string error;
  EXPECT_FALSE(SpillFile::create((dir_ / "missing").string(), error));
  EXPECT_NE(error.find("missing: cannot make a temporary file"), std::string::npos) << error;
}

// The file has no name, so a failed write names its directory (a full $TMPDIR must be findable). A file size
// limit in a child process stands in for a full disk.
TEST_F(SpillFileTest, FailedWriteNamesTheDirectory) {
  pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    ::signal(SIGXFSZ, SIG_IGN);  // then write() fails with EFBIG
    struct rlimit limit {4096, 4096};
    ::setrlimit(RLIMIT_FSIZE, &limit);
    std::string error;
    auto spill = SpillFile::create(dir_, error);
    if (!spill) ::_exit(3);
    if (spill->append(std::string(10000, 'x'))) ::_exit(4);
    ::_exit(spill->error().find("temporary file in " + dir_.string() + ": ") == 0 ? 0 : 5);
  }
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0);
}

}  // namespace
}  // namespace fenmill
