// libFuzzer target: the CSV pieces (formats/csv.h) on arbitrary bytes.
// Invariants: rows cut by for_each_csv_row put back together give the input, each numbered by its first line;
// the chunk feed's incremental scan (scan_csv_rows) cuts at the same place however the bytes arrive, and only
// where a row ends, also with rows past the row limit (under a small limit), and the bytes up to a cut hold the
// same rows as the whole; and any list of values written with append_csv_field reads back, field by field, as itself,
// also after replace_csv_fields put another value in some columns, and csv_field_count counts them.
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "formats/csv.h"

namespace {

void check_rows(std::string_view bytes, char separator, std::size_t max_row) {
  std::string joined;
  std::vector<std::size_t> row_ends;  // offsets one past each row's '\n'
  std::uint64_t expected_line = 1;
  const std::uint64_t lines = fenmill::for_each_csv_row(bytes, separator, [&](std::string_view row, std::uint64_t line) {
    if (row.data() != bytes.data() + joined.size() || line != expected_line) std::abort();
    joined.append(row);
    if (joined.size() < bytes.size()) joined.push_back('\n');
    row_ends.push_back(joined.size());
    for (char c : row) expected_line += c == '\n';
    ++expected_line;
  }, max_row);
  if (joined != bytes) std::abort();
  const std::uint64_t newlines = static_cast<std::uint64_t>(std::count(bytes.begin(), bytes.end(), '\n'));
  if (lines != newlines + (!bytes.empty() && bytes.back() != '\n')) std::abort();

  fenmill::CsvRowScan whole;
  fenmill::scan_csv_rows(bytes, whole, separator, max_row);
  fenmill::CsvRowScan pieces;  // the same bytes arriving in pieces of 1, 2, 3, ... bytes
  std::vector<std::size_t> cuts;
  for (std::size_t end = 0, step = 1; end < bytes.size(); ++step) {
    end = std::min(bytes.size(), end + step);
    fenmill::scan_csv_rows(bytes.substr(0, end), pieces, separator, max_row);
    cuts.push_back(pieces.last_cut);
  }
  // The bytes up to any cut (a chunk the feed sends to a worker) hold the same rows as the whole input there.
  std::vector<std::string_view> all_rows;
  fenmill::for_each_csv_row(bytes, separator, [&](std::string_view row, std::uint64_t) { all_rows.push_back(row); }, max_row);
  for (std::size_t cut : cuts) {
    std::size_t k = 0;
    fenmill::for_each_csv_row(bytes.substr(0, cut), separator, [&](std::string_view row, std::uint64_t) {
      if (k >= all_rows.size() || row.data() != all_rows[k].data() || row.size() != all_rows[k].size()) std::abort();
      ++k;
    }, max_row);
  }
  if (pieces.last_cut != whole.last_cut || pieces.state != whole.state || pieces.start != whole.start) std::abort();
  if (whole.last_cut != 0) {
    bool at_row_end = false;
    for (std::size_t end : row_ends) at_row_end |= end == whole.last_cut && bytes[end - 1] == '\n';
    if (!at_row_end) std::abort();
  }
  // Without a row past the limit, the scanner's state is the plain state machine's.
  if (max_row == fenmill::kMaxCsvRowBytes &&
      fenmill::csv_ends_in_quotes(bytes.substr(whole.last_cut), separator) != (whole.state == fenmill::CsvState::kQuoted))
    std::abort();
}

// Values are the input cut at 0xFF bytes; written as one row, each must read back as itself. Then the columns in
// `columns` (bits of a mask) are replaced (dedup --count's count columns): those read back as the new value, the
// others as before, and a row too short gets empty fields up to the last column.
void check_field_round_trip(std::string_view bytes, char separator, unsigned columns_mask) {
  std::vector<std::string_view> values;
  for (std::size_t start = 0;;) {
    std::size_t end = bytes.find('\xFF', start);
    values.push_back(bytes.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start));
    if (end == std::string_view::npos) break;
    start = end + 1;
  }
  std::string row;
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (i > 0) row.push_back(separator);
    fenmill::append_csv_field(row, values[i], separator);
  }
  int rows = 0;
  fenmill::for_each_csv_row(row, separator, [&](std::string_view, std::uint64_t) { ++rows; });
  if (rows != (row.empty() ? 0 : 1)) std::abort();  // an empty input has no rows
  std::string scratch;
  for (std::size_t i = 0; i < values.size(); ++i) {
    fenmill::CsvField field;
    if (!fenmill::find_csv_field(row, i, separator, field)) std::abort();
    if (fenmill::csv_field_value(row, field, scratch) != values[i]) std::abort();
  }
  fenmill::CsvField past;
  if (fenmill::find_csv_field(row, values.size(), separator, past)) std::abort();
  if (!values.empty() && fenmill::csv_field_count(row, separator) != values.size()) std::abort();

  std::vector<int> columns;
  for (int i = 0; i < 6; ++i)
    if (columns_mask >> i & 1) columns.push_back(i);
  std::string replaced;
  fenmill::replace_csv_fields(replaced, row, columns, "12", separator);
  const std::size_t fields = std::max(values.size(), columns.empty() ? 0 : static_cast<std::size_t>(columns.back()) + 1);
  for (std::size_t i = 0; i < fields; ++i) {
    fenmill::CsvField field;
    if (!fenmill::find_csv_field(replaced, i, separator, field)) std::abort();
    const bool chosen = std::find(columns.begin(), columns.end(), static_cast<int>(i)) != columns.end();
    const std::string_view expected = chosen ? "12" : i < values.size() ? values[i] : "";
    if (fenmill::csv_field_value(replaced, field, scratch) != expected) std::abort();
  }
  if (fenmill::find_csv_field(replaced, fields, separator, past)) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const char separator = ",;\t|"[data[0] & 3];
  const std::string_view bytes(reinterpret_cast<const char*>(data) + 1, size - 1);
  check_rows(bytes, separator, fenmill::kMaxCsvRowBytes);
  check_rows(bytes, separator, 1 + (size > 1 ? data[1] % 40 : 0));  // rows past a small limit: cut at their first line
  check_field_round_trip(bytes, separator, size > 1 ? data[1] & 63 : 0);
  std::string replaced;  // any row, malformed quoting included: no crash
  fenmill::replace_csv_fields(replaced, bytes.substr(0, bytes.find('\n')), {0, 2}, "12", separator);
  return 0;
}
