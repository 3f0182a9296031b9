#include "xiangqi/detect.h"

namespace fenmill::xiangqi {

bool looks_like_xiangqi(std::string_view record) {
  std::size_t i = 0;
  while (i < record.size() && (record[i] == ' ' || record[i] == '\t')) ++i;
  int slashes = 0;
  bool xiangqi_only = false;
  for (; i < record.size() && record[i] != ' ' && record[i] != '\t'; ++i) {
    char c = record[i];
    slashes += c == '/';
    char upper = static_cast<char>(c & ~0x20);
    xiangqi_only |= c == '9' || upper == 'A' || upper == 'C' || upper == 'E' || upper == 'H';
  }
  return slashes == 9 || (slashes != 7 && xiangqi_only);
}

}  // namespace fenmill::xiangqi
