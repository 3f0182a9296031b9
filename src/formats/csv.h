// CSV (RFC 4180) pieces the pipeline needs: cut a buffer into rows, find one field of a row, find a column
// by header name, and write a value back with quotes where needed. A row is one line, or several when a quoted
// field holds line breaks: a '\n' ends a row only outside quotes.
#pragma once
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "io/line_splitter.h"

namespace fenmill {

// Where a CSV scanner is within a row. A quote opens a quoted field only at the start of a field; anywhere
// else (`5" board`) it is an ordinary character, as in most readers, so it cannot swallow the rows after it.
enum class CsvState : std::uint8_t { kFieldStart, kUnquoted, kQuoted, kQuoteInQuoted };

// The state after byte `c`. A '\n' seen in any state but kQuoted ends the row (and gives kFieldStart).
inline CsvState csv_step(CsvState state, char c, char separator) {
  switch (state) {
    case CsvState::kQuoted:
      return c == '"' ? CsvState::kQuoteInQuoted : CsvState::kQuoted;
    case CsvState::kQuoteInQuoted:  // a closing quote, or the first half of ""
      if (c == '"') return CsvState::kQuoted;
      break;
    case CsvState::kFieldStart:
      if (c == '"') return CsvState::kQuoted;
      break;
    case CsvState::kUnquoted:
      break;
  }
  return c == separator || c == '\n' ? CsvState::kFieldStart : CsvState::kUnquoted;
}

// Runs the scanner over `bytes` from `state`.
inline CsvState csv_scan(std::string_view bytes, CsvState state, char separator) {
  for (char c : bytes) state = csv_step(state, c, separator);
  return state;
}

// Whether `bytes`, starting at a row start, end inside a quoted field.
inline bool csv_ends_in_quotes(std::string_view bytes, char separator) {
  return bytes.find('"') != std::string_view::npos &&
         csv_scan(bytes, CsvState::kFieldStart, separator) == CsvState::kQuoted;
}

// A quoted field may hold line breaks, but a row ends, at the latest, at the end of the line on which it passes
// this many bytes: an unbalanced (stray) quote then costs one rejected record of at most that much, and reading
// goes on after it. Without a limit one stray quote made the rest of the input one record, held in memory whole.
// The rule looks only at the row's own bytes (no look-ahead past its end), so rows come out the same however the
// input is cut into chunks, and each byte is scanned once.
constexpr std::size_t kMaxCsvRowBytes = std::size_t{1} << 20;

// Finds rows one after another in a buffer that may grow between calls (the chunk feed's carry).
struct CsvRowScan {
  static constexpr std::size_t kNone = ~std::size_t{0};
  std::size_t start = 0;         // where the row being found starts
  std::size_t pos = 0;           // bytes before this are scanned
  CsvState state = CsvState::kFieldStart;
  std::uint64_t breaks = 0;      // '\n's inside quotes so far in this row
  std::uint64_t row_breaks = 0;  // those of the row found last
  std::size_t last_cut = 0;      // scan_csv_rows: one past the last complete row's '\n' (0: none yet)
  std::size_t quote_free_end = 0;  // bytes [pos, quote_free_end) hold no quote: it is the next quote or the bytes' end
  // The first `cut` bytes left the buffer: every offset moves down.
  void dropped(std::size_t cut);
};

// The end (one past its '\n') of the row at scan.start, scanning on from scan.pos, or CsvRowScan::kNone when the
// bytes end first. On success the scan is ready for the next row and row_breaks holds the row's inner '\n's.
std::size_t next_csv_row_end(std::string_view bytes, CsvRowScan& scan, char separator,
                             std::size_t max_row = kMaxCsvRowBytes);
// Moves scan.last_cut past every complete row in bytes[scan.pos, bytes.size()).
void scan_csv_rows(std::string_view bytes, CsvRowScan& scan, char separator, std::size_t max_row = kMaxCsvRowBytes);

// Calls on_row(row, line) for every row of `bytes` (which starts at a row boundary), without its final '\n',
// with the 1-based number of the row's first line within `bytes`. A row still in quotes at the end runs to the
// end. Returns the number of lines.
template <typename OnRow>
std::uint64_t for_each_csv_row(std::string_view bytes, char separator, OnRow&& on_row,
                               std::size_t max_row = kMaxCsvRowBytes) {
  CsvRowScan scan;
  std::uint64_t line = 1;
  for (;;) {
    const std::size_t start = scan.start;
    const std::size_t end = next_csv_row_end(bytes, scan, separator, max_row);
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

struct CsvField {
  std::size_t begin = 0, end = 0;  // the raw field in the line, quotes included
  bool quoted = false;
};

// A row without the '\r' of a CRLF ending. Nothing else goes: trailing tabs and blanks are field text (an empty
// last TSV field).
inline std::string_view csv_without_cr(std::string_view row) {
  if (!row.empty() && row.back() == '\r') row.remove_suffix(1);
  return row;
}

// Where `line` holds a CR outside quoted fields with more than CRs after it, or npos. Lines end at LF: such a CR ends a
// line of a file whose lines end in CR alone (classic Mac OS, Excel's "CSV (Macintosh)"), all of it read as one row.
std::size_t csv_inner_cr(std::string_view line, char separator);
// Finds field number `index` (0-based) of a row. False if the row has fewer fields or a quote is unbalanced.
bool find_csv_field(std::string_view line, std::size_t index, char separator, CsvField& out);
// Whether the fields after the one ending at line[end] (a separator, a CR or the end) are well formed: each quoted
// one closed, then followed by a separator or the row's end, CRs included (a quote inside an unquoted field is text).
bool csv_rest_well_formed(std::string_view line, std::size_t end, char separator);
// The field's value: the raw text, or for a quoted field the text between the quotes with "" as ".
// Uses `scratch` only when unescaping is needed.
std::string_view csv_field_value(std::string_view line, const CsvField& field, std::string& scratch);
// Index of the column named `name` in a header line, or -1. Names are compared without blanks around them.
int csv_column_index(std::string_view header, std::string_view name, char separator);
// Indexes of every column named `name` in a header line, ascending.
std::vector<int> csv_columns_named(std::string_view header, std::string_view name, char separator);
// How many fields a row has, as the scanner delimits them (an empty row has one, empty).
std::size_t csv_field_count(std::string_view row, char separator);
// Appends `row` with `value` in place of each field whose index is in `columns` (ascending). Fields are
// delimited as the scanner sees them, so a malformed one (`"x"y`) is replaced whole too; a row with fewer fields
// gets empty ones up to a column. `value` is written as is: quote it first if it needs quotes.
void replace_csv_fields(std::string& out, std::string_view row, const std::vector<int>& columns, std::string_view value,
                        char separator);
// Appends value as a CSV field, quoted if it holds the separator, a quote, CR or LF.
void append_csv_field(std::string& out, std::string_view value, char separator);

}  // namespace fenmill
