// rigbench: a commit as people read it, the same length everywhere: its first 8 hex digits,
// as compare labels a build ("llama.cpp 80fb11ac"). The records, csv and json keep the full
// commit; every md line, HTML page and message shows this. Pure: no I/O.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace rigbench {

inline constexpr std::size_t kShortCommit = 8;  // hex digits shown

// `text` with every hex word longer than kShortCommit (a commit: a run of hex digits between
// characters that are neither letters nor digits) cut to kShortCommit: a commit
// ("80fb11ac73e66d89eae2c6a91d8a77428fa733ed" -> "80fb11ac") or a server's version that holds one
// (llama-server's "b7090-80fb11ac73e6..." -> "b7090-80fb11ac"); other text as it is ("506122d",
// "0.5.1", "b0-fake").
std::string short_commit(std::string_view text);

}  // namespace rigbench
