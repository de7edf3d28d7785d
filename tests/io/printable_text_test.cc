// Text quoted from users' files in messages: printable, one line, valid UTF-8.
#include "io/printable_text.h"

#include <gtest/gtest.h>

namespace contactlab {
namespace {

TEST(PrintableText, KeepsTextAndEscapesTheRest) {
  EXPECT_EQ(Printable("friction: 0.5"), "friction: 0.5");
  EXPECT_EQ(Printable("μ = 0.5 … ok"), "μ = 0.5 … ok");  // valid UTF-8 stays
  EXPECT_EQ(Printable("a\nb\tc"), "a\\x0ab\\x09c");      // one line
  EXPECT_EQ(Printable(std::string("\x89\xcc\xff", 3)), "\\x89\\xcc\\xff");
  // Overlong forms, surrogates and truncated sequences are not UTF-8.
  EXPECT_EQ(Printable("\xc0\xaf"), "\\xc0\\xaf");
  EXPECT_EQ(Printable("\xed\xa0\x80"), "\\xed\\xa0\\x80");
  EXPECT_EQ(Printable("\xe2\x80"), "\\xe2\\x80");
  EXPECT_EQ(Printable(std::string(100, 'x'), 5), "xxxxx…");
}

}  // namespace
}  // namespace contactlab
