#include "ir-sanitize/Analysis/EnzymeCalls.h"

#include "../TestSupport.h"

#include "CatchCompat.h"

using namespace llvm;
using namespace irs;
using namespace irs::test;

TEST_CASE("modules that bring their own __enzyme_ calls are recognised",
          "[EnzymeCalls]") {
  LLVMContext Ctx;
  auto M = parseModule(Ctx, R"(
define double @sq(double %x) {
  %y = fmul double %x, %x
  ret double %y
}
define double @d(double %x) {
  %r = call double (...) @__enzyme_autodiff(ptr @sq, double %x)
  ret double %r
}
declare double @__enzyme_autodiff(...)
)");
  CHECK(hasEnzymeCalls(*M));
  // A declaration alone, or a use that is not a call, is not a call.
  auto Plain = parseModule(Ctx, R"(
declare double @__enzyme_autodiff(...)
@p = global ptr @__enzyme_fwddiff
declare double @__enzyme_fwddiff(...)
define double @__enzyme_not_an_entry(double %x) {
  ret double %x
}
define double @g(double %x) {
  %r = call double @__enzyme_not_an_entry(double %x)
  ret double %r
}
)");
  CHECK_FALSE(hasEnzymeCalls(*Plain));
}

TEST_CASE("wrapper and copy names", "[EnzymeCalls]") {
  CHECK(wrapperName("k", DiffMode::Forward) == "k.fwd");
  CHECK(wrapperName("k", DiffMode::Reverse) == "k.rev");
  CHECK(primalCopyName("k") == "k.primal");
  LLVMContext Ctx;
  auto M = parseModule(Ctx, "define void @k() { ret void }\n"
                            "declare void @d()");
  CHECK(userFacingName(*M, "k.primal") == "k");
  CHECK(userFacingName(*M, "d.primal") == "d.primal"); // a declaration
  CHECK(userFacingName(*M, "x.primal") == "x.primal");
  CHECK(userFacingName(*M, "k") == "k");
}
