// CSV (RFC 4180) pieces the pipeline needs: find one field of a line, find a column by header name,
// and write a value back with quotes where needed. A record is one line (quoted newlines are not
// supported: the puzzle and opening exports have none).
#pragma once
#include <cstddef>
#include <string>
#include <string_view>

namespace fenmill {

struct CsvField {
  std::size_t begin = 0, end = 0;  // the raw field in the line, quotes included
  bool quoted = false;
};

// Finds field number `index` (0-based). False if the line has fewer fields or a quote is unbalanced.
bool find_csv_field(std::string_view line, std::size_t index, char separator, CsvField& out);
// The field's value: the raw text, or for a quoted field the text between the quotes with "" as ".
// Uses `scratch` only when unescaping is needed.
std::string_view csv_field_value(std::string_view line, const CsvField& field, std::string& scratch);
// Index of the column named `name` in a header line, or -1.
int csv_column_index(std::string_view header, std::string_view name, char separator);
// Appends value as a CSV field, quoted if it holds the separator, a quote, CR or LF.
void append_csv_field(std::string& out, std::string_view value, char separator);

}  // namespace fenmill
