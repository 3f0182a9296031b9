// Temp files to delete if the process dies from SIGINT, SIGTERM, SIGHUP or SIGPIPE, so an interrupted run
// leaves no ".name.fenmill-XXXXXX" behind. The handler only unlinks and re-raises the signal, so the exit
// status still says which signal ended the process.
//
// Handlers are installed on the first registration, and only for signals still at their default action: an
// ignored signal stays ignored, and a program with its own handler keeps it (and may call
// remove_registered_temp_files() from it).
#pragma once
#include <string>

namespace fenmill {

// Returns a slot id for unregister_temp_file(), or -1 if the path could not be registered (too long or too
// many at once: the file works as usual, it just is not cleaned up on a signal).
int register_temp_file(const std::string& path);
void unregister_temp_file(int slot);  // -1 is ignored

// Unlinks every registered path. Async-signal-safe.
void remove_registered_temp_files();

}  // namespace fenmill
