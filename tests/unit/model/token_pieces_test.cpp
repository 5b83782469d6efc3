// model/token_pieces: GPT-2 byte-level token text to bytes, UTF-8 validity, and which tokens
// are part of a character (the ones a synthetic model's tokenizer marks unused).
#include "model/token_pieces.h"

#include <gtest/gtest.h>

namespace rigbench::model {
namespace {

TEST(TokenPieces, ByteLevelTextStandsForBytes) {
  EXPECT_EQ(byte_level_bytes("\xC4\xA0the"), " the");  // "Ġthe"
  EXPECT_EQ(byte_level_bytes("\xC4\x8A"), "\n");       // "Ċ"
  EXPECT_EQ(byte_level_bytes("\xC3\x83"), "\xC3");     // "Ã": the first byte of a 2-byte character
  EXPECT_EQ(byte_level_bytes("\xC3\x83\xC2\xA9"), "\xC3\xA9");  // "Ã©": "é" whole
  EXPECT_FALSE(byte_level_bytes("\xE2\x96\x81").has_value());    // "▁" is no byte-level character
}

TEST(TokenPieces, ValidUtf8) {
  EXPECT_TRUE(valid_utf8("plain"));
  EXPECT_TRUE(valid_utf8("\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80"));  // é € 😀
  EXPECT_FALSE(valid_utf8("\xB4"));                                  // a stray continuation byte
  EXPECT_FALSE(valid_utf8("\xC3"));                                  // cut short
  EXPECT_FALSE(valid_utf8("\xC3 "));                                 // not continued
  EXPECT_FALSE(valid_utf8("\xC0\xAF"));                              // overlong
  EXPECT_FALSE(valid_utf8("\xED\xA0\x80"));                          // a surrogate
  EXPECT_FALSE(valid_utf8("\xF4\x90\x80\x80"));                      // past U+10FFFF
}

TEST(TokenPieces, PartialCharacterTokensOfBothVocabularyKinds) {
  const std::vector<std::string> bpe = {"\xC4\xA0the", "\xC3\x83", "\xC3\x83\xC2\xA9", "<|endoftext|>", "\xC2\xB4"};
  EXPECT_EQ(partial_character_tokens(bpe, {kTokenNormal, kTokenNormal, kTokenNormal, kTokenControl, kTokenNormal}, true),
            (std::vector<std::size_t>{1, 4}));
  // SentencePiece: byte tokens 0x80 and above; its normal tokens are text.
  const std::vector<std::string> spm = {"<0x0A>", "<0xB4>", "\xE2\x96\x81tok", "<0xFF>"};
  EXPECT_EQ(partial_character_tokens(spm, {kTokenByte, kTokenByte, kTokenNormal, kTokenByte}, false),
            (std::vector<std::size_t>{1, 3}));
}

}  // namespace
}  // namespace rigbench::model
