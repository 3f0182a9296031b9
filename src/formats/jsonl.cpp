#include "formats/jsonl.h"

namespace fenmill {

bool JsonlFieldFinder::find(std::string_view line, std::string_view field, Found& out, std::string& error) {
  while (!line.empty() && (line.back() == '\r' || line.back() == ' ' || line.back() == '\t')) line.remove_suffix(1);
  padded_.assign(line);
  padded_.resize(line.size() + simdjson::SIMDJSON_PADDING, ' ');
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

}  // namespace fenmill
