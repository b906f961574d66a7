#include "ir-sanitize/Support/InputFile.h"

#include "CatchCompat.h"

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
  CHECK(!readInputFile(Path, InputKind{"test file", 4}, Text, Problem));
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
