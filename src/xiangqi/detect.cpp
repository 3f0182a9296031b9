#include "xiangqi/detect.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace fenmill::xiangqi {

bool looks_like_xiangqi(std::string_view record) {
  std::size_t i = 0;
  const std::size_t n = record.size();
  while (i < n && (record[i] == ' ' || record[i] == '\t')) ++i;
  int slashes = 0;
  bool xiangqi_only = false;
#if defined(__SSE2__)
  // 16 bytes a step: under --variant auto this runs for every record, and byte by byte it was a third of the
  // run's time. Bits past the field's end (its first blank) are dropped.
  const __m128i slash = _mm_set1_epi8('/'), space = _mm_set1_epi8(' '), tab = _mm_set1_epi8('\t'),
                nine = _mm_set1_epi8('9'), lower = _mm_set1_epi8(0x20), a = _mm_set1_epi8('a'), c = _mm_set1_epi8('c'),
                e = _mm_set1_epi8('e'), h = _mm_set1_epi8('h');
  for (; n - i >= 16; i += 16) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(record.data() + i));
    const __m128i folded = _mm_or_si128(v, lower);
    const unsigned blank = static_cast<unsigned>(_mm_movemask_epi8(_mm_or_si128(_mm_cmpeq_epi8(v, space), _mm_cmpeq_epi8(v, tab))));
    const unsigned keep = blank ? (1u << __builtin_ctz(blank)) - 1 : 0xFFFFu;
    const auto only = static_cast<unsigned>(_mm_movemask_epi8(
        _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, nine), _mm_cmpeq_epi8(folded, a)),
                     _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(folded, c), _mm_cmpeq_epi8(folded, e)),
                                  _mm_cmpeq_epi8(folded, h)))));
    slashes += __builtin_popcount(static_cast<unsigned>(_mm_movemask_epi8(_mm_cmpeq_epi8(v, slash))) & keep);
    xiangqi_only |= (only & keep) != 0;
    if (blank) return slashes == 9 || (slashes != 7 && xiangqi_only);
  }
#endif
  for (; i < n && record[i] != ' ' && record[i] != '\t'; ++i) {
    char ch = record[i];
    slashes += ch == '/';
    char upper = static_cast<char>(ch & ~0x20);
    xiangqi_only |= ch == '9' || upper == 'A' || upper == 'C' || upper == 'E' || upper == 'H';
  }
  return slashes == 9 || (slashes != 7 && xiangqi_only);
}

}  // namespace fenmill::xiangqi
