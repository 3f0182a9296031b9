#include "pipeline/preflight.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <string_view>
#include <utility>
#include <vector>

#include "io/atomic_output.h"

namespace fenmill {
namespace {

// What a path names, for telling whether two paths are one file.
struct FileIdentity {
  enum Kind { kShareable, kStdout, kFile, kNotYet } kind = kShareable;
  dev_t device = 0;
  ino_t inode = 0;
  std::string canonical;  // kNotYet: the absolute path it will have
};

// As the writer reads the name (AtomicOutput::open), so that every name it writes to stdout counts as stdout here.
bool names_stdout(const std::string& path) { return path == "-" || descriptor_named_by(path) == STDOUT_FILENO; }

// `id` with the device and inode of the regular file `st` describes, if it is one.
FileIdentity with_regular_file(FileIdentity id, const struct stat& st) {
  if (S_ISREG(st.st_mode)) {
    id.device = st.st_dev;
    id.inode = st.st_ino;
  }
  return id;
}

FileIdentity identify(const std::string& path) {
  FileIdentity id;
  struct stat st;
  if (names_stdout(path)) {
    id.kind = FileIdentity::kStdout;
    // `> file` makes stdout a file that another option may name too.
    return ::fstat(STDOUT_FILENO, &st) == 0 ? with_regular_file(id, st) : id;
  }
  if (::stat(path.c_str(), &st) == 0) {
    if (S_ISREG(st.st_mode)) id.kind = FileIdentity::kFile;
    return with_regular_file(id, st);  // a device, FIFO or terminal is written in place and may take several outputs
  }
  std::error_code ec;
  id.kind = FileIdentity::kNotYet;
  id.canonical = std::filesystem::weakly_canonical(std::filesystem::absolute(path, ec), ec).string();
  return id;
}

// Standard input as a file: a regular file redirected to it (`< in.fen`) is that file.
FileIdentity identify_stdin() {
  FileIdentity id;
  struct stat st;
  if (::fstat(STDIN_FILENO, &st) != 0 || !S_ISREG(st.st_mode)) return id;
  id.kind = FileIdentity::kFile;
  return with_regular_file(id, st);
}

// The FIFO or pipe a path (or "-", standard input or output) is, as device and inode; false for anything else.
bool fifo_identity(const std::string& path, bool input, std::pair<dev_t, ino_t>& id) {
  struct stat st;
  const int fd = input ? (path == "-" ? STDIN_FILENO : -1) : (names_stdout(path) ? STDOUT_FILENO : descriptor_named_by(path));
  if ((fd >= 0 ? ::fstat(fd, &st) : ::stat(path.c_str(), &st)) != 0 || !S_ISFIFO(st.st_mode)) return false;
  id = {st.st_dev, st.st_ino};
  return true;
}

bool same(const FileIdentity& a, const FileIdentity& b) {
  if ((a.kind == FileIdentity::kStdout && b.kind == FileIdentity::kFile) ||
      (a.kind == FileIdentity::kFile && b.kind == FileIdentity::kStdout))
    return a.inode != 0 && a.device == b.device && a.inode == b.inode;
  if (a.kind != b.kind) return false;
  switch (a.kind) {
    case FileIdentity::kShareable: return false;
    case FileIdentity::kStdout: return true;
    case FileIdentity::kFile: return a.device == b.device && a.inode == b.inode;
    case FileIdentity::kNotYet: return !a.canonical.empty() && a.canonical == b.canonical;
  }
  return false;
}

std::string shown(const std::string& path, const FileIdentity& id) {
  return id.kind == FileIdentity::kStdout ? "standard output, redirected to that file" : path;
}

}  // namespace

std::string preflight_error(const Job& job) {
  for (const std::string& input : job.inputs) {
    if (input == "-") continue;
    struct stat st;
    if (::stat(input.c_str(), &st) != 0 || ::access(input.c_str(), R_OK) != 0) return input + ": " + std::strerror(errno);
    if (S_ISDIR(st.st_mode)) return input + ": is a directory";
  }
  std::vector<std::pair<std::string_view, const std::string*>> outputs = {{"-o", &job.output}};
  if (!job.rejects_path.empty()) outputs.push_back({"--rejects", &job.rejects_path});
  if (!job.summary_path.empty()) outputs.push_back({"--summary", &job.summary_path});
  if (!job.html_path.empty()) outputs.push_back({"--html", &job.html_path});
  std::vector<FileIdentity> ids;
  for (const auto& [option, path] : outputs) ids.push_back(identify(*path));
  for (std::size_t i = 0; i < outputs.size(); ++i)
    for (std::size_t j = i + 1; j < outputs.size(); ++j)
      if (same(ids[i], ids[j])) {
        std::string both = std::string(outputs[i].first) + " and " + std::string(outputs[j].first);
        if (ids[i].kind == FileIdentity::kStdout && ids[j].kind == FileIdentity::kStdout)
          return both + " name the same file, standard output: each output needs its own (-o is standard output unless given)";
        return both + " name the same file (" + shown(*outputs[i].second, ids[i]) + " and " +
               shown(*outputs[j].second, ids[j]) + "): each output needs its own";
      }
  // -o FILE may be an input: it is written to a temporary file and renamed at the end. Written in place (standard
  // output, or a descriptor: /dev/fd/3, /dev/stderr) onto a file that is an input (`>> in.txt`), the run would
  // read back what it writes.
  const bool output_in_place = ids[0].kind == FileIdentity::kStdout || descriptor_named_by(job.output) >= 0;
  for (const std::string& input : job.inputs) {
    FileIdentity in = input == "-" ? identify_stdin() : identify(input);
    const std::string name = input == "-" ? "standard input" : input;
    if (output_in_place && same(in, ids[0]))
      return name + " is an input of this run and also its output " + (ids[0].kind == FileIdentity::kStdout ? "(standard output, redirected to it)" : "(" + job.output + ")") +
             ": the run would read back what it writes; write to another file";
    for (std::size_t i = 1; i < outputs.size(); ++i)
      if (same(in, ids[i])) return std::string(outputs[i].first) + " " + *outputs[i].second + " is an input of this run";
    // A FIFO both read and written (`- -o f < f`, `f --rejects f`): the run read back what it wrote, or waited
    // for ever for another writer. (Several outputs may share one FIFO; an input may not be one of them.)
    std::pair<dev_t, ino_t> in_fifo, out_fifo;
    if (!fifo_identity(input, true, in_fifo)) continue;
    for (const auto& [option, path] : outputs)
      if (fifo_identity(*path, false, out_fifo) && out_fifo == in_fifo)
        return name + " is a FIFO (or pipe) that is an input of this run and also its output (" + std::string(option) +
               " " + (*path == "-" ? "standard output" : *path) + "): the run would read back what it writes";
  }
  return {};
}

}  // namespace fenmill
