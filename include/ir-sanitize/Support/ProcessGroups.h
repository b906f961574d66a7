//===- ProcessGroups.h - A child's process group, always ended --*- C++ -*-===//
//
// Every child (opt running Enzyme, llvm-reduce, the GPU runner) runs in a
// process group of its own, and what it starts stays in that group unless it
// leaves on purpose. When the child ends, however it ends, the rest of its
// group is ended too: SIGTERM, then SIGKILL to what is left after a grace
// period. If this process itself is killed (SIGKILL, which no handler sees),
// a watchdog ends the groups still registered and removes the registered
// work directories; it is started with the first registration where the
// process owner allows it (ProcessHooks::CleanUpAfterKill).
//
// Everything here except the registration is async-signal-safe: the interrupt
// handler and the watchdog (a fork() of a possibly multi-threaded process)
// use it.
//
//===----------------------------------------------------------------------===//
#ifndef IR_SANITIZE_SUPPORT_PROCESSGROUPS_H
#define IR_SANITIZE_SUPPORT_PROCESSGROUPS_H

#include "llvm/ADT/StringRef.h"

namespace irs {

/// How long the rest of a child's group has between SIGTERM and SIGKILL.
constexpr unsigned GroupGraceMilliseconds = 500;

/// Whether process group \p Group has a member that is not a zombie (on
/// Linux from /proc, elsewhere any member).
bool groupHasLiveMembers(int Group);

/// Ends process groups \p Groups[0..N): nothing for a group without a live
/// member, else SIGTERM (and SIGCONT, for stopped members), then SIGKILL to
/// the groups with members left after \p GraceMs, then waits (at most a few
/// seconds) until none has any. Returns whether none is left.
bool endProcessGroups(const int *Groups, unsigned N,
                      unsigned GraceMs = GroupGraceMilliseconds);
inline bool endProcessGroup(int Group,
                            unsigned GraceMs = GroupGraceMilliseconds) {
  return endProcessGroups(&Group, 1, GraceMs);
}

/// Removes \p Dir and what is in it (directories a few levels deep),
/// following no symbolic link.
void removeTree(const char *Dir);

/// With ProcessHooks::CleanUpAfterKill, tells the watchdog (started on the
/// first call) to end \p Group or remove \p Dir should this process die
/// before it unregisters them; without, does nothing. A directory longer
/// than about 4000 bytes is not registered.
void watchGroup(int Group);
void unwatchGroup(int Group);
void watchDirectory(llvm::StringRef Dir);
void unwatchDirectory(llvm::StringRef Dir);

} // namespace irs

#endif
