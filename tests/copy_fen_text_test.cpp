// copy_fen_text (fen/write.h) copies a record's text to FEN output in overlapping 16-byte pieces, a different set of
// pieces for each length class: every length from 0 to kMaxFenLength must come out whole, with nothing written past
// it and nothing read past the text's end (the text ends at an unreadable page).
#include <gtest/gtest.h>

#include <string>
#include <string_view>

#include "fen/write.h"
#include "guarded_page.h"

namespace fenmill {
namespace {

TEST(CopyFenText, EveryLengthWholeAndNothingPastIt) {
  GuardedPage page;
  ASSERT_TRUE(page.ok());
  std::string text;
  for (std::size_t n = 0; n <= kMaxFenLength; ++n) {
    text.resize(n);
    for (std::size_t i = 0; i < n; ++i) text[i] = static_cast<char>('!' + (i * 7 + n) % 90);
    const char* at = page.place(text.data(), n, 0, '#');  // the last byte of the text is the page's last
    char out[kMaxFenLength + 32];
    std::string(sizeof out, '~').copy(out, sizeof out);
    ASSERT_EQ(copy_fen_text(std::string_view(at, n), out), n);
    ASSERT_EQ(std::string_view(out, n), text) << n;
    for (std::size_t i = n; i < sizeof out; ++i) ASSERT_EQ(out[i], '~') << "byte " << i << " written, length " << n;
  }
}

}  // namespace
}  // namespace fenmill
