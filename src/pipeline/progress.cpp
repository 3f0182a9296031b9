#include "pipeline/progress.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>

#include "io/input_source.h"

namespace fenmill {

std::string progress_line(std::uint64_t done, std::uint64_t total, std::uint64_t records, double secs) {
  char line[160];
  int n = std::snprintf(line, sizeof line, "%.1f MB, %llu records", static_cast<double>(done) / 1e6,
                        static_cast<unsigned long long>(records));
  const double rate = secs > 0 ? static_cast<double>(records) / secs : 0;
  // A slow source (a pipe, a network file) is still shown moving: "0.00 M records/s" said nothing.
  if (rate >= 1e6)
    n += std::snprintf(line + n, sizeof line - n, ", %.2f M records/s", rate / 1e6);
  else if (rate >= 1e3)
    n += std::snprintf(line + n, sizeof line - n, ", %.1f k records/s", rate / 1e3);
  else
    n += std::snprintf(line + n, sizeof line - n, ", %.0f records/s", rate);
  if (total && done && done <= total)
    std::snprintf(line + n, sizeof line - n, ", ETA %.0f s",
                  secs * static_cast<double>(total - done) / static_cast<double>(done));
  return line;
}

Progress::Progress(int mode, const std::vector<std::string>& inputs)
    : enabled_(mode == 1 || (mode == -1 && isatty(STDERR_FILENO))),
      start_(std::chrono::steady_clock::now()),
      last_(start_) {
  bool all_known = true;
  for (const std::string& path : inputs) {
    struct stat st {};
    bool known = path != "-" && stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) &&
                 !InputSource::is_compressed_file(path);
    sizes_.push_back(known ? static_cast<std::uint64_t>(st.st_size) : 0);
    all_known = all_known && known;
    total_ += sizes_.back();
  }
  if (!all_known) total_ = 0;
}

void Progress::update(std::uint64_t done_in_input, std::uint32_t input, std::uint64_t records) {
  if (!enabled_) return;
  done_in_input_ = done_in_input;
  input_ = input;
  records_ = records;
  auto now = std::chrono::steady_clock::now();
  if (now - last_ < std::chrono::milliseconds(250)) return;
  last_ = now;
  print(now);
}

// Over the line on screen, blanking what a longer one before it left (a rate or an ETA may lose digits).
void Progress::print(std::chrono::steady_clock::time_point now) {
  std::uint64_t done = done_in_input_;
  for (std::uint32_t i = 0; i < input_ && i < sizes_.size(); ++i) done += sizes_[i];
  const std::string line = progress_line(done, total_, records_, std::chrono::duration<double>(now - start_).count());
  const int length = static_cast<int>(line.size());
  std::fprintf(stderr, "\r%s%*s", line.c_str(), shown_ > length ? shown_ - length : 0, "");
  shown_ = length;
  printed_ = true;
}

// The last update was likely skipped (at most one line per 250 ms): the line left on screen, under -q the only word
// on the run, showed fewer records than were read.
void Progress::finish() {
  if (!printed_) return;
  print(std::chrono::steady_clock::now());
  std::fprintf(stderr, "\n");
}

}  // namespace fenmill
