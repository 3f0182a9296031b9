// `fenmill render`: SVG pictures of positions (one, or one per record with --each). (`fenmill validate --html`'s
// report is src/render/html_report.h, written by run_job with the other outputs.)
#pragma once
#include <string>

#include "pipeline/job.h"
#include "pipeline/run.h"

namespace CLI {
class App;
}

namespace fenmill::cli {

struct RenderArgs {
  std::string input;        // a FEN (when no such file exists and it has a '/'), a file, or - for stdin
  std::string output = "-";
  std::string each_dir;     // --each: one picture per record, DIR/line-000042.svg
  std::string variant = "auto";
  int size = 360;
  bool flip = false, force = false, chess960 = false, quiet = false;
};

// Adds the `render` subcommand to `app`; run() does the work when app.parse() selected it.
// Must outlive the parse (the options write into it).
class RenderCommand {
 public:
  explicit RenderCommand(CLI::App& app);
  bool selected() const;
  int run() const;  // an exit code: 0 pictures written (also of invalid positions), 1 no record, 2 usage or I/O
  const RenderArgs& args() const { return args_; }

 private:
  CLI::App* sub_;
  RenderArgs args_;
};

}  // namespace fenmill::cli
