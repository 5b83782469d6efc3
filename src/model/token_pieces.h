// rigbench: whether a token's text, decoded as llama.cpp decodes it for output, is valid UTF-8
// on its own. A synthetic model's random weights pick any token in any order, so a byte-level
// token that holds part of a character (GPT-2's "Ã" for byte 0xC3, SentencePiece's <0xB4>) can
// follow one that does not continue it: the answer is then not UTF-8, which llama-server's
// output parser refuses ("The model produced output that does not match the expected
// Content-only format": common/peg-parser.cpp fails on invalid UTF-8). No I/O.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rigbench::model {

// GGUF token types (gguf-py's order): normal 1, unknown 2, control 3, user-defined 4, unused 5, byte 6.
inline constexpr int32_t kTokenNormal = 1, kTokenUnknown = 2, kTokenControl = 3, kTokenUnused = 5, kTokenByte = 6;

// The bytes a GPT-2 byte-level BPE token's text stands for (each character one byte through
// GPT-2's bytes_to_unicode table: "Ġ" is ' ', "Ã" is 0xC3); nullopt when a character is not in
// the table.
std::optional<std::string> byte_level_bytes(std::string_view token_text);

// Whether `bytes` is well-formed UTF-8 (no stray continuation byte, no sequence cut short,
// overlong or past U+10FFFF, no surrogate).
bool valid_utf8(std::string_view bytes);

// The tokens of `tokens` (their `types`, same length) whose output piece is not valid UTF-8 on
// its own: normal tokens of a byte-level vocabulary (`byte_level`: tokenizer.ggml.model
// "gpt2") whose bytes are not, and byte tokens <0x80>..<0xFF>. Their indices, ascending.
std::vector<std::size_t> partial_character_tokens(const std::vector<std::string>& tokens,
                                                  const std::vector<int32_t>& types, bool byte_level);

}  // namespace rigbench::model
