// Reads a range chunk (Chunk::range_end > 0) where it will be processed: a pipeline worker reads the lines
// that start in its byte range itself, mapped (io/file_window.h) or else with positional reads, so the bytes
// land in the cache of the core that parses them and the in-order reader stage only hands out offsets.
#pragma once
#include <string>

#include "io/chunk.h"

namespace fenmill {

// Points chunk.bytes at the whole lines that start in [offset, range_end), mapped into chunk.window or read
// into chunk.storage (the last line to its '\n' or the end of the file, however long), and moves `offset` to
// the first such line (past a UTF-8 BOM at the start of the file). A range inside one long line owns nothing: bytes is empty.
// Returns false with `error` set when the file cannot be read.
bool fill_range(Chunk& chunk, std::string& error);

}  // namespace fenmill
