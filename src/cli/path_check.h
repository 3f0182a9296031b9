// A CLI11 check for options naming a file to write: an empty name ("--rejects ''", or "--rejects $R" with R unset)
// is refused as -o '' is. Without it the option read as not given: the run went on and wrote no rejects file.
#pragma once
#include <CLI/CLI.hpp>
#include <string>

namespace fenmill::cli {

inline CLI::Validator non_empty_path() {
  return CLI::Validator(
      [](std::string& text) -> std::string { return text.empty() ? "an empty name is not a file name" : std::string(); },
      "");  // (nothing added to the help's TEXT)
}

}  // namespace fenmill::cli
