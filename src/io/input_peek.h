// The first bytes of an input's content (decompressed when it is zstd), for choosing its format by content.
// Peeking a regular file opens it once more; stdin ("-"), a pipe, a FIFO or a device cannot rewind, so the opened
// stream is kept and the next InputSource::open of that path hands it back with the peeked bytes still unread
// (and an error the peek met still to come).
#pragma once
#include <cstddef>
#include <functional>
#include <string>
#include <string_view>

namespace fenmill {

// Fills `head` with up to n bytes from the start of `path`'s content, or fewer once `enough(head)` says so (it is
// asked after each read). False (with `error`) when it cannot be read.
bool peek_input(const std::string& path, std::size_t n, std::string& head, std::string& error,
                const std::function<bool(std::string_view)>& enough = nullptr);

}  // namespace fenmill
