// bench/device_check's kit step: a program built against the kit's prefix alone (pkg-config's
// cpp-httplib, libcurl and fmt) and run, before the long build: the headers, the link and the
// libraries found at run time through DT_RPATH (libcurl's own dependencies too) on this image.
// Prints libcurl's version line.
#include <curl/curl.h>
#include <fmt/core.h>
#include <httplib.h>

int main() {
  httplib::Client client("http://127.0.0.1:1");  // constructs only: nothing is sent
  fmt::print("{}\n", curl_version());
  return 0;
}
