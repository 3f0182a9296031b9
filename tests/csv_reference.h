// The CSV row and field scanners as they were before session 18 made them skip ahead through quote-free text and
// quoted text (formats/csv.cpp): kept, unchanged, as the reference that csv_scan_diff_test.cpp holds the new ones to: the same
// rows, row ends, scan states, fields and verdicts on every input.
#pragma once
#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>

#include "core/find_any_byte.h"
#include "formats/csv.h"

namespace fenmill::reference {

inline std::size_t next_csv_row_end(std::string_view bytes, CsvRowScan& scan, char separator, std::size_t max_row) {
  const char* data = bytes.data();
  const std::size_t n = bytes.size();
  while (scan.pos < n) {
    // The line's end and whether it holds a quote, in one pass (rows are read twice: by the serial reader to
    // cut chunks, and by the workers).
    const std::size_t hit = find_any_byte(bytes, scan.pos, std::array<char, 2>{'\n', '"'});
    const bool quote = hit < n && data[hit] == '"';
    const void* nl = quote ? std::memchr(data + hit, '\n', n - hit) : hit < n ? data + hit : nullptr;
    const std::size_t line_end = nl ? static_cast<std::size_t>(static_cast<const char*>(nl) - data) : n;
    if (scan.state != CsvState::kQuoted && !quote) {
      // Without a quote the state after the text depends on its last byte alone (the common case: no loop).
      if (line_end > scan.pos) scan.state = data[line_end - 1] == separator ? CsvState::kFieldStart : CsvState::kUnquoted;
    } else if (scan.state == CsvState::kQuoted && !quote) {
      // Quoted text to the end of the line: the state stays.
    } else {
      for (std::size_t i = scan.pos; i < line_end; ++i) scan.state = csv_step(scan.state, data[i], separator);
    }
    scan.pos = line_end;
    if (!nl) break;
    scan.pos = line_end + 1;
    // A '\n' inside quotes is field text, unless the row has passed the limit: then it ends the row.
    if (scan.state == CsvState::kQuoted && scan.pos - scan.start <= max_row) {
      ++scan.breaks;
      continue;
    }
    scan.row_breaks = scan.breaks;
    scan.start = scan.pos;
    scan.state = CsvState::kFieldStart;
    scan.breaks = 0;
    return scan.pos;
  }
  return CsvRowScan::kNone;
}

inline void scan_csv_rows(std::string_view bytes, CsvRowScan& scan, char separator, std::size_t max_row) {
  for (std::size_t end; (end = reference::next_csv_row_end(bytes, scan, separator, max_row)) != CsvRowScan::kNone;) scan.last_cut = end;
}

inline bool read_csv_field(std::string_view line, std::size_t& i, char separator, CsvField& f) {
  const std::size_t n = line.size();
  f = CsvField{};
  f.begin = i;
  if (i < n && line[i] == '"') {
    f.quoted = true;
    ++i;
    for (;;) {
      if (i >= n) return false;  // unbalanced quote
      if (line[i] == '"') {
        if (i + 1 < n && line[i + 1] == '"') {
          i += 2;
          continue;
        }
        ++i;
        break;
      }
      ++i;
    }
    if (i < n && line[i] != separator && line[i] != '\r') return false;  // text after the closing quote
  } else {  // to the separator: memchr, as a FEN field's 60-odd bytes one at a time were 12 % of a CSV run
    const void* at = std::memchr(line.data() + i, separator, n - i);
    i = at ? static_cast<std::size_t>(static_cast<const char*>(at) - line.data()) : n;
  }
  f.end = i;
  if (!f.quoted && f.end > f.begin && line[f.end - 1] == '\r' && f.end == n) --f.end;
  return true;
}

// Calls visit(index, field) for each field in order, in one pass, until it returns false or a field is malformed.
template <typename Visit>
void for_each_csv_field(std::string_view line, char separator, Visit visit) {
  std::size_t i = 0;
  for (std::size_t index = 0;; ++index) {
    CsvField f;
    if (!read_csv_field(line, i, separator, f) || !visit(index, f)) return;
    if (i >= line.size() || line[i] != separator) return;
    ++i;
  }
}

inline bool find_csv_field(std::string_view line, std::size_t index, char separator, CsvField& out) {
  bool found = false;
  for_each_csv_field(line, separator, [&](std::size_t i, const CsvField& f) {
    if (i == index) out = f, found = true;
    return i < index;
  });
  return found;
}

inline bool csv_rest_well_formed(std::string_view line, std::size_t i, char separator) {
  if (line.find('"', i) == std::string_view::npos) return true;  // unquoted fields only: nothing can be wrong
  for (CsvField f; i < line.size() && line[i] == separator;)
    if (!read_csv_field(line, ++i, separator, f)) return false;
  return line.find_first_not_of('\r', i) == std::string_view::npos;  // CRs only: the line end (\r\r\n too)
}

template <typename OnRow>
std::uint64_t for_each_csv_row(std::string_view bytes, char separator, OnRow&& on_row,
                               std::size_t max_row = kMaxCsvRowBytes) {
  CsvRowScan scan;
  std::uint64_t line = 1;
  for (;;) {
    const std::size_t start = scan.start;
    const std::size_t end = reference::next_csv_row_end(bytes, scan, separator, max_row);
    if (end == CsvRowScan::kNone) {
      if (start == bytes.size()) return line - 1;
      const std::string_view rest = bytes.substr(start);
      on_row(rest, line);
      return line - 1 + static_cast<std::uint64_t>(std::count(rest.begin(), rest.end(), '\n')) + (rest.back() != '\n');
    }
    on_row(bytes.substr(start, end - 1 - start), line);
    line += 1 + scan.row_breaks;
  }
}

}  // namespace fenmill::reference
