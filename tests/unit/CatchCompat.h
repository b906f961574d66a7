//===- CatchCompat.h - Catch2 2 or 3 for the unit tests ---------*- C++ -*-===//
//
// The unit tests build with Catch2 2 (Debian 12, one header) and Catch2 3
// (Debian 13, the LLVM 18 build's root: headers per feature, a library).
// This is the one place that knows the difference; tests include it instead
// of a Catch2 header. UnitTestMain.cpp, which has main(), defines
// CATCH_CONFIG_RUNNER before it.
//
//===----------------------------------------------------------------------===//
#ifndef IR_SANITIZE_TESTS_UNIT_CATCHCOMPAT_H
#define IR_SANITIZE_TESTS_UNIT_CATCHCOMPAT_H

#if __has_include(<catch2/catch_all.hpp>)
#include <catch2/catch_approx.hpp>
#include <catch2/catch_test_macros.hpp>

using Catch::Approx;

// The test runner's own pieces, for the one file that has main().
#ifdef CATCH_CONFIG_RUNNER
#include <catch2/catch_session.hpp>
#include <catch2/catch_test_case_info.hpp>
#include <catch2/reporters/catch_reporter_event_listener.hpp>
#include <catch2/reporters/catch_reporter_registrars.hpp>

namespace irs::test {
/// The base of a listener that CATCH_REGISTER_LISTENER registers.
using CatchListenerBase = Catch::EventListenerBase;
} // namespace irs::test
#endif
#else
#include <catch2/catch.hpp>

#ifdef CATCH_CONFIG_RUNNER
namespace irs::test {
using CatchListenerBase = Catch::TestEventListenerBase;
} // namespace irs::test
#endif
#endif

#endif // IR_SANITIZE_TESTS_UNIT_CATCHCOMPAT_H
