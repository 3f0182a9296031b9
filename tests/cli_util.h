// Runs the fenmill executable (FENMILL_BINARY) the way a user does: arguments in; stdout, stderr and the
// exit code out; stdin fed from a string (optionally in pieces with pauses between them, to make a run
// take a while); stdout or stderr optionally a pseudo-terminal. Plus a temp directory that cleans up.
#pragma once
#include <fcntl.h>
#include <poll.h>
#include <pty.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace fenmill::cli_test {

struct CliResult {
  int exit_code = -1;  // 128 + signal number when killed by a signal
  long max_rss_kb = 0;  // the run's peak resident memory
  std::string out;
  std::string err;
};

struct StdinPiece {
  std::string bytes;
  int pause_ms_before = 0;
};

struct CliRun {
  std::vector<std::string> args;       // without the program name
  std::string cwd;                     // empty: the test's own
  std::optional<std::string> stdin_bytes;  // nullopt: stdin is /dev/null
  std::vector<StdinPiece> stdin_pieces;    // used instead of stdin_bytes when not empty
  std::string stdin_file;                  // used instead of both when not empty: stdin is this file (`< file`)
  std::string stdout_file;                 // not empty: stdout is this file, truncated (`> file`); `out` stays empty
  bool stdout_is_tty = false;          // stdout (and its captured text) through a pseudo-terminal
  bool stderr_is_tty = false;
  std::vector<std::pair<std::string, std::string>> env;  // set in the child, over the inherited environment
};

inline std::string read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path.string());
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

inline void write_file(const std::filesystem::path& path, std::string_view bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  if (!out) throw std::runtime_error("cannot write " + path.string());
}

inline std::vector<std::string> split_lines(std::string_view text) {
  std::vector<std::string> lines;
  while (!text.empty()) {
    std::size_t nl = text.find('\n');
    lines.emplace_back(text.substr(0, nl));
    text = nl == std::string_view::npos ? std::string_view{} : text.substr(nl + 1);
  }
  return lines;
}

// A fresh directory under $TMPDIR (or /tmp), removed with everything in it when this goes.
class TempDir {
 public:
  TempDir() {
    const char* base = std::getenv("TMPDIR");
    std::string templ = std::string(base && *base ? base : "/tmp") + "/fenmill-cli-XXXXXX";
    if (!::mkdtemp(templ.data())) throw std::runtime_error("mkdtemp failed");
    path_ = templ;
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::filesystem::path& path() const { return path_; }
  std::string operator/(const std::string& name) const { return (path_ / name).string(); }
  // Names of the entries, sorted (to find leftover temp files).
  std::vector<std::string> entries() const {
    std::vector<std::string> names;
    for (const auto& e : std::filesystem::directory_iterator(path_)) names.push_back(e.path().filename().string());
    std::sort(names.begin(), names.end());
    return names;
  }

 private:
  std::filesystem::path path_;
};

namespace detail {

inline void set_nonblocking(int fd) { ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) | O_NONBLOCK); }

// Makes a pipe or, for a terminal, a pty pair; [0] is the parent's end (read or write), [1] the child's.
inline void make_channel(int fds[2], bool tty, bool child_reads) {
  if (tty) {
    int master, slave;
    if (::openpty(&master, &slave, nullptr, nullptr, nullptr) != 0) throw std::runtime_error("openpty failed");
    ::fcntl(master, F_SETFD, FD_CLOEXEC);
    ::fcntl(slave, F_SETFD, FD_CLOEXEC);
    fds[0] = master;
    fds[1] = slave;
    return;
  }
  int p[2];
  if (::pipe2(p, O_CLOEXEC) != 0) throw std::runtime_error("pipe failed");
  fds[0] = child_reads ? p[1] : p[0];
  fds[1] = child_reads ? p[0] : p[1];
}

}  // namespace detail

// Whether this machine can make pseudo-terminals (some containers cannot).
inline bool pty_available() {
  int master, slave;
  if (::openpty(&master, &slave, nullptr, nullptr, nullptr) != 0) return false;
  ::close(master);
  ::close(slave);
  return true;
}

inline CliResult run_cli(const CliRun& run) {
  // A child that exits before reading all of stdin must not kill the test with SIGPIPE.
  static const bool sigpipe_ignored = (::signal(SIGPIPE, SIG_IGN), true);
  (void)sigpipe_ignored;
  int in[2] = {-1, -1}, out[2], err[2];  // (in: set only when fed; GCC 12 cannot see that)
  bool feed = run.stdin_file.empty() && (run.stdin_bytes.has_value() || !run.stdin_pieces.empty());
  if (feed) detail::make_channel(in, false, true);
  detail::make_channel(out, run.stdout_is_tty, false);
  detail::make_channel(err, run.stderr_is_tty, false);

  if (::access(FENMILL_BINARY, X_OK) != 0) throw std::runtime_error(std::string("no executable ") + FENMILL_BINARY);
  std::vector<std::string> argv_storage;
  argv_storage.push_back(FENMILL_BINARY);
  argv_storage.insert(argv_storage.end(), run.args.begin(), run.args.end());
  std::vector<char*> argv;
  for (std::string& a : argv_storage) argv.push_back(a.data());
  argv.push_back(nullptr);
  // The environment, built before fork (setenv in the child is not safe after fork).
  std::vector<std::string> env_storage;
  for (char** e = environ; *e; ++e) {
    std::string_view entry(*e);
    bool overridden = std::any_of(run.env.begin(), run.env.end(), [&](const auto& kv) {
      return entry.size() > kv.first.size() && entry.substr(0, kv.first.size()) == kv.first && entry[kv.first.size()] == '=';
    });
    if (!overridden) env_storage.emplace_back(entry);
  }
  for (const auto& [name, value] : run.env) env_storage.push_back(name + "=" + value);
  std::vector<char*> envp;
  for (std::string& e : env_storage) envp.push_back(e.data());
  envp.push_back(nullptr);

  pid_t pid = ::fork();
  if (pid < 0) throw std::runtime_error("fork failed");
  if (pid == 0) {
    ::signal(SIGPIPE, SIG_DFL);  // an ignored signal would stay ignored across exec
    if (feed) {
      ::dup2(in[1], STDIN_FILENO);
    } else {
      int file = ::open(run.stdin_file.empty() ? "/dev/null" : run.stdin_file.c_str(), O_RDONLY);
      if (file < 0) ::_exit(125);
      ::dup2(file, STDIN_FILENO);
    }
    if (run.stdout_file.empty()) {
      ::dup2(out[1], STDOUT_FILENO);
    } else {
      int file = ::open(run.stdout_file.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
      if (file < 0) ::_exit(125);
      ::dup2(file, STDOUT_FILENO);
    }
    ::dup2(err[1], STDERR_FILENO);
    if (!run.cwd.empty() && ::chdir(run.cwd.c_str()) != 0) ::_exit(126);
    ::execve(argv[0], argv.data(), envp.data());
    ::_exit(127);
  }
  if (feed) ::close(in[1]);
  ::close(out[1]);
  ::close(err[1]);

  std::vector<StdinPiece> pieces = run.stdin_pieces;
  if (pieces.empty() && run.stdin_bytes) pieces.push_back({*run.stdin_bytes, 0});
  std::size_t piece = 0, piece_pos = 0;
  int in_fd = feed ? in[0] : -1;
  if (in_fd >= 0) detail::set_nonblocking(in_fd);
  auto piece_due = std::chrono::steady_clock::now() +
                   std::chrono::milliseconds(pieces.empty() ? 0 : pieces[0].pause_ms_before);

  CliResult result;
  int fds[2] = {out[0], err[0]};
  std::string* sinks[2] = {&result.out, &result.err};
  while (fds[0] >= 0 || fds[1] >= 0 || in_fd >= 0) {
    if (in_fd >= 0 && piece >= pieces.size()) {
      ::close(in_fd);  // end of input
      in_fd = -1;
      continue;
    }
    pollfd p[3];
    int n = 0, in_slot = -1, slot_of[2] = {-1, -1};
    int timeout = -1;
    for (int i = 0; i < 2; ++i)
      if (fds[i] >= 0) {
        slot_of[i] = n;
        p[n++] = {fds[i], POLLIN, 0};
      }
    if (in_fd >= 0) {
      auto now = std::chrono::steady_clock::now();
      if (now >= piece_due) {
        in_slot = n;
        p[n++] = {in_fd, POLLOUT, 0};
      } else {
        timeout = static_cast<int>(std::chrono::duration_cast<std::chrono::milliseconds>(piece_due - now).count()) + 1;
      }
    }
    if (::poll(p, static_cast<nfds_t>(n), timeout) < 0) {
      if (errno == EINTR) continue;
      throw std::runtime_error("poll failed");
    }
    for (int i = 0; i < 2; ++i) {
      if (slot_of[i] < 0 || !(p[slot_of[i]].revents & (POLLIN | POLLHUP | POLLERR))) continue;
      char buf[65536];
      ssize_t got = ::read(fds[i], buf, sizeof buf);
      if (got > 0) {
        sinks[i]->append(buf, static_cast<std::size_t>(got));
      } else if (got == 0 || errno != EINTR) {  // EOF, or EIO from a pty whose other end closed
        ::close(fds[i]);
        fds[i] = -1;
      }
    }
    if (in_slot >= 0 && (p[in_slot].revents & (POLLOUT | POLLERR | POLLHUP))) {
      const std::string& bytes = pieces[piece].bytes;
      ssize_t put = bytes.size() > piece_pos ? ::write(in_fd, bytes.data() + piece_pos, bytes.size() - piece_pos) : 0;
      if (put < 0 && errno != EAGAIN && errno != EINTR) {  // the program stopped reading: EPIPE
        ::close(in_fd);
        in_fd = -1;
        continue;
      }
      if (put > 0) piece_pos += static_cast<std::size_t>(put);
      if (piece_pos >= bytes.size()) {
        ++piece;
        piece_pos = 0;
        if (piece < pieces.size())
          piece_due = std::chrono::steady_clock::now() + std::chrono::milliseconds(pieces[piece].pause_ms_before);
      }
    }
  }
  int status = 0;
  struct rusage usage {};
  while (::wait4(pid, &status, 0, &usage) < 0 && errno == EINTR) {
  }
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  result.max_rss_kb = usage.ru_maxrss;
  return result;
}

inline CliResult run_cli(std::vector<std::string> args, std::string cwd = {}) {
  CliRun run;
  run.args = std::move(args);
  run.cwd = std::move(cwd);
  return run_cli(run);
}

// The same run with `stdin_bytes` on stdin.
inline CliResult run_cli_stdin(std::vector<std::string> args, std::string stdin_bytes, std::string cwd = {}) {
  CliRun run;
  run.args = std::move(args);
  run.cwd = std::move(cwd);
  run.stdin_bytes = std::move(stdin_bytes);
  return run_cli(run);
}

}  // namespace fenmill::cli_test
