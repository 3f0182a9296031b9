#include "formats/csv.h"

#include <algorithm>
#include <array>
#include <cstring>

#include "core/find_any_byte.h"
#include "io/byte_order_mark.h"

namespace fenmill {

void CsvRowScan::dropped(std::size_t cut) {
  start -= cut;
  pos -= cut;
  last_cut = last_cut > cut ? last_cut - cut : 0;
  quote_free_end = quote_free_end > cut ? quote_free_end - cut : 0;
}

namespace {

// At a row start (scan.pos == scan.start: nothing of the row read yet, so the state is kFieldStart), the end of the
// quote-free bytes that follow, looked for again once the scan has passed the last one found.
std::size_t quote_free_end(std::string_view bytes, CsvRowScan& scan) {
  if (scan.pos >= scan.quote_free_end) {
    const void* quote = std::memchr(bytes.data() + scan.pos, '"', bytes.size() - scan.pos);
    scan.quote_free_end = quote ? static_cast<std::size_t>(static_cast<const char*>(quote) - bytes.data()) : bytes.size();
  }
  return scan.quote_free_end;
}

// The scanner's state after line[i, line.size()), bytes of one line (no '\n'), from `state`: as csv_step a byte at a
// time, but quoted text and the rest of an unquoted field are crossed by a search for the quote or separator that
// ends them (a row of quoted fields was ~5 instructions a byte, read twice).
CsvState scan_line(std::string_view line, std::size_t i, CsvState state, char separator) {
  while (i < line.size()) {
    if (state == CsvState::kQuoted || state == CsvState::kUnquoted) {
      const char stop = state == CsvState::kQuoted ? '"' : separator;
      i = find_any_byte(line, i, std::array<char, 1>{stop});
      if (i == line.size()) break;  // the state stays
      state = state == CsvState::kQuoted ? CsvState::kQuoteInQuoted : CsvState::kFieldStart;
      ++i;
    } else {
      state = csv_step(state, line[i++], separator);
    }
  }
  return state;
}

// `row_end` (one past a '\n' outside quotes) ends the row at scan.start, which held no line break inside quotes.
std::size_t end_quote_free_row(CsvRowScan& scan, std::size_t row_end) {
  scan.row_breaks = 0;
  scan.start = scan.pos = row_end;
  return row_end;
}

}  // namespace

std::size_t next_csv_row_end(std::string_view bytes, CsvRowScan& scan, char separator, std::size_t max_row) {
  const char* data = bytes.data();
  const std::size_t n = bytes.size();
  // Rows are read twice, by the serial reader to cut chunks and by the workers, and most hold no quote: a row that
  // starts before the next quote and ends before it ends at its line's '\n', found by memchr (32 bytes a step) rather
  // than by the quote-aware scan below (the '\n' or '"' search, 16 bytes a step, was 14 % of a CSV -> CSV run).
  if (scan.pos == scan.start && scan.pos < n) {
    const std::size_t quote_free = quote_free_end(bytes, scan);
    if (const void* nl = std::memchr(data + scan.pos, '\n', quote_free - scan.pos))
      return end_quote_free_row(scan, static_cast<std::size_t>(static_cast<const char*>(nl) - data) + 1);
  }
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
      scan.state = scan_line(std::string_view(data, line_end), scan.pos, scan.state, separator);
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

void scan_csv_rows(std::string_view bytes, CsvRowScan& scan, char separator, std::size_t max_row) {
  for (;;) {
    // The rows before the next quote end at their '\n's: the cut goes after the last of them, unlooked-at (in a
    // file without quotes, the whole chunk in two memory scans).
    if (scan.pos == scan.start && scan.pos < bytes.size()) {
      const std::size_t quote_free = quote_free_end(bytes, scan);
      if (const void* nl = memrchr(bytes.data() + scan.pos, '\n', quote_free - scan.pos))
        scan.last_cut = end_quote_free_row(scan, static_cast<std::size_t>(static_cast<const char*>(nl) - bytes.data()) + 1);
    }
    const std::size_t end = next_csv_row_end(bytes, scan, separator, max_row);
    if (end == CsvRowScan::kNone) return;
    scan.last_cut = end;
  }
}

namespace {

// Reads the field that starts at line[i] into f and moves i to the byte after it (a separator, a CR, or the end).
// False when the field is malformed: an unbalanced quote, or text after the closing quote.
bool read_csv_field(std::string_view line, std::size_t& i, char separator, CsvField& f) {
  const std::size_t n = line.size();
  f = CsvField{};
  f.begin = i;
  if (i < n && line[i] == '"') {
    f.quoted = true;
    ++i;
    for (;;) {
      i = find_any_byte(line, i, std::array<char, 1>{'"'});  // the quoted text to its next quote, 16 bytes a step
      if (i >= n) return false;  // unbalanced quote
      if (i + 1 < n && line[i + 1] == '"') {
        i += 2;
        continue;
      }
      ++i;
      break;
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

}  // namespace

bool find_csv_field(std::string_view line, std::size_t index, char separator, CsvField& out) {
  bool found = false;
  for_each_csv_field(line, separator, [&](std::size_t i, const CsvField& f) {
    if (i == index) out = f, found = true;
    return i < index;
  });
  return found;
}

std::size_t csv_inner_cr(std::string_view line, char separator) {
  const std::size_t last = line.find_last_not_of('\r');
  if (last == std::string_view::npos || line.find('\r') > last) return std::string_view::npos;  // the common case
  CsvState state = CsvState::kFieldStart;
  for (std::size_t i = 0; i < last; ++i) {
    if (line[i] == '\r' && state != CsvState::kQuoted) return i;
    state = csv_step(state, line[i], separator);
  }
  return std::string_view::npos;
}

bool csv_rest_well_formed(std::string_view line, std::size_t i, char separator) {
  if (line.find('"', i) == std::string_view::npos) return true;  // unquoted fields only: nothing can be wrong
  for (CsvField f; i < line.size() && line[i] == separator;)
    if (!read_csv_field(line, ++i, separator, f)) return false;
  return line.find_first_not_of('\r', i) == std::string_view::npos;  // CRs only: the line end (\r\r\n too)
}

std::string_view csv_field_value(std::string_view line, const CsvField& field, std::string& scratch) {
  std::string_view raw = line.substr(field.begin, field.end - field.begin);
  if (!field.quoted) return raw;
  std::string_view inner = raw.substr(1, raw.size() - 2);
  if (inner.find('"') == std::string_view::npos) return inner;
  scratch.clear();
  for (std::size_t i = 0; i < inner.size(); ++i) {
    scratch.push_back(inner[i]);
    if (inner[i] == '"') ++i;  // "" -> "
  }
  return scratch;
}

namespace {

// A header field's name without the blanks around it: `id, FEN, note` names FEN, as the parser reads a FEN field
// with blanks around it.
std::string_view without_blanks(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

// Calls found(index) for each column named `name` until it returns false: one pass over the header (a header
// of many thousand columns once took quadratic time, field by field from the start).
template <typename Found>
void for_each_column_named(std::string_view header, std::string_view name, char separator, Found found) {
  std::string scratch;
  if (starts_with_utf8_bom(header)) header.remove_prefix(3);
  for_each_csv_field(header, separator, [&](std::size_t i, const CsvField& f) {
    return without_blanks(csv_field_value(header, f, scratch)) != name || found(static_cast<int>(i));
  });
}

}  // namespace

int csv_column_index(std::string_view header, std::string_view name, char separator) {
  int first = -1;
  for_each_column_named(header, name, separator, [&](int i) { return first = i, false; });
  return first;
}

std::vector<int> csv_columns_named(std::string_view header, std::string_view name, char separator) {
  std::vector<int> columns;
  for_each_column_named(header, name, separator, [&](int i) { return columns.push_back(i), true; });
  return columns;
}

std::size_t csv_field_count(std::string_view row, char separator) {
  // Without a quote every separator ends a field (most rows: the byte-by-byte state walk was 16 % of dedup --count
  // --to csv, in its serial final write).
  if (row.find('"') == std::string_view::npos)
    return 1 + static_cast<std::size_t>(std::count(row.begin(), row.end(), separator));
  std::size_t fields = 1;
  CsvState state = CsvState::kFieldStart;
  for (char c : row) {
    state = csv_step(state, c, separator);
    fields += c == separator && state == CsvState::kFieldStart;
  }
  return fields;
}

void replace_csv_fields(std::string& out, std::string_view row, const std::vector<int>& columns, std::string_view value,
                        char separator) {
  std::size_t next = 0, field = 0, begin = 0, copied = 0;
  auto field_ends = [&](std::size_t end) {  // field number `field` is row[begin, end)
    if (next == columns.size() || field != static_cast<std::size_t>(columns[next])) return;
    (out += row.substr(copied, begin - copied)) += value;
    copied = end;
    ++next;
  };
  CsvState state = CsvState::kFieldStart;
  const bool quotes = row.find('"') != std::string_view::npos;  // without, every separator ends a field
  for (std::size_t i = 0; i < row.size(); ++i) {
    if (!quotes) {
      const void* at = std::memchr(row.data() + i, separator, row.size() - i);
      if (!at) break;
      i = static_cast<std::size_t>(static_cast<const char*>(at) - row.data());
    } else {
      state = csv_step(state, row[i], separator);
      if (row[i] != separator || state != CsvState::kFieldStart) continue;
    }
    field_ends(i);
    ++field;
    begin = i + 1;
  }
  field_ends(row.size());
  out += row.substr(copied);
  for (; next < columns.size(); field = static_cast<std::size_t>(columns[next++])) {
    out.append(static_cast<std::size_t>(columns[next]) - field, separator);
    out += value;
  }
}

void append_csv_field(std::string& out, std::string_view value, char separator) {
  // One pass: find_first_of with a set calls memchr on the set for each byte (38 % of a CSV -> CSV run).
  const bool needs_quotes = find_any_byte(value, 0, std::array<char, 4>{'"', '\r', '\n', separator}) != value.size();
  if (!needs_quotes) {
    out.append(value);
    return;
  }
  out.push_back('"');
  for (char c : value) {
    if (c == '"') out.push_back('"');
    out.push_back(c);
  }
  out.push_back('"');
}

}  // namespace fenmill
