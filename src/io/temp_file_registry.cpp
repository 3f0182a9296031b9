#include "io/temp_file_registry.h"

#include <limits.h>
#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <cstring>
#include <mutex>

namespace fenmill {
namespace {

// Fixed storage: the signal handler may neither allocate nor lock.
constexpr int kSlots = 64;
enum SlotState : int { kFree = 0, kBusy = 1, kActive = 2 };

struct Slot {
  std::atomic<int> state{kFree};
  char path[PATH_MAX];
};
Slot g_slots[kSlots];

// Every signal whose default action ends the process and that a user or the system may send mid-run
// (SIGKILL cannot be caught; faults such as SIGSEGV are bugs, not a way to stop a run). SIGBUS is what the
// kernel sends when another process truncates an input file while fenmill reads it through a mapping.
constexpr int kSignals[] = {SIGINT, SIGTERM, SIGHUP, SIGPIPE, SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM, SIGVTALRM, SIGPROF, SIGXCPU, SIGXFSZ, SIGBUS};

void on_fatal_signal(int sig) {
  remove_registered_temp_files();
  // SA_RESETHAND restored the default action; the signal is delivered again once this handler returns.
  ::raise(sig);
}

void install_handlers() {
  for (int sig : kSignals) {
    struct sigaction current;
    if (::sigaction(sig, nullptr, &current) != 0) continue;
    if ((current.sa_flags & SA_SIGINFO) || current.sa_handler != SIG_DFL) continue;
    struct sigaction action {};
    action.sa_handler = on_fatal_signal;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESETHAND;
    ::sigaction(sig, &action, nullptr);
  }
}

}  // namespace

int register_temp_file(const std::string& path) {
  static std::once_flag installed;
  std::call_once(installed, install_handlers);
  if (path.size() >= PATH_MAX) return -1;
  for (int i = 0; i < kSlots; ++i) {
    int expected = kFree;
    if (g_slots[i].state.compare_exchange_strong(expected, kBusy, std::memory_order_acquire)) {
      std::memcpy(g_slots[i].path, path.c_str(), path.size() + 1);
      g_slots[i].state.store(kActive, std::memory_order_release);
      return i;
    }
  }
  return -1;
}

void unregister_temp_file(int slot) {
  if (slot < 0 || slot >= kSlots) return;
  g_slots[slot].state.store(kFree, std::memory_order_release);
}

void remove_registered_temp_files() {
  for (Slot& slot : g_slots)
    if (slot.state.load(std::memory_order_acquire) == kActive) ::unlink(slot.path);
}

}  // namespace fenmill
