//===- TestPaths.cpp - Where the unit tests find their inputs -------------===//
// The definitions come from tests/CMakeLists.txt, for this file only.
#include "TestPaths.h"

namespace irs::test {
const char *const SourceDir = IRS_SOURCE_DIR;
const char *const CorpusDir = IRS_CORPUS_DIR;
const char *const FakePluginsDir = IRS_FAKE_PLUGINS_DIR;
const char *const EnzymeSnapshots = IRS_ENZYME_SNAPSHOTS;
} // namespace irs::test
