#include "formats/jsonl.h"

namespace fenmill {

bool JsonlFieldFinder::find(std::string_view line, std::string_view field, Found& out, std::string& error) {
  while (!line.empty() && (line.back() == '\r' || line.back() == ' ' || line.back() == '\t')) line.remove_suffix(1);
  padded_.assign(line);
  padded_.resize(line.size() + simdjson::SIMDJSON_PADDING, ' ');
  if (auto err = validator_.parse(padded_.data(), line.size(), false).error()) {
    error = simdjson::error_message(err);
    return false;
  }
  simdjson::ondemand::document doc;
  if (auto err = parser_.iterate(padded_.data(), line.size(), padded_.size()).get(doc)) {
    error = simdjson::error_message(err);
    return false;
  }
  simdjson::ondemand::object object;
  if (auto err = doc.get_object().get(object)) {
    error = std::string("not a JSON object: ") + simdjson::error_message(err);
    return false;
  }
  simdjson::ondemand::value value;
  if (object.find_field_unordered(field).get(value) != simdjson::SUCCESS) {
    error = "no field \"" + std::string(field) + "\"";
    return false;
  }
  std::string_view raw = value.raw_json_token();
  while (!raw.empty() && (raw.back() == ' ' || raw.back() == '\t' || raw.back() == '\n' || raw.back() == '\r'))
    raw.remove_suffix(1);
  std::string_view text;
  if (value.get_string().get(text) != simdjson::SUCCESS) {
    error = "field \"" + std::string(field) + "\" is not a string";
    return false;
  }
  value_.assign(text);
  out.value = value_;
  out.raw_begin = static_cast<std::size_t>(raw.data() - padded_.data());
  out.raw_end = out.raw_begin + raw.size();
  return true;
}

std::size_t JsonlFieldFinder::raw_offset(std::string_view raw_token, std::size_t decoded) {
  std::size_t i = 1, n = 0;  // past the opening quote
  while (i + 1 < raw_token.size() && n < decoded) {
    if (raw_token[i] != '\\') {
      ++i, ++n;
      continue;
    }
    if (raw_token[i + 1] != 'u') {  // \" \\ \/ \b \f \n \r \t: one byte
      i += 2, ++n;
      continue;
    }
    unsigned code = 0;
    for (std::size_t k = i + 2; k < i + 6 && k < raw_token.size(); ++k) {
      char c = raw_token[k];
      code = code * 16 + static_cast<unsigned>(c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10);
    }
    i += 6;
    if (code >= 0xD800 && code < 0xDC00) {  // a surrogate pair: one 4-byte character
      i += 6;
      n += 4;
    } else {
      n += code < 0x80 ? 1 : code < 0x800 ? 2 : 3;
    }
  }
  return i;
}

}  // namespace fenmill
