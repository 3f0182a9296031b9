// The input/output layer: sources (mmap, pipe, FIFO, stdin, zstd), chunking, line iteration, atomic output.
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zstd.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "core/address_sanitizer.h"
#include "io/atomic_output.h"
#include "io/chunker.h"
#include "io/fd_reader.h"
#include "io/input_source.h"
#include "line_reader.h"
#include "io/line_splitter.h"
#include "io/multi_chunker.h"
#include "io/range_fill.h"
#include "io/zstd_reader.h"

namespace fenmill {
namespace {

namespace fs = std::filesystem;

// CI runs without a standard input: keep fd 0 taken, or the pipes made below would land on it.
const bool kStdinIsOpen = [] {
  if (::fcntl(0, F_GETFD) < 0) return ::open("/dev/null", O_RDONLY) == 0;
  return true;
}();

class TempDir {
 public:
  TempDir() {
    std::string pattern = (fs::temp_directory_path() / "fenmill-io-XXXXXX").string();
    if (::mkdtemp(pattern.data())) path_ = pattern;
  }
  ~TempDir() {
    std::error_code ec;
    if (!path_.empty()) fs::remove_all(path_, ec);
  }
  std::string file(const std::string& name) const { return path_ + "/" + name; }
  const std::string& path() const { return path_; }
  std::vector<std::string> entries() const {
    std::vector<std::string> names;
    for (const auto& e : fs::directory_iterator(path_)) names.push_back(e.path().filename().string());
    std::sort(names.begin(), names.end());
    return names;
  }

 private:
  std::string path_;
};

void write_file(const std::string& path, std::string_view bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string zstd_frame(std::string_view bytes, int level = 3) {
  std::string out(ZSTD_compressBound(bytes.size()), '\0');
  std::size_t n = ZSTD_compress(out.data(), out.size(), bytes.data(), bytes.size(), level);
  EXPECT_FALSE(ZSTD_isError(n)) << ZSTD_getErrorName(n);
  out.resize(n);
  return out;
}

// Magic 0x184D2A5? (little-endian), 4-byte little-endian payload size, payload: decoders skip it.
std::string skippable_frame(std::string_view payload, unsigned variant = 0) {
  std::string out;
  auto put32 = [&](std::uint32_t v) {
    for (int i = 0; i < 4; ++i) out.push_back(static_cast<char>((v >> (8 * i)) & 0xFF));
  };
  put32(0x184D2A50u + variant);
  put32(static_cast<std::uint32_t>(payload.size()));
  out.append(payload);
  return out;
}

// Deterministic FEN-like text: varied line lengths, some empty lines, a trailing newline.
std::string sample_text(std::size_t lines, unsigned seed = 1) {
  std::mt19937 rng(seed);
  std::string out;
  for (std::size_t i = 0; i < lines; ++i) {
    if (rng() % 17 == 0) {
      out += '\n';
      continue;
    }
    out += "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 ";
    out += std::to_string(i);
    out.append(rng() % 40, static_cast<char>('a' + rng() % 26));
    out += '\n';
  }
  return out;
}

std::string read_all(InputSource& source, std::string& error, std::size_t block = 4096) {
  std::string out;
  while (source.read(out, block, error) > 0) {
  }
  return out;
}

// A writer thread feeding a pipe in small pieces, so readers see short reads.
class PipeFeeder {
 public:
  explicit PipeFeeder(std::string bytes, std::size_t piece = 1000) {
    // A reader that stops early (an error at the first bytes) closes the pipe: the writer must see EPIPE and
    // stop, not have SIGPIPE end the test binary (it did, now and then, in Chunker.Utf16InputIsAnError).
    static const bool sigpipe_ignored = (::signal(SIGPIPE, SIG_IGN), true);
    (void)sigpipe_ignored;
    int fds[2];
    EXPECT_EQ(::pipe(fds), 0);
    read_fd_ = fds[0];
    int write_fd = fds[1];
    thread_ = std::thread([write_fd, bytes = std::move(bytes), piece] {
      for (std::size_t pos = 0; pos < bytes.size();) {
        std::size_t n = std::min(piece, bytes.size() - pos);
        ssize_t w = ::write(write_fd, bytes.data() + pos, n);
        if (w <= 0) break;
        pos += static_cast<std::size_t>(w);
      }
      ::close(write_fd);
    });
  }
  ~PipeFeeder() {
    if (thread_.joinable()) thread_.join();
    if (read_fd_ >= 0) ::close(read_fd_);
  }
  int read_fd() const { return read_fd_; }
  int release() {
    int fd = read_fd_;
    read_fd_ = -1;
    return fd;
  }

 private:
  int read_fd_ = -1;
  std::thread thread_;
};

// `text` as a Chunker source: read from a pipe fed `piece` bytes at a time (the feeder, which must outlive the
// source's reads, is kept in `feeder`), or mapped in memory.
std::unique_ptr<InputSource> streamed_or_mapped(const std::string& text, bool streamed, std::size_t piece,
                                                std::unique_ptr<PipeFeeder>& feeder) {
  if (!streamed) return InputSource::from_memory(text, "memory");
  feeder = std::make_unique<PipeFeeder>(text, piece);
  return std::make_unique<FdReader>(feeder->release(), true, "pipe");
}

// Feeds a FIFO in the temp dir from a thread (the open blocks until both ends are there).
class FifoFeeder {
 public:
  FifoFeeder(const std::string& path, std::string bytes) {
    EXPECT_EQ(::mkfifo(path.c_str(), 0600), 0);
    thread_ = std::thread([path, bytes = std::move(bytes)] {
      int fd = ::open(path.c_str(), O_WRONLY);
      if (fd < 0) return;
      for (std::size_t pos = 0; pos < bytes.size();) {
        ssize_t w = ::write(fd, bytes.data() + pos, std::min<std::size_t>(777, bytes.size() - pos));
        if (w <= 0) break;
        pos += static_cast<std::size_t>(w);
      }
      ::close(fd);
    });
  }
  ~FifoFeeder() { thread_.join(); }

 private:
  std::thread thread_;
};

// Points fd 0 at another descriptor for the lifetime of the object.
class StdinRedirect {
 public:
  explicit StdinRedirect(int fd) : saved_(::dup(0)) {
    ::dup2(fd, 0);
    ::close(fd);
  }
  ~StdinRedirect() {
    ::dup2(saved_, 0);
    ::close(saved_);
  }

 private:
  int saved_;
};

struct LineRecord {
  std::string text;
  std::uint64_t number;
  std::uint64_t offset;
  bool operator==(const LineRecord&) const = default;
};

void PrintTo(const LineRecord& r, std::ostream* os) {
  *os << "{\"" << r.text << "\" line " << r.number << " @" << r.offset << "}";
}

// The reference: lines of one input split the slow and obvious way.
std::vector<LineRecord> naive_lines(std::string_view input) {
  std::vector<LineRecord> lines;
  std::size_t pos = 0;
  if (input.substr(0, 3) == "\xEF\xBB\xBF") pos = 3;
  std::uint64_t number = 1;
  while (pos < input.size()) {
    std::size_t nl = input.find('\n', pos);
    std::size_t end = nl == std::string_view::npos ? input.size() : nl;
    std::string text(input.substr(pos, end - pos));
    if (!text.empty() && text.back() == '\r') text.pop_back();
    lines.push_back({text, number++, pos});
    pos = nl == std::string_view::npos ? input.size() : nl + 1;
  }
  return lines;
}

// Runs a chunker to the end, checking every chunk's invariants, and returns the lines.
std::vector<LineRecord> chunk_lines(Chunker& chunker, std::size_t chunk_size, std::string* error_out = nullptr) {
  std::vector<LineRecord> lines;
  Chunk chunk;
  std::string error;
  std::uint64_t expected_offset = 0;
  std::uint64_t expected_line = 1;
  std::uint64_t expected_sequence = 0;
  bool saw_unterminated = false;
  while (chunker.next(chunk, error)) {
    EXPECT_FALSE(chunk.bytes.empty());
    EXPECT_FALSE(saw_unterminated) << "a chunk without a final newline must be the last";
    if (expected_sequence == 0 && chunk.offset == 3) expected_offset = 3;  // BOM
    EXPECT_EQ(chunk.offset, expected_offset);
    EXPECT_EQ(chunk.starts_input, expected_sequence == 0);
    EXPECT_EQ(chunk.sequence, expected_sequence++);
    EXPECT_EQ(chunk.source_name, chunker.source().name());
    if (chunk.bytes.back() != '\n') saw_unterminated = true;
    // Bigger than chunk_size only when it is a single line.
    if (chunk.bytes.size() > chunk_size) {
      EXPECT_EQ(std::count(chunk.bytes.begin(), chunk.bytes.end() - 1, '\n'), 0)
          << "oversized chunk of more than one line at offset " << chunk.offset;
    }
    LineReader reader(chunk.bytes, expected_line, chunk.offset);  // chunks number lines from 1: add those before
    Line line;
    std::uint64_t count = 0;
    while (reader.next(line)) {
      lines.push_back({std::string(line.text), line.number, line.offset});
      ++count;
    }
    expected_offset += chunk.bytes.size();
    expected_line += count;
  }
  if (error_out) *error_out = error;
  else EXPECT_EQ(error, "");
  return lines;
}

std::vector<LineRecord> chunk_lines(std::unique_ptr<InputSource> source, std::size_t chunk_size) {
  Chunker chunker(std::move(source), chunk_size);
  return chunk_lines(chunker, chunk_size);
}

std::unique_ptr<InputSource> open_ok(const std::string& path) {
  std::string error;
  auto source = InputSource::open(path, error);
  EXPECT_TRUE(source) << error;
  EXPECT_EQ(error, "");
  return source;
}

// ---------------------------------------------------------------- sources

TEST(InputSource, MappedPipeFifoStdinAndZstdGiveIdenticalBytes) {
  ASSERT_TRUE(kStdinIsOpen);
  TempDir dir;
  std::string text = sample_text(60000);  // ~5 MB: many zstd blocks and pipe buffers
  ASSERT_GT(text.size(), std::size_t{4} << 20);
  std::string compressed = zstd_frame(text);
  write_file(dir.file("plain.fen"), text);
  write_file(dir.file("packed.fen.zst"), compressed);
  write_file(dir.file("packed-no-suffix.fen"), compressed);  // found by its magic number

  std::string error;
  auto mapped = open_ok(dir.file("plain.fen"));
  EXPECT_EQ(mapped->mapped().size(), text.size());
  EXPECT_EQ(mapped->mapped(), text);
  EXPECT_EQ(read_all(*mapped, error), text);

  for (const char* name : {"packed.fen.zst", "packed-no-suffix.fen"}) {
    auto zst = open_ok(dir.file(name));
    EXPECT_TRUE(zst->mapped().empty());
    EXPECT_EQ(read_all(*zst, error, 1 << 20), text) << name;
    EXPECT_EQ(error, "");
  }

  {
    FifoFeeder feeder(dir.file("fifo"), text);
    auto fifo = open_ok(dir.file("fifo"));
    EXPECT_TRUE(fifo->mapped().empty());
    EXPECT_EQ(read_all(*fifo, error), text);
  }
  {
    FifoFeeder feeder(dir.file("fifo-zst"), compressed);
    auto fifo = open_ok(dir.file("fifo-zst"));
    EXPECT_EQ(read_all(*fifo, error, 3000), text);
  }
  for (const std::string* bytes : {&text, &compressed}) {
    PipeFeeder feeder(*bytes);
    StdinRedirect redirect(feeder.release());
    auto in = open_ok("-");
    EXPECT_EQ(in->name(), "<stdin>");
    EXPECT_TRUE(in->mapped().empty());
    EXPECT_EQ(read_all(*in, error), text);
  }
  {
    // stdin redirected from a regular file is mapped.
    StdinRedirect redirect(::open(dir.file("plain.fen").c_str(), O_RDONLY));
    auto in = open_ok("-");
    EXPECT_EQ(in->mapped(), text);
  }
  EXPECT_EQ(error, "");
}

TEST(InputSource, ZstdWithLeadingSkippableFrame) {
  TempDir dir;
  std::string text = sample_text(3000);
  // Like the lichess dumps: a skippable frame first, then the data.
  std::string bytes = skippable_frame(std::string(40, '\x07'), 0) + zstd_frame(text);
  write_file(dir.file("skip.zst"), bytes);
  write_file(dir.file("skip-no-suffix"), bytes);
  std::string error;
  for (const char* name : {"skip.zst", "skip-no-suffix"}) {
    auto source = open_ok(dir.file(name));
    EXPECT_EQ(read_all(*source, error), text) << name;
    EXPECT_EQ(error, "");
  }
  // The progress line's ETA counts on file sizes only for files read as they are.
  write_file(dir.file("plain.zst.txt"), text);
  write_file(dir.file("short"), "\x28\xb5");
  EXPECT_TRUE(InputSource::is_compressed_file(dir.file("skip.zst")));
  EXPECT_TRUE(InputSource::is_compressed_file(dir.file("skip-no-suffix")));
  EXPECT_FALSE(InputSource::is_compressed_file(dir.file("plain.zst.txt")));
  EXPECT_FALSE(InputSource::is_compressed_file(dir.file("short")));
  EXPECT_FALSE(InputSource::is_compressed_file(dir.file("missing")));
  PipeFeeder feeder(bytes, 5);  // header arrives in tiny pieces on stdin
  StdinRedirect redirect(feeder.release());
  auto in = open_ok("-");
  EXPECT_EQ(read_all(*in, error), text);
  EXPECT_EQ(error, "");
}

TEST(InputSource, ZstdConcatenatedFramesAndSkippableFramesBetween) {
  TempDir dir;
  std::string first = sample_text(2000, 1);
  std::string second = sample_text(2000, 2);
  std::string third = "last line without newline";
  std::string bytes = zstd_frame(first) + zstd_frame(second, 19) + skippable_frame("meta", 15) +
                      skippable_frame("") + zstd_frame(third);
  write_file(dir.file("multi.zst"), bytes);
  std::string error;
  auto source = open_ok(dir.file("multi.zst"));
  EXPECT_EQ(read_all(*source, error, 100), first + second + third);
  EXPECT_EQ(error, "");
}

// The kB of `path`'s pages mapped in this process and resident (/proc/self/smaps: "Rss:" under each mapping of it).
long resident_kb_of_file(const std::string& path) {
  std::ifstream smaps("/proc/self/smaps");
  const std::string canonical = std::filesystem::canonical(path).string();
  long kb = 0;
  bool ours = false;
  for (std::string line; std::getline(smaps, line);) {
    if (line.empty()) continue;
    if (std::isxdigit(static_cast<unsigned char>(line[0])) && line.find('-') != std::string::npos && line.find(':') > line.find(' ')) {
      ours = line.size() >= canonical.size() && line.compare(line.size() - canonical.size(), canonical.size(), canonical) == 0;
    } else if (ours && line.rfind("Rss:", 0) == 0) {
      kb += std::stol(line.substr(4));
    }
  }
  return kb;
}

// A whole-file mapping read front to back, through read() (a binary file's blocks) or by the zstd decoder, kept
// every page it had read resident until the end of the run (--mmap: RSS as large as the file): they go once copied.
TEST(InputSource, MappedBytesReadOnceAreLetGo) {
  TempDir dir;
  std::mt19937 rng(7);
  std::string noise(8 << 20, '\0');  // incompressible: the .zst is as large
  for (char& c : noise) c = static_cast<char>(rng());
  write_file(dir.file("noise.bin"), noise);
  write_file(dir.file("noise.zst"), zstd_frame(noise, 1));
  std::string error;
  for (const char* name : {"noise.bin", "noise.zst"}) {
    auto source = open_ok(dir.file(name));
    ASSERT_FALSE(std::string(name) == "noise.bin" && source->mapped().empty()) << "a regular file is mapped";
    EXPECT_EQ(read_all(*source, error, 1 << 16), noise) << name;
    EXPECT_EQ(error, "");
    EXPECT_LT(resident_kb_of_file(dir.file(name)), 1024) << name << ": its 8 MB were read once";
  }
}

TEST(InputSource, ZstdErrorsAreReported) {
  TempDir dir;
  std::string text = sample_text(3000);
  std::string frame = zstd_frame(text);
  write_file(dir.file("truncated.zst"), frame.substr(0, frame.size() / 2));
  write_file(dir.file("trailing-garbage.zst"), frame + "garbage!");
  write_file(dir.file("empty.zst"), "");
  write_file(dir.file("not-zstd.zst"), "plain text\n");
  for (const char* name : {"truncated.zst", "trailing-garbage.zst", "empty.zst", "not-zstd.zst"}) {
    std::string error;
    auto source = InputSource::open(dir.file(name), error);
    ASSERT_TRUE(source) << name << ": " << error;
    read_all(*source, error);
    EXPECT_NE(error.find(name), std::string::npos) << name << ": " << error;
    EXPECT_NE(error.find("zstd"), std::string::npos) << error;
    if (std::string(name) == "not-zstd.zst") {
      EXPECT_NE(error.find("not zstd data"), std::string::npos) << error;
    }
  }
  // A chunker reports the same error.
  std::string error;
  Chunker chunker(InputSource::open(dir.file("truncated.zst"), error), 1000);
  chunk_lines(chunker, 1000, &error);
  EXPECT_NE(error.find("truncated"), std::string::npos) << error;
}

// The ".zst" name is matched in any case, like every extension (the format under it already was: x.fen.ZST is
// FEN): plain text or nothing under x.ZST is the error it is under x.zst, not read as it is.
TEST(InputSource, ZstdNameIsMatchedInAnyCase) {
  TempDir dir;
  std::string text = sample_text(300);
  write_file(dir.file("packed.fen.ZST"), zstd_frame(text));
  write_file(dir.file("plain.fen.ZST"), "plain text\n");
  write_file(dir.file("plain.Zst"), "plain text\n");
  write_file(dir.file("empty.ZST"), "");
  std::string error;
  EXPECT_EQ(read_all(*open_ok(dir.file("packed.fen.ZST")), error), text);
  EXPECT_EQ(error, "");
  for (const char* name : {"plain.fen.ZST", "plain.Zst", "empty.ZST"}) {
    EXPECT_TRUE(InputSource::is_compressed_file(dir.file(name))) << name;
    std::string read_error;
    read_all(*open_ok(dir.file(name)), read_error);
    EXPECT_NE(read_error.find("zstd"), std::string::npos) << name << ": " << read_error;
  }
}

TEST(InputSource, OpenErrorsNameThePath) {
  TempDir dir;
  std::string error;
  EXPECT_FALSE(InputSource::open(dir.file("missing.fen"), error));
  EXPECT_NE(error.find("missing.fen"), std::string::npos);
  error.clear();
  EXPECT_FALSE(InputSource::open(dir.path(), error));
  EXPECT_NE(error.find("directory"), std::string::npos) << error;
}

TEST(InputSource, EmptyFileAndEmptyPipe) {
  TempDir dir;
  write_file(dir.file("empty.fen"), "");
  auto source = open_ok(dir.file("empty.fen"));
  EXPECT_TRUE(source->mapped().empty());
  std::string error;
  EXPECT_EQ(read_all(*source, error), "");
  EXPECT_TRUE(chunk_lines(open_ok(dir.file("empty.fen")), 64).empty());

  PipeFeeder feeder("");
  StdinRedirect redirect(feeder.release());
  EXPECT_TRUE(chunk_lines(open_ok("-"), 64).empty());
}

TEST(InputSource, FileLargerThan4GiBIsMappedWhole) {
  TempDir dir;
  std::string path = dir.file("sparse.fen");
  const std::uint64_t size = (std::uint64_t{5} << 30) + 7;  // sparse: no disk space used
  int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  ASSERT_GE(fd, 0);
  if (::ftruncate(fd, static_cast<off_t>(size)) != 0) {
    ::close(fd);
    GTEST_SKIP() << "file system does not take a 5 GiB sparse file";
  }
  const std::string tail = "8/8/8/8/8/8/8/K6k w\n";
  const std::uint64_t tail_offset = size - tail.size();
  ASSERT_EQ(::pwrite(fd, tail.data(), tail.size(), static_cast<off_t>(tail_offset)), ssize_t(tail.size()));
  ::close(fd);
  auto source = open_ok(path);
  ASSERT_EQ(source->mapped().size(), size);
  EXPECT_EQ(source->mapped().substr(tail_offset), tail);  // touches only the last pages

  // The same file read by positional reads, as pipeline workers do: offsets past 4 GiB.
  ASSERT_EQ(::truncate(path.c_str(), static_cast<off_t>(size)), 0);
  fd = ::open(path.c_str(), O_WRONLY);
  ASSERT_EQ(::pwrite(fd, "\n", 1, static_cast<off_t>(tail_offset - 1)), 1);
  ::close(fd);
  std::string error;
  std::shared_ptr<InputSource> unmapped = InputSource::open(path, error, InputOptions{.map_files = false});
  ASSERT_TRUE(unmapped) << error;
  ASSERT_EQ(unmapped->positional_size(), size);
  Chunk chunk;
  chunk.source = unmapped;
  chunk.offset = tail_offset - 100000;  // a range large enough to be mapped, not read
  chunk.range_end = size;
  ASSERT_TRUE(fill_range(chunk, error)) << error;
  EXPECT_EQ(chunk.bytes, tail);
  EXPECT_EQ(chunk.offset, tail_offset);
  EXPECT_EQ(chunk.bytes.data() + chunk.bytes.size(), chunk.window.view().data() + chunk.window.view().size());
}

// ---------------------------------------------------------------- chunks and lines

TEST(Chunker, ChunkSizesAndSourcesGiveTheSameLines) {
  TempDir dir;
  std::string text = sample_text(5000) + "\r\nlast line\r";
  text[1000] = '\0';  // NUL bytes inside lines pass through
  std::vector<LineRecord> expected = naive_lines(text);
  ASSERT_GT(expected.size(), 5000u);
  write_file(dir.file("in.fen"), text);
  write_file(dir.file("in.fen.zst"), zstd_frame(text));

  const std::size_t chunk_sizes[] = {1, 7, 64, std::size_t{1} << 20, kDefaultChunkSize};
  for (std::size_t chunk_size : chunk_sizes) {
    SCOPED_TRACE("chunk size " + std::to_string(chunk_size));
    EXPECT_EQ(chunk_lines(InputSource::from_memory(text, "memory"), chunk_size), expected);
    EXPECT_EQ(chunk_lines(open_ok(dir.file("in.fen")), chunk_size), expected);
    EXPECT_EQ(chunk_lines(open_ok(dir.file("in.fen.zst")), chunk_size), expected);
    std::string error;
    auto unmapped = InputSource::open(dir.file("in.fen"), error, InputOptions{.map_files = false});
    ASSERT_TRUE(unmapped) << error;
    EXPECT_TRUE(unmapped->mapped().empty());
    EXPECT_EQ(chunk_lines(std::move(unmapped), chunk_size), expected);
    PipeFeeder feeder(text, 333);
    EXPECT_EQ(chunk_lines(std::make_unique<FdReader>(feeder.release(), true, "pipe"), chunk_size), expected);
  }
}

TEST(Chunker, ChunksEndAtTheLastNewlineThatFits) {
  std::string text = "aaaa\nbb\ncccccc\nd\n";
  Chunker chunker(InputSource::from_memory(text, "m"), 10);
  Chunk chunk;
  std::string error;
  std::vector<std::string> chunks;
  while (chunker.next(chunk, error)) chunks.emplace_back(chunk.bytes);
  EXPECT_EQ(chunks, (std::vector<std::string>{"aaaa\nbb\n", "cccccc\nd\n"}));
}

TEST(Chunker, MappedChunksAreZeroCopy) {
  TempDir dir;
  std::string text = sample_text(100);
  write_file(dir.file("in.fen"), text);
  std::shared_ptr<InputSource> source = open_ok(dir.file("in.fen"));
  std::string_view mapping = source->mapped();
  Chunker chunker(source, 256);
  Chunk chunk;
  std::string error;
  ASSERT_TRUE(chunker.next(chunk, error));
  EXPECT_EQ(chunk.bytes.data(), mapping.data());
  ASSERT_TRUE(chunker.next(chunk, error));
  EXPECT_GT(chunk.bytes.data(), mapping.data());
  EXPECT_LT(chunk.bytes.data(), mapping.data() + mapping.size());
}

TEST(Chunker, LineLongerThanChunkSizeIsOneChunk) {
  std::string long_line(300000, 'x');
  std::string text = "short\n" + long_line + "\nafter\n" + long_line;  // the last one has no newline
  for (bool streamed : {false, true}) {
    SCOPED_TRACE(streamed ? "streamed" : "mapped");
    std::unique_ptr<PipeFeeder> feeder;
    Chunker chunker(streamed_or_mapped(text, streamed, 4096, feeder), 64);
    Chunk chunk;
    std::string error;
    std::vector<std::string> chunks;
    while (chunker.next(chunk, error)) chunks.emplace_back(chunk.bytes);
    EXPECT_EQ(error, "");
    EXPECT_EQ(chunks, (std::vector<std::string>{"short\n", long_line + "\n", "after\n", long_line}));
  }
}

TEST(Chunker, AStreamedLineLongerThanMaxLineIsCutAndReadPast) {
  // With max_line 10, a longer line that starts a chunk keeps its first 11 bytes (enough to be seen too long);
  // the rest is read past to its '\n' and dropped (skipped), and long_line_bytes is its length without "\r\n".
  const std::string text = "ab\n" + std::string(30, 'x') + "\r\ncd\n" + std::string(25, 'y');
  for (std::size_t piece : {1, 7, 4096}) {
    for (std::size_t chunk_size : {1, 4}) {
      SCOPED_TRACE("piece " + std::to_string(piece) + ", chunk size " + std::to_string(chunk_size));
      PipeFeeder feeder(text, piece);
      Chunker chunker(std::make_unique<FdReader>(feeder.release(), true, "pipe"), chunk_size, 0, 10);
      Chunk chunk;
      std::string error;
      std::vector<std::string> seen;
      std::uint64_t offset = 0;
      while (chunker.next(chunk, error)) {
        EXPECT_EQ(chunk.offset, offset);
        offset += chunk.bytes.size() + chunk.skipped;
        seen.push_back(std::string(chunk.bytes) + "|" + std::to_string(chunk.skipped) + "|" +
                       std::to_string(chunk.long_line_bytes));
      }
      EXPECT_EQ(error, "");
      EXPECT_EQ(offset, text.size());
      std::string joined;
      for (const std::string& s : seen) joined += s + " ";
      EXPECT_EQ(joined, "ab\n|0|0 " + std::string(11, 'x') +
                            "|21|30 cd\n|0|0 " + std::string(11, 'y') + "|14|25 ");
    }
  }
}

TEST(Chunker, ALineLongerThanMaxLineIsSplitIntoPiecesMappedOrStreamed) {
  // With split, a longer line goes out in pieces of max_line bytes (the chunk ends inside the line), nothing dropped.
  const std::string text = "ab\n" + std::string(30, 'x') + "\r\ncd\n" + std::string(25, 'y');
  for (bool streamed : {false, true}) {
    for (std::size_t chunk_size : {1, 4, 12}) {
      SCOPED_TRACE(std::string(streamed ? "streamed" : "mapped") + ", chunk size " + std::to_string(chunk_size));
      std::unique_ptr<PipeFeeder> feeder;
      Chunker chunker(streamed_or_mapped(text, streamed, 7, feeder), chunk_size, 0, 10, true);
      Chunk chunk;
      std::string error, joined;
      std::uint64_t offset = 0;
      while (chunker.next(chunk, error)) {
        EXPECT_EQ(chunk.offset, offset);
        EXPECT_EQ(chunk.skipped, 0u);
        EXPECT_LE(chunk.bytes.size(), std::max<std::size_t>(chunk_size, 10) + 1);
        offset += chunk.bytes.size();
        joined += std::string(chunk.bytes);
      }
      EXPECT_EQ(error, "");
      EXPECT_EQ(joined, text);
    }
  }
}

TEST(Chunker, NoTrailingNewlineCrlfAndNul) {
  static const char kText[] = "a\r\nb\r\r\n\r\nc\0d\nlast";
  std::string text(kText, sizeof kText - 1);
  std::vector<LineRecord> expected = {
      {"a", 1, 0}, {"b\r", 2, 3}, {"", 3, 7}, {std::string("c\0d", 3), 4, 9}, {"last", 5, 13}};
  for (std::size_t chunk_size : {1, 4, 100}) {
    EXPECT_EQ(chunk_lines(InputSource::from_memory(text, "m"), chunk_size), expected) << chunk_size;
  }
}

TEST(Chunker, ByteOrderMarkIsSkippedButCounted) {
  const std::string bom = "\xEF\xBB\xBF";
  std::string text = bom + "first\nsecond " + bom + "\n";
  std::vector<LineRecord> expected = {{"first", 1, 3}, {"second " + bom, 2, 9}};
  EXPECT_EQ(naive_lines(text), expected);
  for (std::size_t chunk_size : {1, 2, 64}) {
    EXPECT_EQ(chunk_lines(InputSource::from_memory(text, "m"), chunk_size), expected);
    PipeFeeder feeder(text, 1);  // the BOM arrives one byte at a time
    EXPECT_EQ(chunk_lines(std::make_unique<FdReader>(feeder.release(), true, "pipe"), chunk_size), expected);
  }
  Chunker chunker(InputSource::from_memory(text, "m"), 64);
  Chunk chunk;
  std::string error;
  ASSERT_TRUE(chunker.next(chunk, error));
  EXPECT_EQ(chunk.offset, 3u);
  EXPECT_EQ(chunk.bytes.substr(0, 5), "first");

  EXPECT_TRUE(chunk_lines(InputSource::from_memory(bom, "m"), 64).empty());
  EXPECT_EQ(chunk_lines(InputSource::from_memory("\xEF\xBB", "m"), 64), (std::vector<LineRecord>{{"\xEF\xBB", 1, 0}}));
}

// A UTF-16 file (PowerShell's `>` writes one) is an error naming it, whichever way it is read: mapped, streamed,
// as a worker's range. Read as it was, every record was rejected as BAD_PIECE at column 1.
TEST(Chunker, Utf16InputIsAnError) {
  TempDir dir;
  for (std::string mark : {std::string("\xFF\xFE"), std::string("\xFE\xFF")}) {
    std::string text = mark + std::string("8\0/\08\0\n\0", 9);
    for (std::size_t chunk_size : {1, 64}) {
      std::string error;
      Chunker mapped(InputSource::from_memory(text, "m16"), chunk_size);
      Chunk chunk;
      EXPECT_FALSE(mapped.next(chunk, error));
      EXPECT_NE(error.find("m16: UTF-16 text"), std::string::npos) << error;
      PipeFeeder feeder(text, 1);
      Chunker streamed(std::make_unique<FdReader>(feeder.release(), true, "p16"), chunk_size);
      EXPECT_FALSE(streamed.next(chunk, error));
      EXPECT_NE(error.find("p16: UTF-16 text"), std::string::npos) << error;
    }
    write_file(dir.file("f16.fen"), text);
    std::string error;
    std::shared_ptr<InputSource> file = InputSource::open(dir.file("f16.fen"), error, InputOptions{.map_files = false});
    ASSERT_TRUE(file) << error;
    Chunk chunk;
    chunk.source = file;
    chunk.offset = 0;
    chunk.range_end = 1;
    EXPECT_FALSE(fill_range(chunk, error));
    EXPECT_NE(error.find("f16.fen: UTF-16 text"), std::string::npos) << error;
  }
  // Only at the start: the same bytes later in a line are the line's.
  EXPECT_EQ(chunk_lines(InputSource::from_memory("a\n\xFF\xFE\n", "m"), 64),
            (std::vector<LineRecord>{{"a", 1, 0}, {"\xFF\xFE", 2, 2}}));
}

TEST(Chunker, ChunksStayValidWhenMovedAndReuseStorage) {
  std::string text = sample_text(2000);
  PipeFeeder feeder(text, 4096);
  Chunker chunker(std::make_unique<FdReader>(feeder.release(), true, "pipe"), 1024);
  std::vector<Chunk> chunks;
  std::string error;
  for (;;) {
    Chunk chunk;
    if (!chunker.next(chunk, error)) break;
    chunks.push_back(std::move(chunk));  // vector growth moves them again
  }
  ASSERT_GT(chunks.size(), 10u);
  std::string joined;
  for (const Chunk& c : chunks) joined.append(c.bytes);
  EXPECT_EQ(joined, text);

  // Handing the same chunk back keeps its buffer once it is big enough.
  PipeFeeder feeder2(text, 4096);
  Chunker again(std::make_unique<FdReader>(feeder2.release(), true, "pipe"), 1024);
  Chunk reused;
  ASSERT_TRUE(again.next(reused, error));
  ASSERT_TRUE(again.next(reused, error));
  const char* storage = reused.storage.data();
  std::size_t same = 0, total = 0;
  while (again.next(reused, error)) {
    ++total;
    same += reused.storage.data() == storage;
  }
  EXPECT_GT(same, total * 9 / 10);
}

TEST(LineReader, IteratesLinesWithNumbersAndOffsets) {
  LineReader reader("x\n\nyz\r\n", 41, 1000);
  Line line;
  std::vector<LineRecord> got;
  while (reader.next(line)) got.push_back({std::string(line.text), line.number, line.offset});
  EXPECT_EQ(got, (std::vector<LineRecord>{{"x", 41, 1000}, {"", 42, 1002}, {"yz", 43, 1003}}));
  LineReader empty("", 1, 0);
  EXPECT_FALSE(empty.next(line));
}

TEST(MultiChunker, InputsInOrderWithLineNumbersPerInput) {
  TempDir dir;
  std::string a = sample_text(300, 1);
  std::string b = "no newline at the end";
  std::string c = "\xEF\xBB\xBF" + sample_text(200, 3);
  write_file(dir.file("a.fen"), a);
  write_file(dir.file("empty.fen"), "");
  write_file(dir.file("b.fen"), b);
  write_file(dir.file("c.fen.zst"), zstd_frame(c));
  std::vector<std::string> paths = {dir.file("a.fen"), dir.file("empty.fen"), dir.file("b.fen"),
                                    dir.file("c.fen.zst"), dir.file("a.fen")};
  std::vector<std::string> texts = {a, "", b, c, a};

  for (std::size_t chunk_size : {std::size_t{1}, std::size_t{700}, kDefaultChunkSize}) {
    MultiChunker chunker(paths, chunk_size);
    EXPECT_EQ(chunker.input_count(), 5u);
    std::vector<std::vector<LineRecord>> per_input(paths.size());
    Chunk chunk;
    std::string error;
    std::uint64_t sequence = 0;
    std::uint32_t last_index = 0;
    std::vector<std::shared_ptr<const InputSource>> sources_seen;
    while (chunker.next(chunk, error)) {
      EXPECT_EQ(chunk.sequence, sequence++);
      EXPECT_GE(chunk.source_index, last_index);
      last_index = chunk.source_index;
      EXPECT_EQ(chunk.source_name, paths[chunk.source_index]);
      std::vector<LineRecord>& seen = per_input[chunk.source_index];
      EXPECT_EQ(chunk.starts_input, seen.empty());
      LineReader reader(chunk.bytes, seen.size() + 1, chunk.offset);
      Line line;
      while (reader.next(line)) seen.push_back({std::string(line.text), line.number, line.offset});
    }
    EXPECT_EQ(error, "");
    for (std::size_t i = 0; i < paths.size(); ++i)
      EXPECT_EQ(per_input[i], naive_lines(texts[i])) << "input " << i << " chunk size " << chunk_size;
  }
}

TEST(MultiChunker, MappedChunkOutlivesTheChunkerMovingOn) {
  TempDir dir;
  write_file(dir.file("a.fen"), "first file\n");
  write_file(dir.file("b.fen"), "second file\n");
  MultiChunker chunker({dir.file("a.fen"), dir.file("b.fen")});
  Chunk first, second;
  std::string error;
  ASSERT_TRUE(chunker.next(first, error));
  ASSERT_TRUE(chunker.next(second, error));  // the chunker has dropped input 0 by now
  EXPECT_FALSE(chunker.next(second, error));
  EXPECT_EQ(first.bytes, "first file\n");
  EXPECT_EQ(first.source_name, dir.file("a.fen"));
}

TEST(MultiChunker, MissingInputIsReportedThenSkipped) {
  TempDir dir;
  write_file(dir.file("a.fen"), "a1\na2\n");
  write_file(dir.file("c.fen"), "c1\n");
  MultiChunker chunker({dir.file("a.fen"), dir.file("missing.fen"), dir.file("c.fen")}, 64);
  Chunk chunk;
  std::string error;
  ASSERT_TRUE(chunker.next(chunk, error));
  EXPECT_EQ(chunk.bytes, "a1\na2\n");
  EXPECT_FALSE(chunker.next(chunk, error));
  EXPECT_NE(error.find("missing.fen"), std::string::npos) << error;
  error.clear();
  ASSERT_TRUE(chunker.next(chunk, error));
  EXPECT_EQ(chunk.bytes, "c1\n");
  EXPECT_EQ(chunk.source_index, 2u);
  EXPECT_TRUE(chunk.starts_input);
  EXPECT_FALSE(chunker.next(chunk, error));
  EXPECT_EQ(error, "");
}

// ---------------------------------------------------------------- atomic output

bool has_temp_file(const TempDir& dir) {
  for (const std::string& name : dir.entries())
    if (name.find(".fenmill-") != std::string::npos) return true;
  return false;
}

TEST(AtomicOutput, NothingUnderTheFinalNameBeforeCommit) {
  TempDir dir;
  std::string target = dir.file("out.fen");
  std::string error;
  auto out = AtomicOutput::open(target, false, error);
  ASSERT_TRUE(out) << error;
  EXPECT_FALSE(out->is_stream());
  EXPECT_FALSE(out->is_terminal());
  EXPECT_EQ(out->temp_path().rfind(dir.file(".out.fen.fenmill-"), 0), 0u) << out->temp_path();
  std::string big(3 * AtomicOutput::kBufferSize + 11, 'q');  // bigger than the buffer: written directly
  EXPECT_TRUE(out->write("hello\n"));
  EXPECT_TRUE(out->write(big));
  for (int i = 0; i < 100000; ++i) EXPECT_TRUE(out->write("0123456789"));
  EXPECT_FALSE(fs::exists(target));
  EXPECT_TRUE(fs::exists(out->temp_path()));
  ASSERT_TRUE(out->commit(error)) << error;
  EXPECT_EQ(dir.entries(), std::vector<std::string>{"out.fen"});
  std::string expected = "hello\n" + big;
  for (int i = 0; i < 100000; ++i) expected += "0123456789";
  EXPECT_EQ(read_file(target), expected);
  std::string again;
  EXPECT_FALSE(out->commit(again));
  EXPECT_FALSE(out->write("late"));  // not silently dropped
  EXPECT_NE(out->error().find("after commit"), std::string::npos) << out->error();

  // Permissions as a plain create would give, not mkstemp's 0600.
  mode_t mask = ::umask(022);
  ::umask(mask);
  EXPECT_EQ(fs::status(target).permissions(), fs::perms((0666 & ~mask)));
}

TEST(AtomicOutput, AbandonedOutputLeavesNothing) {
  TempDir dir;
  std::string error;
  {
    auto out = AtomicOutput::open(dir.file("dropped.fen"), false, error);
    ASSERT_TRUE(out) << error;
    out->write("partial");
    EXPECT_TRUE(has_temp_file(dir));
  }
  EXPECT_TRUE(dir.entries().empty());
  auto out = AtomicOutput::open(dir.file("dropped.fen"), false, error);
  ASSERT_TRUE(out) << error;
  out->abandon();
  EXPECT_TRUE(dir.entries().empty());
  EXPECT_FALSE(out->commit(error));
}

TEST(AtomicOutput, RefusesAnExistingTargetUnlessForced) {
  TempDir dir;
  std::string target = dir.file("existing.fen");
  write_file(target, "old\n");
  ::chmod(target.c_str(), 0640);
  std::string error;
  EXPECT_FALSE(AtomicOutput::open(target, false, error));
  EXPECT_NE(error.find("already exists"), std::string::npos) << error;
  EXPECT_EQ(read_file(target), "old\n");
  EXPECT_EQ(dir.entries(), std::vector<std::string>{"existing.fen"});

  error.clear();
  auto out = AtomicOutput::open(target, true, error);
  ASSERT_TRUE(out) << error;
  out->write("new\n");
  EXPECT_EQ(read_file(target), "old\n");  // untouched until commit
  ASSERT_TRUE(out->commit(error)) << error;
  EXPECT_EQ(read_file(target), "new\n");
  EXPECT_EQ(fs::status(target).permissions(), fs::perms(0640));
  EXPECT_EQ(dir.entries(), std::vector<std::string>{"existing.fen"});

  EXPECT_FALSE(AtomicOutput::open(dir.path(), true, error));  // a directory is never replaced

  // A setuid/setgid file's replacement keeps its permissions, not those bits (a program file overwritten by
  // mistake must not become a setuid data file).
  ::chmod(target.c_str(), 06755);
  out = AtomicOutput::open(target, true, error);
  ASSERT_TRUE(out) << error;
  out->write("newer\n");
  ASSERT_TRUE(out->commit(error)) << error;
  EXPECT_EQ(read_file(target), "newer\n");
  EXPECT_EQ(fs::status(target).permissions(), fs::perms(0755));
}

TEST(AtomicOutput, TargetCreatedMeanwhileIsNotOverwritten) {
  TempDir dir;
  std::string target = dir.file("race.fen");
  std::string error;
  auto out = AtomicOutput::open(target, false, error);
  ASSERT_TRUE(out) << error;
  out->write("mine\n");
  write_file(target, "theirs\n");
  EXPECT_FALSE(out->commit(error));
  EXPECT_NE(error.find("already exists"), std::string::npos) << error;
  out.reset();
  EXPECT_EQ(read_file(target), "theirs\n");
  EXPECT_EQ(dir.entries(), std::vector<std::string>{"race.fen"});
}

// A run prepares all its outputs before renaming any: a target that appeared meanwhile fails at prepare(), so
// the outputs before it in the list are not published either (helper-29: -o and --rejects were in place when
// --summary's rename failed, with exit 2).
TEST(AtomicOutput, TargetCreatedMeanwhileFailsAtPrepare) {
  TempDir dir;
  std::string error;
  auto first = AtomicOutput::open(dir.file("out.fen"), false, error);
  auto second = AtomicOutput::open(dir.file("s.json"), false, error);
  ASSERT_TRUE(first && second) << error;
  first->write("positions\n");
  second->write("{}\n");
  write_file(dir.file("s.json"), "theirs\n");
  EXPECT_TRUE(first->prepare(error)) << error;
  EXPECT_FALSE(second->prepare(error));
  EXPECT_NE(error.find("s.json: already exists"), std::string::npos) << error;
  first.reset();  // not committed: abandoned
  second.reset();
  EXPECT_EQ(dir.entries(), std::vector<std::string>{"s.json"});
  EXPECT_EQ(read_file(dir.file("s.json")), "theirs\n");
}

TEST(AtomicOutput, RelativeTargetInTheCurrentDirectory) {
  TempDir dir;
  fs::path previous = fs::current_path();
  fs::current_path(dir.path());
  std::string error;
  auto out = AtomicOutput::open("relative.fen", false, error);
  ASSERT_TRUE(out) << error;
  EXPECT_EQ(out->temp_path().rfind(".relative.fen.fenmill-", 0), 0u) << out->temp_path();
  out->write("x\n");
  EXPECT_TRUE(out->commit(error)) << error;
  fs::current_path(previous);
  EXPECT_EQ(read_file(dir.file("relative.fen")), "x\n");
}

TEST(AtomicOutput, StdoutTarget) {
  std::string error;
  auto out = AtomicOutput::open("-", false, error);
  ASSERT_TRUE(out) << error;
  EXPECT_TRUE(out->is_stream());
  EXPECT_TRUE(out->temp_path().empty());
  EXPECT_EQ(out->is_terminal(), ::isatty(1) == 1);
  EXPECT_TRUE(out->commit(error)) << error;  // nothing written: nothing shows
}

// A target that exists but is not a regular file is written in place: replacing /dev/null (or a FIFO) with
// a renamed temp file would break it for everyone (a root user's `-o /dev/null --force` once did).
TEST(AtomicOutput, DeviceTargetIsWrittenInPlace) {
  for (bool force : {false, true}) {
    std::string error;
    auto out = AtomicOutput::open("/dev/null", force, error);
    ASSERT_TRUE(out) << error;
    EXPECT_TRUE(out->is_stream());
    EXPECT_TRUE(out->temp_path().empty());
    EXPECT_TRUE(out->write(std::string(3 * AtomicOutput::kBufferSize, 'x')));
    EXPECT_TRUE(out->commit(error)) << error;
    struct stat st;
    ASSERT_EQ(::stat("/dev/null", &st), 0);
    EXPECT_TRUE(S_ISCHR(st.st_mode)) << "/dev/null is still the device";
  }
}

// Standard output handed over non-blocking (as some process spawners leave it) into a pipe read slowly: write()
// says EAGAIN whenever the pipe is full, which used to fail the run with "Resource temporarily unavailable".
TEST(AtomicOutput, NonBlockingStdoutIsWaitedForNotAnError) {
  int fds[2];
  ASSERT_EQ(::pipe(fds), 0);
  const std::string sent = sample_text(20000);  // well past a pipe's 64 KiB
  pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    ::close(fds[0]);
    if (::dup2(fds[1], STDOUT_FILENO) < 0 || ::fcntl(1, F_SETFL, ::fcntl(1, F_GETFL) | O_NONBLOCK) != 0) ::_exit(10);
    std::string error;
    auto out = AtomicOutput::open("-", false, error);
    if (!out || !out->write(sent) || !out->commit(error)) ::_exit(11);
    ::_exit(0);
  }
  ::close(fds[1]);
  std::this_thread::sleep_for(std::chrono::milliseconds(100));  // the writer finds the pipe full first
  std::string received;
  char buf[4096];
  for (ssize_t n; (n = ::read(fds[0], buf, sizeof buf)) > 0;) received.append(buf, static_cast<std::size_t>(n));
  ::close(fds[0]);
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0) << "10: setup, 11: the write failed";
  EXPECT_TRUE(received == sent) << received.size() << " bytes of " << sent.size();
}

TEST(AtomicOutput, FifoTargetIsWrittenInPlace) {
  TempDir dir;
  std::string fifo = dir.file("pipe");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  std::string received;
  std::thread reader([&] { received = read_file(fifo); });  // opening for writing waits for this reader
  std::string sent = "hello\n" + std::string(2 * AtomicOutput::kBufferSize + 5, 'p');
  {
    std::string error;
    auto out = AtomicOutput::open(fifo, false, error);
    ASSERT_TRUE(out) << error;
    EXPECT_TRUE(out->is_stream());
    EXPECT_TRUE(out->write(sent));
    EXPECT_TRUE(out->commit(error)) << error;
  }  // closed: the reader sees the end
  reader.join();
  EXPECT_TRUE(received == sent);
  struct stat st;
  ASSERT_EQ(::lstat(fifo.c_str(), &st), 0);
  EXPECT_TRUE(S_ISFIFO(st.st_mode));
  EXPECT_EQ(dir.entries(), std::vector<std::string>{"pipe"});
}

// Every signal that ends a run by default: the temp file goes, and the signal still ends the process.
TEST(AtomicOutput, TempFileRemovedOnTerminatingSignals) {
  std::vector<int> signals = {SIGTERM, SIGINT, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM, SIGXFSZ};
#if !FENMILL_ADDRESS_SANITIZER  // ASan handles SIGBUS itself (reports and exits 1): fenmill's cleanup never runs
  signals.push_back(SIGBUS);
#endif
  for (int sig : signals) {
    SCOPED_TRACE(sig);
    TempDir dir;
    std::string target = dir.file("killed.fen");
    pid_t child = ::fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
      std::string error;
      auto out = AtomicOutput::open(target, false, error);
      if (!out) ::_exit(3);
      out->write(std::string(AtomicOutput::kBufferSize * 2, 'z'));
      if (::access(out->temp_path().c_str(), F_OK) != 0) ::_exit(4);
      ::raise(sig);
      ::_exit(5);  // not reached: the signal must still end the process
    }
    int status = 0;
    ASSERT_EQ(::waitpid(child, &status, 0), child);
    ASSERT_TRUE(WIFSIGNALED(status)) << "child exited with " << WEXITSTATUS(status);
    EXPECT_EQ(WTERMSIG(status), sig);
    EXPECT_TRUE(dir.entries().empty());
  }
}

// /dev/fd/N (like /dev/stderr) is a descriptor, perhaps on a regular file: written through, with --force too,
// never replaced by a rename (as root that replaced the /dev/stderr symlink).
TEST(AtomicOutput, DescriptorNameIsWrittenThrough) {
  TempDir dir;
  int fd = ::open(dir.file("log").c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  ASSERT_GE(fd, 0);
  std::string error;
  auto out = AtomicOutput::open("/dev/fd/" + std::to_string(fd), true, error);
  ASSERT_TRUE(out) << error;
  EXPECT_TRUE(out->is_stream());
  out->write("through the descriptor\n");
  EXPECT_TRUE(out->commit(error)) << error;
  out.reset();
  ::close(fd);
  EXPECT_EQ(read_file(dir.file("log")), "through the descriptor\n");
}

// A name near the file system's limit still gets a temp file (a shorter one) and lands under its own name.
TEST(AtomicOutput, LongTargetNameGetsAShorterTempName) {
  TempDir dir;
  std::string target = dir.file(std::string(250, 'a') + ".fen");
  std::string error;
  auto out = AtomicOutput::open(target, false, error);
  ASSERT_TRUE(out) << error;
  out->write("x\n");
  ASSERT_TRUE(out->commit(error)) << error;
  EXPECT_EQ(read_file(target), "x\n");
}


// A regular file that cannot be mapped (as on some file systems): range chunks are read with pread instead.
class UnmappableFile final : public InputSource {
 public:
  explicit UnmappableFile(std::shared_ptr<InputSource> file) : InputSource(file->name()), file_(std::move(file)) {}
  std::size_t read(char* dst, std::size_t max_bytes, std::string& error) override { return file_->read(dst, max_bytes, error); }
  std::uint64_t positional_size() const override { return file_->positional_size(); }
  std::size_t read_at(char* dst, std::size_t n, std::uint64_t offset, std::string& error) const override {
    return file_->read_at(dst, n, offset, error);
  }

 private:
  std::shared_ptr<InputSource> file_;
};

// Range chunks, read by the workers themselves: whatever the range size, every line lands in exactly one
// chunk, whole and in order, a BOM is skipped, and the lines add up (including a last line without '\n',
// lines far longer than a range, empty lines and CRLF). Both ways: mapped windows, and pread where a file
// cannot be mapped.
TEST(RangeFill, EveryLineOnceWholeAndInOrderForAnyRangeSize) {
  TempDir dir;
  std::mt19937 rng(11);
  for (int round = 0; round < 40; ++round) {
    std::string text = round % 3 == 0 ? "\xEF\xBB\xBF" : "";
    std::size_t lines = 0;
    for (int i = static_cast<int>(rng() % 30); i >= 0; --i, ++lines) {
      std::size_t length = rng() % 4 == 0 ? rng() % 20000 : rng() % 70;  // some lines longer than 4 KiB
      for (std::size_t k = 0; k < length; ++k) text.push_back(static_cast<char>('a' + rng() % 26));
      text += rng() % 5 == 0 ? "\r\n" : "\n";
    }
    if (round % 2 == 1) {  // no newline at the end
      text += "tail";
      ++lines;
    }
    std::string path = dir.file("r.fen");
    write_file(path, text);
    std::string error;
    std::shared_ptr<InputSource> file = InputSource::open(path, error, InputOptions{.map_files = false});
    ASSERT_TRUE(file) << error;
    ASSERT_EQ(file->positional_size(), text.size());
    std::string expected = text.substr(text.rfind("\xEF\xBB\xBF", 0) == 0 ? 3 : 0);
    for (std::shared_ptr<InputSource> source : {file, std::shared_ptr<InputSource>(std::make_shared<UnmappableFile>(file))})
    for (std::size_t range : {std::size_t{1}, std::size_t{2}, std::size_t{3}, std::size_t{7}, std::size_t{64},
                              std::size_t{5000}, std::size_t{70000}, std::size_t{1} << 20}) {
      std::string joined;
      std::uint64_t counted = 0, previous_end = 0;
      for (std::uint64_t at = 0; at < text.size(); at += range) {
        Chunk chunk;
        chunk.source = source;
        chunk.offset = at;
        chunk.range_end = std::min<std::uint64_t>(at + range, text.size());
        ASSERT_TRUE(fill_range(chunk, error)) << error;
        if (chunk.bytes.empty()) continue;
        // The lines are where they were meant to be read to: in the mapped window (ranges of 64 KiB or more of a
        // file that can be mapped), else in the buffer.
        const bool mapped = source == file && chunk.range_end - std::max<std::uint64_t>(at, 1) + 1 >= (64 << 10);
        std::string_view held = mapped ? chunk.window.view() : chunk.storage.view();
        EXPECT_TRUE(chunk.bytes.data() >= held.data() && chunk.bytes.data() + chunk.bytes.size() <= held.data() + held.size());
        EXPECT_EQ(chunk.offset, previous_end == 0 && joined.empty() ? text.size() - expected.size() : previous_end);
        EXPECT_GE(chunk.offset, at);
        if (at > 0) {
          EXPECT_LT(chunk.offset, chunk.range_end);  // (the first range's line may start after a BOM)
        }
        joined += chunk.bytes;
        counted += for_each_line(chunk.bytes, [](std::string_view) {});
        previous_end = chunk.offset + chunk.bytes.size();
      }
      ASSERT_EQ(joined, expected) << "range " << range << " round " << round << (source == file ? " mappable" : " read");
      EXPECT_EQ(counted, lines) << "range " << range;
    }
  }
}


// A file that shrank after it was opened is read, not mapped: touching mapped pages past its new end would
// raise SIGBUS and end the run. (Only a shrink between this check and the mapping still can.) A read that
// comes up short of the size seen at opening is an error, not the end of the input: the run would otherwise
// publish a partial output with exit 0 (helper-29). Ranges wholly inside what is left still read.
TEST(RangeFill, FileShrunkSinceOpenedIsAnErrorNotAnEarlyEnd) {
  TempDir dir;
  std::string text;
  while (text.size() < 200000) text += "8/8/8/8/8/8/8/K6k w - - 0 1\n";
  const std::string path = dir.file("shrinks.fen");
  write_file(path, text);
  std::string error;
  std::shared_ptr<InputSource> file = InputSource::open(path, error, InputOptions{.map_files = false});
  ASSERT_TRUE(file) << error;
  ASSERT_EQ(::truncate(path.c_str(), 100000), 0);
  // {offset, range_end}: a mappable range (>= 64 KiB) and a read one (the last of a file, or a small chunk size).
  for (auto [offset, range_end] : {std::pair<std::uint64_t, std::uint64_t>{0, 150000}, {98000, 104000}}) {
    Chunk chunk;
    chunk.source = file;
    chunk.offset = offset;
    chunk.range_end = range_end;
    error.clear();
    EXPECT_FALSE(fill_range(chunk, error)) << offset;
    EXPECT_NE(error.find("shrinks.fen: the file shrank while it was being read"), std::string::npos) << error;
    EXPECT_TRUE(chunk.window.view().empty());
  }
  Chunk inside;
  inside.source = file;
  inside.offset = 0;
  inside.range_end = 50000;
  error.clear();
  ASSERT_TRUE(fill_range(inside, error)) << error;
  EXPECT_EQ(inside.bytes, text.substr(0, text.find('\n', 49999) + 1));
}

// Standard input redirected from a regular file (`- < f`) gets the same check, counted from the offset it was
// handed over at (helper-31: it published a partial output with exit 0). Run in a child, which owns its stdin.
TEST(FdReader, StdinFromAFileThatShrinksIsAnError) {
  TempDir dir;
  const std::string path = dir.file("stdin.fen");
  write_file(path, std::string(300000, 'x'));
  pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    int fd = ::open(path.c_str(), O_RDONLY);
    if (fd < 0 || ::dup2(fd, STDIN_FILENO) < 0 || ::lseek(STDIN_FILENO, 1000, SEEK_SET) != 1000) ::_exit(10);
    std::string error;
    std::shared_ptr<InputSource> in = InputSource::open("-", error, InputOptions{.map_files = false});
    if (!in || in->positional_size() != 0) ::_exit(11);  // read in order, never by ranges
    std::vector<char> buf(50000);
    std::size_t total = 0;
    while (total < 100000) total += in->read(buf.data(), buf.size(), error);
    if (!error.empty() || ::truncate(path.c_str(), 150000) != 0) ::_exit(12);
    while (std::size_t got = in->read(buf.data(), buf.size(), error)) total += got;
    if (total != 149000) ::_exit(13);
    ::_exit(error.find("<stdin>: the file shrank while it was being read") != std::string::npos ? 0 : 14);
  }
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0) << "10: setup, 11: ranges, 12: first reads, 13: bytes read, 14: no error";
}

// A non-blocking stdin (as some process spawners leave it, e.g. node's child_process) fed by a slow writer: read()
// says EAGAIN whenever the pipe is empty, which used to end the input with "Resource temporarily unavailable".
// Plain and zstd bytes: the open's 4-byte peek, the sniff and the decompressor's reads all wait for the writer.
TEST(FdReader, NonBlockingPipeIsWaitedForNotAnError) {
  const std::string text = sample_text(200);
  for (const std::string& bytes : {text, zstd_frame(text)}) {
    int fds[2];
    ASSERT_EQ(::pipe(fds), 0);
    ASSERT_EQ(::fcntl(fds[0], F_SETFL, ::fcntl(fds[0], F_GETFL) | O_NONBLOCK), 0);
    std::thread writer([fd = fds[1], &bytes] {
      for (std::size_t pos = 0; pos < bytes.size(); pos += 1000) {
        std::this_thread::sleep_for(std::chrono::milliseconds(20));  // the reader finds the pipe empty first
        if (::write(fd, bytes.data() + pos, std::min<std::size_t>(1000, bytes.size() - pos)) <= 0) break;
      }
      ::close(fd);
    });
    std::string error, got;
    {
      StdinRedirect redirect(fds[0]);
      std::unique_ptr<InputSource> in = InputSource::open("-", error);
      if (in) got = read_all(*in, error);
    }
    writer.join();
    EXPECT_EQ(error, "");
    EXPECT_TRUE(got == text) << got.size() << " bytes of " << text.size();
  }
}

// A sysfs file says 4096 bytes and holds a few: its size is not trusted (no ranges, no shrink check), so it reads
// to its end without "the file shrank" (helper-30).
TEST(FdReader, PseudoFileSizeIsNotTrusted) {
  const std::string path = "/sys/kernel/mm/transparent_hugepage/enabled";
  struct stat st;
  if (::stat(path.c_str(), &st) != 0 || st.st_size == 0) GTEST_SKIP() << "no sysfs file with a stated size here";
  std::string error;
  std::shared_ptr<InputSource> file = InputSource::open(path, error, InputOptions{.map_files = false});
  ASSERT_TRUE(file) << error;
  EXPECT_EQ(file->positional_size(), 0u);
  std::vector<char> buf(8192);
  std::size_t total = 0;
  while (std::size_t got = file->read(buf.data(), buf.size(), error)) total += got;
  EXPECT_EQ(error, "");
  EXPECT_GT(total, 0u);
  EXPECT_LT(total, static_cast<std::size_t>(st.st_size));
}

// A file appended to after it was opened is read by ranges as it was then, mapped or read: the bytes added
// would otherwise make the last line depend on the range (chunk) sizes.
TEST(RangeFill, FileGrownSinceOpenedIsReadAsItWas) {
  TempDir dir;
  std::string text;
  while (text.size() < 100000) text += "8/8/8/8/8/8/8/K6k w - - 0 1\n";
  text += "8/8/8";  // a line being written
  const std::string path = dir.file("grows.fen");
  write_file(path, text);
  std::string error;
  std::shared_ptr<InputSource> file = InputSource::open(path, error, InputOptions{.map_files = false});
  ASSERT_TRUE(file) << error;
  std::ofstream(path, std::ios::app) << "/8/8/8/8/K6k w - - 0 1\n";
  for (std::uint64_t offset : {std::uint64_t{0}, std::uint64_t{text.size() - 1000}}) {  // mapped, then read
    Chunk chunk;
    chunk.source = file;
    chunk.offset = offset;
    chunk.range_end = text.size();
    ASSERT_TRUE(fill_range(chunk, error)) << error;
    EXPECT_EQ(chunk.offset + chunk.bytes.size(), text.size()) << offset;
    EXPECT_TRUE(chunk.bytes.ends_with("\n8/8/8")) << offset;
    EXPECT_EQ(!chunk.window.view().empty(), offset == 0);
  }
}

// Read in order (CSV, PGN, JSON Lines, .zst), a file that ends before the size it had when opened was cut
// short by another process: an error, not the end of the input. A file that grew is read to its new end.
TEST(FdReader, FileShrunkWhileReadInOrderIsAnError) {
  TempDir dir;
  const std::string path = dir.file("shrinks.csv");
  write_file(path, std::string(300000, 'x'));
  std::string error;
  std::shared_ptr<InputSource> file = InputSource::open(path, error, InputOptions{.map_files = false});
  ASSERT_TRUE(file) << error;
  std::vector<char> buf(100000);
  std::size_t total = 0;
  while (total < 100000) total += file->read(buf.data(), buf.size(), error);  // the peeked head comes first
  ASSERT_EQ(error, "");
  ASSERT_EQ(::truncate(path.c_str(), 150000), 0);
  while (std::size_t got = file->read(buf.data(), buf.size(), error)) total += got;
  EXPECT_EQ(total, 150000u);
  EXPECT_NE(error.find("shrinks.csv: the file shrank while it was being read"), std::string::npos) << error;

  const std::string grows = dir.file("grows.csv");
  write_file(grows, std::string(1000, 'x'));
  error.clear();
  std::shared_ptr<InputSource> growing = InputSource::open(grows, error, InputOptions{.map_files = false});
  ASSERT_TRUE(growing) << error;
  std::ofstream(grows, std::ios::app) << std::string(500, 'y');
  total = 0;
  while (std::size_t got = growing->read(buf.data(), buf.size(), error)) total += got;
  EXPECT_EQ(total, 1500u);
  EXPECT_EQ(error, "");
}

// The 64-byte-block line splitter gives the same lines as a plain split, for lines of every length around the
// block size, a last line with or without '\n', empty lines and CR.
TEST(LineSplitter, SameLinesAsAPlainSplit) {
  std::mt19937 rng(3);
  for (int round = 0; round < 2000; ++round) {
    std::string text;
    for (int n = static_cast<int>(rng() % 12); n > 0; --n) {
      std::size_t length = rng() % 3 == 0 ? rng() % 3 : rng() % 140;
      for (std::size_t k = 0; k < length; ++k) text.push_back(static_cast<char>(rng() % 4 == 0 ? '\r' : 'a' + rng() % 26));
      text.push_back('\n');
    }
    if (rng() % 2) text += "no newline at the end";
    std::vector<std::string> expected;
    for (std::size_t start = 0; start < text.size();) {
      std::size_t nl = text.find('\n', start);
      if (nl == std::string::npos) nl = text.size();
      expected.push_back(text.substr(start, nl - start));
      start = nl + 1;
    }
    std::vector<std::string> got;
    std::uint64_t count = for_each_line(text, [&](std::string_view line) { got.emplace_back(line); });
    ASSERT_EQ(got, expected) << round;
    ASSERT_EQ(count, expected.size());
  }
}

}  // namespace
}  // namespace fenmill
