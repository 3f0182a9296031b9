// CSV (RFC 4180) pieces the pipeline needs: cut a buffer into rows, find one field of a row, find a column
// by header name, and write a value back with quotes where needed. A row is one line, or several when a quoted
// field holds line breaks: a '\n' ends a row only outside quotes (an escaped quote "" flips the state twice).
#pragma once
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "io/line_splitter.h"

namespace fenmill {

// Where the rows of a growing buffer end, scanned once: `pos` bytes seen, `in_quotes` after them, and
// `last_cut` one past the last '\n' that ends a row (0: none yet).
struct CsvRowScan {
  std::size_t pos = 0, last_cut = 0;
  bool in_quotes = false;
};
// Scans bytes[scan.pos, bytes.size()).
void scan_csv_rows(std::string_view bytes, CsvRowScan& scan);

// Calls on_row(row, line) for every row of `bytes` (which starts at a row boundary), without its final '\n',
// with the 1-based number of the row's first line within `bytes`. A row still in quotes at the end runs to the
// end. Returns the number of lines.
template <typename OnRow>
std::uint64_t for_each_csv_row(std::string_view bytes, OnRow&& on_row) {
  const char* row_start = bytes.data();
  std::uint64_t line = 0, row_line = 1;
  bool in_quotes = false;
  std::uint64_t lines = for_each_line(bytes, [&](std::string_view text) {
    ++line;
    if (!in_quotes) {
      row_start = text.data();
      row_line = line;
    }
    if (std::count(text.begin(), text.end(), '"') % 2 != 0) in_quotes = !in_quotes;
    if (!in_quotes) on_row(std::string_view(row_start, static_cast<std::size_t>(text.data() + text.size() - row_start)), row_line);
  });
  if (in_quotes) on_row(std::string_view(row_start, static_cast<std::size_t>(bytes.data() + bytes.size() - row_start)), row_line);
  return lines;
}

struct CsvField {
  std::size_t begin = 0, end = 0;  // the raw field in the line, quotes included
  bool quoted = false;
};

// Finds field number `index` (0-based) of a row. False if the row has fewer fields or a quote is unbalanced.
bool find_csv_field(std::string_view line, std::size_t index, char separator, CsvField& out);
// The field's value: the raw text, or for a quoted field the text between the quotes with "" as ".
// Uses `scratch` only when unescaping is needed.
std::string_view csv_field_value(std::string_view line, const CsvField& field, std::string& scratch);
// Index of the column named `name` in a header line, or -1.
int csv_column_index(std::string_view header, std::string_view name, char separator);
// Appends value as a CSV field, quoted if it holds the separator, a quote, CR or LF.
void append_csv_field(std::string& out, std::string_view value, char separator);

}  // namespace fenmill
