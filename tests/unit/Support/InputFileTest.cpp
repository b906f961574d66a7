#include "ir-sanitize/Support/InputFile.h"

#include "CatchCompat.h"
#include "TestPaths.h"

#include <cstdio>
#include <cstring>
#include <fstream>
#include <string>

#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

using namespace irs;

namespace {
std::string tempPath(const char *Stem) {
  return "/tmp/irs-inputfile-" + std::to_string(::getpid()) + "-" + Stem;
}
} // namespace

TEST_CASE("readInputFile reads a regular file within the limit",
          "[InputFile]") {
  std::string Path = tempPath("plain");
  std::ofstream(Path) << "hello";
  std::string Text, Problem;
  CHECK(readInputFile(Path, LaunchSpecInput, Text, Problem));
  CHECK(Text == "hello");
  CHECK(
      !readInputFile(Path, InputKind{"test file", 4, nullptr}, Text, Problem));
  CHECK(Problem == "larger than the test file limit of 0 MiB");
  std::remove(Path.c_str());
}

TEST_CASE("readInputFile refuses what is not a regular file", "[InputFile]") {
  std::string Text, Problem;
  CHECK(!readInputFile("/dev/zero", RunPlanInput, Text, Problem));
  CHECK(Problem == "is a device, not a regular file");
  CHECK(!readInputFile("/tmp", RunPlanInput, Text, Problem));
  CHECK(Problem == "is a directory, not a regular file");
  // A FIFO without a writer: opening it must neither block nor succeed.
  std::string Fifo = tempPath("fifo");
  REQUIRE(::mkfifo(Fifo.c_str(), 0600) == 0);
  CHECK(!readInputFile(Fifo, PTXInput, Text, Problem));
  CHECK(Problem == "is a FIFO, not a regular file");
  std::remove(Fifo.c_str());
  // A socket cannot even be opened (ENXIO): the message says what it is.
  std::string Socket = tempPath("socket");
  int FD = ::socket(AF_UNIX, SOCK_STREAM, 0);
  sockaddr_un Addr{};
  Addr.sun_family = AF_UNIX;
  std::strncpy(Addr.sun_path, Socket.c_str(), sizeof Addr.sun_path - 1);
  REQUIRE(::bind(FD, reinterpret_cast<sockaddr *>(&Addr), sizeof Addr) == 0);
  CHECK(!readInputFile(Socket, ModuleInput, Text, Problem));
  CHECK(Problem == "is a socket, not a regular file");
  ::close(FD);
  std::remove(Socket.c_str());
  CHECK(!readInputFile(tempPath("missing"), ModuleInput, Text, Problem));
  CHECK(Problem == "No such file or directory");
}

TEST_CASE("readInputFile refuses a name with a NUL byte; readInputFileFrom "
          "reads from an offset within the limit",
          "[InputFile]") {
  std::string Path = tempPath("offset");
  std::ofstream(Path) << "0123456789";
  std::string Text, Problem;
  CHECK(!readInputFile(Path + std::string("\0x", 2), LaunchSpecInput, Text,
                       Problem));
  CHECK(Problem == "the file name contains a NUL byte");
  CHECK(readInputFileFrom(Path, LaunchSpecInput, 4, Text, Problem));
  CHECK(Text == "456789");
  // The limit counts from the offset: 6 bytes are left, 4 allowed.
  CHECK(!readInputFileFrom(Path, InputKind{"test file", 4, nullptr}, 4, Text,
                           Problem));
  CHECK(readInputFileFrom(Path, InputKind{"test file", 4, nullptr}, 6, Text,
                          Problem));
  CHECK(Text == "6789");
  CHECK(readInputFileFrom(Path, LaunchSpecInput, 20, Text, Problem));
  CHECK(Text.empty());
  std::remove(Path.c_str());
}

TEST_CASE("every input kind names the fuzz target of its parser",
          "[InputFile]") {
  // Every reader is fuzzed: each kind's target is built by tests/fuzz.
  std::ifstream In(irs::test::sourcePath("tests/fuzz/CMakeLists.txt"));
  std::string CMake((std::istreambuf_iterator<char>(In)),
                    std::istreambuf_iterator<char>());
  REQUIRE(!CMake.empty());
  for (const InputKind *K : AllInputKinds) {
    INFO(K->What);
    CHECK(K->MaxBytes > 0);
    if (!K->Fuzzer)
      continue;
    std::string Name = K->Fuzzer;
    CHECK((CMake.find("irs_add_fuzzer(" + Name + " ") != std::string::npos ||
           CMake.find("irs-fuzz-" + Name + " ") != std::string::npos));
  }
}
