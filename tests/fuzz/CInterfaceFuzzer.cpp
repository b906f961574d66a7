//===- CInterfaceFuzzer.cpp - Every C entry point on hostile input --------===//
//
// A crash in the C interface is a crash of its host (a Julia session), so
// every entry point of include/ir-sanitize-c/IRSanitize.h runs on mutated
// modules and option strings. The input is three lines and a module:
//
//   OPTIONS        for IRSNormalizeBundles (policy), IRSCheck and
//   OPTIONS2       IRSOptimizeDerivativeAccesses (the first line goes to all
//   KERNEL         three, the second to the last two; an empty KERNEL: NULL)
//   MODULE TEXT
//
// The interface's promises are checked: a known status; on success JSON and
// no message, on failure a message and no JSON; a module that failed the
// verifier on entry comes back refused (IRSStatusBadInput) and untouched
// (where LLVM can print it); a valid one stays valid after every call that
// succeeds.
//
//===----------------------------------------------------------------------===//
#include "FuzzInput.h"

#include "ir-sanitize-c/IRSanitize.h"
#include "ir-sanitize/Support/LLVMCompat.h"
#include "ir-sanitize/Support/ModuleVerifier.h"

#include "llvm-c/Core.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/raw_ostream.h"

#include <functional>
#include <string>

using namespace llvm;

namespace {

std::string printed(const Module &M) {
  std::string S;
  raw_string_ostream OS(S);
  M.print(OS, nullptr);
  return S;
}

bool knownStatus(IRSStatus S) {
  return S == IRSStatusOk || S == IRSStatusFindings || S == IRSStatusUsage ||
         S == IRSStatusBadInput || S == IRSStatusVerifierFailed;
}

/// Runs one entry point (given its out-parameters) on \p M and checks the
/// interface's promises.
void call(const char *Name, Module &M, bool ValidBefore,
          const std::function<IRSStatus(char **, char **)> &Entry) {
  // LLVM 19's printer crashes on a debug record without a location (the
  // verifier refuses it: ModuleVerifier's functionWithUnlocatedDebugRecord),
  // so such a module is compared by nothing but its refusal.
  bool Compare =
      !ValidBefore && !irs::compat::functionWithUnlocatedDebugRecord(M);
  std::string Before = Compare ? printed(M) : "";
  char *Out = reinterpret_cast<char *>(1), *Msg = reinterpret_cast<char *>(1);
  IRSStatus S = Entry(&Out, &Msg);
  if (!knownStatus(S))
    irs::fuzz::fail(Twine(Name) + ": unknown status " + Twine(int(S)));
  bool Succeeded = S == IRSStatusOk || S == IRSStatusFindings;
  if (Succeeded && (!Out || Msg))
    irs::fuzz::fail(Twine(Name) + ": success without JSON or with a message");
  if (!Succeeded && (Out || !Msg))
    irs::fuzz::fail(Twine(Name) + ": failure with JSON or without a message");
  if (!Succeeded && StringRef(Msg).contains('\n'))
    irs::fuzz::fail(Twine(Name) + ": a message of more than one line");
  IRSDisposeString(Out);
  IRSDisposeString(Msg);
  if (S == IRSStatusVerifierFailed)
    irs::fuzz::fail(Twine(Name) + ": the rewrite broke a module");
  if (!ValidBefore && S != IRSStatusUsage && S != IRSStatusBadInput)
    irs::fuzz::fail(Twine(Name) + ": an invalid module was not refused");
  if (Compare && printed(M) != Before)
    irs::fuzz::fail(Twine(Name) + ": a refused module was changed");
  if (ValidBefore && irs::verifierProblem(M))
    irs::fuzz::fail(Twine(Name) + ": a valid module came out broken");
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  StringRef Rest = irs::fuzz::asText(Data, Size);
  auto Line = [&] {
    auto [L, R] = Rest.split('\n');
    Rest = R;
    return L.str();
  };
  std::string Options = Line(), Options2 = Line(), Kernel = Line();
  unsigned Major, Minor, Patch, CAPI;
  IRSGetVersion(&Major, &Minor, &Patch, &CAPI);
  IRSGetVersion(nullptr, nullptr, nullptr, nullptr);
  if (!IRSGetLLVMVersion())
    irs::fuzz::fail("no LLVM version");
  IRSDisposeString(nullptr);

  LLVMContext Ctx;
  std::unique_ptr<Module> M = irs::fuzz::parseText(Rest, Ctx);
  if (!M)
    return 0;
  bool Valid = !irs::verifierProblem(*M);
  // Skipping the input check is the caller's promise that it is valid.
  bool NoVerify = StringRef(Options).contains("no-verify");
  LLVMModuleRef Ref = wrap(M.get());
  const char *K = Kernel.empty() ? nullptr : Kernel.c_str();
  if (Valid || !NoVerify)
    call("IRSNormalizeBundles", *M, Valid, [&](char **Out, char **Msg) {
      return IRSNormalizeBundles(Ref, Options.c_str(), Out, Msg);
    });
  call("IRSCheck", *M, Valid, [&](char **Out, char **Msg) {
    return IRSCheck(Ref, Options2.c_str(), Out, Msg);
  });
  call("IRSSplatKernels", *M, Valid, [&](char **Out, char **Msg) {
    return IRSSplatKernels(Ref, K, Out, Msg);
  });
  call("IRSOptimizeDerivativeAccesses", *M, Valid, [&](char **Out, char **Msg) {
    return IRSOptimizeDerivativeAccesses(Ref, Options2.c_str(), Out, Msg);
  });
  call("IRSRestoreBundles", *M, Valid, [&](char **Out, char **Msg) {
    return IRSRestoreBundles(Ref, Out, Msg);
  });
  // NULL arguments are usage errors, never a crash.
  char *Out = nullptr, *Msg = nullptr;
  if (IRSNormalizeBundles(nullptr, nullptr, &Out, &Msg) != IRSStatusUsage ||
      IRSRestoreBundles(Ref, nullptr, nullptr) != IRSStatusUsage)
    irs::fuzz::fail("a NULL argument was not a usage error");
  IRSDisposeString(Msg);
  return 0;
}
