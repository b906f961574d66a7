#include "ir-sanitize/Transforms/EnzymeSlice.h"
#include "../TestSupport.h"

#include "llvm/IR/Verifier.h"

#include "CatchCompat.h"

using namespace llvm;
using namespace irs;
using namespace irs::test;

static const char *Dump = R"(
@tbl = internal global ptr @callee
@unused_tbl = internal global ptr @ballast
@alias = internal alias i32 (), ptr @ballast
@llvm.used = appending global [1 x ptr] [ptr @ballast2], section "llvm.metadata"

define i32 @callee() personality ptr @pers {
  %p = load ptr, ptr @tbl
  ret i32 1
}
define i32 @pers() {
  ret i32 0
}
define double @f(double %x) {
  %r = call i32 @callee()
  ret double %x
}
define double @driver(double %x) {
  %d = call double (...) @__enzyme_fwddiff(ptr @f, double %x, double 1.0)
  ret double %d
}
define i32 @ballast() {
  %r = call i32 @ballast2()
  ret i32 %r
}
define i32 @ballast2() {
  %r = call i32 @alias()
  ret i32 %r
}
declare double @__enzyme_fwddiff(...)
declare void @unused_decl()
)";

TEST_CASE("a slice keeps what the Enzyme calls reach", "[EnzymeSlice]") {
  LLVMContext Ctx;
  std::unique_ptr<Module> M = parseModule(Ctx, Dump);
  REQUIRE(M);
  SliceStats S = sliceToEnzymeCalls(*M);
  CHECK_FALSE(verifyModule(*M, &errs()));
  for (const char *Kept : {"driver", "f", "callee", "pers", "__enzyme_fwddiff"})
    CHECK(M->getFunction(Kept));
  CHECK(M->getNamedGlobal("tbl"));
  for (const char *Gone : {"ballast", "ballast2", "unused_decl"})
    CHECK_FALSE(M->getFunction(Gone));
  CHECK_FALSE(M->getNamedGlobal("unused_tbl"));
  CHECK_FALSE(M->getNamedGlobal("llvm.used"));
  CHECK_FALSE(M->getNamedAlias("alias"));
  CHECK(S.Kept == 6);
  CHECK(S.Removed == 6);
}

TEST_CASE("a module without Enzyme calls is not sliced", "[EnzymeSlice]") {
  LLVMContext Ctx;
  std::unique_ptr<Module> M =
      parseModule(Ctx, "define void @f() {\n  ret void\n}\n");
  REQUIRE(M);
  SliceStats S = sliceToEnzymeCalls(*M);
  CHECK(S.Removed == 0);
  CHECK(M->getFunction("f"));
}
