// store/writable.h: why a path cannot be written, in errno's words, naming the folder.
#include "store/writable.h"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>

#include "support/temp_dir.h"

namespace rigbench {
namespace {

using testing::TempDir;

TEST(Writable, AFileInAnExistingFolderCanBeWritten) {
  TempDir dir;
  EXPECT_EQ(store::unwritable_reason(dir.file("x.html")), "");
  testing::write_file(dir.file("x.html"), "old");
  EXPECT_EQ(store::unwritable_reason(dir.file("x.html")), "");  // replaced whole
  EXPECT_TRUE(store::check_writable("--output-file", dir.file("x.html")));
}

TEST(Writable, ReasonsNameTheFolderAndNeverSaySuccess) {
  TempDir dir;
  EXPECT_EQ(store::unwritable_reason(dir.path().string() + "/"), "is a directory");
  EXPECT_EQ(store::unwritable_reason(dir.path().string()), "is a directory");
  testing::write_file(dir.file("f"), "x");
  EXPECT_EQ(store::unwritable_reason(dir.file("f/x.db")), "not a directory: " + dir.file("f"));
  EXPECT_EQ(store::unwritable_reason(dir.file("f/g/x.db")), "not a directory: " + dir.file("f"));
  EXPECT_EQ(store::unwritable_reason(""), "empty path");
  EXPECT_EQ(errno_text(0), "unknown error");
  EXPECT_EQ(errno_text(EACCES), "permission denied");
  EXPECT_EQ(errno_text(EISDIR), "is a directory");
}

TEST(Writable, CheckWritableIsOneLineWithTheHint) {
  TempDir dir;
  testing::write_file(dir.file("f"), "x");
  const Status s = store::check_writable("--output-file", dir.file("f/x.html"), "name the HTML file to write");
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error().code, ErrorCode::kRuntime);
  EXPECT_EQ(s.error().message, "--output-file '" + dir.file("f/x.html") + "': not a directory: " + dir.file("f") +
                                   "; name the HTML file to write");
}

// A new user found `--db a/b/x.db` made the missing folders while `report --output-file a/b/x.html`
// refused them ("no such directory"): every file rigbench writes gets its folders made, in
// either mode (the database is changed in place, the others replaced whole).
TEST(Writable, AMissingFolderIsMadeForEveryFile) {
  TempDir dir;
  EXPECT_EQ(store::unwritable_reason(dir.file("a/b/x.db"), store::WriteMode::kInPlace), "");
  EXPECT_TRUE(std::filesystem::is_directory(dir.file("a/b")));
  EXPECT_TRUE(store::check_writable("--output-file", dir.file("c/d/x.html")));
  EXPECT_TRUE(std::filesystem::is_directory(dir.file("c/d")));
  testing::write_file(dir.file("f"), "x");
  EXPECT_EQ(store::unwritable_reason(dir.file("f/g/x.db"), store::WriteMode::kInPlace),
            "not a directory: " + dir.file("f"));
}

TEST(Writable, ReadOnlyFolderIsPermissionDenied) {
  if (geteuid() == 0) GTEST_SKIP() << "root writes anywhere (tests/e2e/files_e2e_test.cpp runs this as nobody)";
  TempDir dir;
  std::filesystem::create_directory(dir.file("ro"));
  chmod(dir.file("ro").c_str(), 0555);
  EXPECT_EQ(store::unwritable_reason(dir.file("ro/x.db")),
            "permission denied: cannot create files in " + dir.file("ro"));
  chmod(dir.file("ro").c_str(), 0755);
}

}  // namespace
}  // namespace rigbench
