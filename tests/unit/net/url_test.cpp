// net/url: parts of a server URL; credentials never in the printed and stored form.
#include "net/url.h"

#include <gtest/gtest.h>

#include "net/resolve.h"

namespace rigbench::net {
namespace {

TEST(ParseUrl, HostPortPathAndDefaults) {
  auto u = parse_url("http://127.0.0.1:8080/");
  ASSERT_TRUE(u);
  EXPECT_EQ(u->host, "127.0.0.1");
  EXPECT_EQ(u->port, 8080);
  EXPECT_EQ(u->base_path, "");
  EXPECT_EQ(u->redacted(), "http://127.0.0.1:8080");
  auto bare = parse_url("localhost:11434");
  ASSERT_TRUE(bare);
  EXPECT_EQ(bare->scheme, "http");
  EXPECT_EQ(bare->redacted(), "http://localhost:11434");
  auto https = parse_url("https://api.example.com/openai/?x=1");
  ASSERT_TRUE(https);
  EXPECT_EQ(https->port, 443);
  EXPECT_EQ(https->base_path, "/openai");
  EXPECT_EQ(https->redacted(), "https://api.example.com/openai");
  auto v6 = parse_url("http://[::1]:9000");
  ASSERT_TRUE(v6);
  EXPECT_EQ(v6->host, "::1");
  EXPECT_EQ(v6->redacted(), "http://[::1]:9000");
}

// The OpenAI base URL as OpenAI clients take it: its /v1 is the endpoints' own (before, every
// request went to /v1/v1/... and failed with no hint).
TEST(ParseUrl, AnOpenAiV1SuffixIsAccepted) {
  for (const char* text : {"http://127.0.0.1:8080/v1", "http://127.0.0.1:8080/v1/"}) {
    auto u = parse_url(text);
    ASSERT_TRUE(u);
    EXPECT_EQ(u->base_path, "");
    EXPECT_EQ(u->redacted(), "http://127.0.0.1:8080");
  }
  auto proxied = parse_url("https://gw.example.com/openai/v1");
  ASSERT_TRUE(proxied);
  EXPECT_EQ(proxied->base_path, "/openai");
  auto other = parse_url("http://127.0.0.1:8080/v10");
  ASSERT_TRUE(other);
  EXPECT_EQ(other->base_path, "/v10");
}

// A name that does not resolve is said so, not "refused" (RFC 2606: .invalid never resolves).
TEST(CannotConnect, ANameThatDoesNotResolveIsSaidSo) {
  const std::string text = cannot_connect_text("no-such-host.invalid");
  EXPECT_EQ(text.rfind("cannot connect: the host name 'no-such-host.invalid' does not resolve (", 0), 0u) << text;
  EXPECT_EQ(text.find("refused"), std::string::npos) << text;
  EXPECT_EQ(cannot_connect_text("127.0.0.1"), "cannot connect (refused or unreachable)");
}

TEST(ParseUrl, CredentialsAreKeptApartAndNeverRedactedIn) {
  auto u = parse_url("http://alice:s3cret@127.0.0.1:8080/v");
  ASSERT_TRUE(u);
  EXPECT_EQ(u->user, "alice");
  EXPECT_EQ(u->password, "s3cret");
  EXPECT_EQ(u->redacted(), "http://127.0.0.1:8080/v");
  auto bad = parse_url("http://alice:s3cret@host:99999");
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().message.find("s3cret"), std::string::npos);
}

TEST(ParseUrl, BadSchemeHostOrPortIsAUsageError) {
  EXPECT_EQ(parse_url("ftp://x").error().code, ErrorCode::kUsage);
  EXPECT_FALSE(parse_url("http://:80"));
  EXPECT_FALSE(parse_url("http://host:abc"));
}

}  // namespace
}  // namespace rigbench::net
