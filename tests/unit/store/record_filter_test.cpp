// store::select_records: the --model/--machine/--tag selection of compare, report and export.
#include <gtest/gtest.h>

#include "store/record_sources.h"
#include "support/sample_record.h"

namespace rigbench::store {
namespace {

std::vector<RunRecord> three() {
  RunRecord a = testing::sample_record("a");
  a.model.name = "Llama-3.2-1B";
  a.model.file_type = "Q4_K_M";
  a.machine.hostname = "rig-a";
  a.tags = {"night", "v2"};
  RunRecord b = a;
  b.record_id = "b";
  b.machine.hostname = "rig-b";
  b.machine.gpus.clear();
  b.tags = {"day"};
  RunRecord c = b;
  c.record_id = "c";
  c.model.name = "stories260K";
  c.model.file_type = "F32";
  return {a, b, c};
}

std::vector<std::string> ids(const Result<std::vector<RunRecord>>& r) {
  std::vector<std::string> out;
  if (r) {
    for (const RunRecord& rec : *r) out.push_back(rec.record_id);
  }
  return out;
}

TEST(RecordFilter, EmptySelectsEverything) {
  EXPECT_EQ(ids(select_records(three(), {})), (std::vector<std::string>{"a", "b", "c"}));
}

TEST(RecordFilter, CaseInsensitiveSubstringsOfNameTypeHostCpuGpuAndTags) {
  EXPECT_EQ(ids(select_records(three(), {{"llama"}, {}, {}})), (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(ids(select_records(three(), {{"1b q4_k"}, {}, {}})), (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(ids(select_records(three(), {{}, {"RIG-B"}, {}})), (std::vector<std::string>{"b", "c"}));
  EXPECT_EQ(ids(select_records(three(), {{}, {"rtx 3090"}, {}})), (std::vector<std::string>{"a"}));  // a GPU
  EXPECT_EQ(ids(select_records(three(), {{}, {}, {"NIGHT"}})), (std::vector<std::string>{"a"}));
  // Values of one flag: any; flags together: all.
  EXPECT_EQ(ids(select_records(three(), {{"stories", "llama"}, {"rig-b"}, {}})), (std::vector<std::string>{"b", "c"}));
  EXPECT_EQ(ids(select_records(three(), {{"llama"}, {"rig-b"}, {"day"}})), (std::vector<std::string>{"b"}));
}

TEST(RecordFilter, AValueThatMatchesNothingIsAnErrorNamingIt) {
  auto r = select_records(three(), {{"llama"}, {"rig-z"}, {}});
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, ErrorCode::kUsage);
  EXPECT_EQ(r.error().message, "--machine 'rig-z': matches no stored record (machines: rig-a, rig-b)");
  auto t = select_records(three(), {{}, {}, {"weekend"}});
  ASSERT_FALSE(t);
  EXPECT_EQ(t.error().message, "--tag 'weekend': matches no stored record (tags: day, night, v2)");
  auto together = select_records(three(), {{"stories"}, {"rig-a"}, {}});
  ASSERT_FALSE(together);
  EXPECT_EQ(together.error().message, "--model 'stories', --machine 'rig-a': no stored record matches them together");
}

}  // namespace
}  // namespace rigbench::store
