# scripts/packages.sh: the Debian 12 packages the build needs, sourced by scripts/setup (which
# installs them all) and scripts/device-kit (which carries the libraries to a machine that has a
# compiler, CMake and Ninja but no network). Three arrays:
#   toolchain_packages  compilers and build tools (a GPU machine's image has its own)
#   library_packages    what CMake finds (find_package, pkg-config) and what the bench scripts
#                       run (jq): the libraries rigbench links and their headers
#   test_packages       GoogleTest, Google Benchmark: the test suites alone
toolchain_packages=(build-essential cmake ninja-build ccache git pkg-config
                    python3)  # python3: the fit cases and the architecture sweep (tests)
library_packages=(libcli11-dev nlohmann-json3-dev libfmt-dev libsqlite3-dev sqlite3 libxxhash-dev jq
                  libboost-math-dev libhowardhinnant-date-dev
                  libcpp-httplib-dev  # serve-bench's HTTP client (a compiled library, pkg-config cpp-httplib)
                  libcurl4-openssl-dev)  # serve-bench's load: libcurl's multi interface, many streams on one thread
test_packages=(libgtest-dev libgmock-dev libbenchmark-dev)
