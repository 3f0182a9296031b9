// The node side of the tests that hold fenmill against chessops (differential_test.cpp, reachable_positions_test.cpp):
// whether node and chessops (`npm ci --prefix tests/diff`) are there, and running one of the scripts in tests/diff/
// with its standard output read line by line.
#pragma once
#include <sys/types.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace fenmill::node_reference {

inline const std::filesystem::path kDiffDir = std::filesystem::path(FENMILL_SOURCE_DIR) / "tests/diff";

// Why the scripts cannot run here, or "" when they can; `needed_for` completes "node is not installed (needed ...)".
inline std::string reference_missing(std::string_view needed_for) {
  if (std::system("node --version > /dev/null 2>&1") != 0)
    return "node is not installed (needed " + std::string(needed_for) + ")";
  if (!std::filesystem::exists(kDiffDir / "node_modules/chessops/package.json"))
    return "chessops is not installed: run `npm ci --prefix tests/diff`";
  return "";
}

// `text` as one sh word.
inline std::string shell_quoted(std::string_view text) {
  std::string quoted = "'";
  for (char c : text) {
    if (c == '\'') quoted += "'\\''";  // close, an escaped quote, open again
    else quoted += c;
  }
  quoted += '\'';
  return quoted;
}

// The sh command that runs tests/diff/`script` with `args`.
inline std::string node_command(std::string_view script, const std::vector<std::string>& args) {
  std::string command = "node ";
  command += shell_quoted((kDiffDir / script).string());
  for (const std::string& arg : args) (command += ' ') += shell_quoted(arg);
  return command;
}

// Runs the script, appending each line of its standard output (without the '\n') to `lines`; false when it could
// not be started or did not exit with 0. Its standard error goes to the test's.
inline bool run_node_script(std::string_view script, const std::vector<std::string>& args,
                            std::vector<std::string>& lines) {
  FILE* out = ::popen(node_command(script, args).c_str(), "r");
  if (!out) return false;
  char* line = nullptr;
  std::size_t capacity = 0;
  for (ssize_t n; (n = ::getline(&line, &capacity, out)) > 0;)
    lines.emplace_back(line, static_cast<std::size_t>(n) - (line[n - 1] == '\n'));
  std::free(line);
  return ::pclose(out) == 0;
}

}  // namespace fenmill::node_reference
