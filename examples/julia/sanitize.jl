# NOTE: Julia cannot be installed on the machines this repository is tested
# on, so this file has never been run. Every call below is made, in the same
# order and with the same arguments, by examples/embed-c/main.c, which
# scripts/test-install.sh builds against the installed package and checks
# against the command line (including the argument repacking at the end);
# scripts/check-julia-ccalls.py checks each ccall below against the installed
# header and library (names, argument and return types, argument counts).
#
# How GPUCompiler.jl or Enzyme.jl would call ir-sanitize in-process, on the
# LLVM.Module it is compiling. libIRSanitize must be built against Julia's
# own libLLVM (Julia 1.11 = LLVM 16, 1.12 = 18, 1.13 = 20, master = 22):
#
#   cmake -S . -B build/julia -G Ninja \
#     -DLLVM_DIR=$(julia -e 'print(joinpath(Sys.BINDIR, "..", "lib", "cmake", "llvm"))')
#   cmake --build build/julia && cmake --install build/julia --prefix $HOME/.local/ir-sanitize
#
# (Julia's binaries ship libLLVM but not its CMake files: use an LLVM build
# of the same version and patches, e.g. the LLVM_full_jll artifact.)

using LLVM
using JSON3

const libirs = get(ENV, "IRS_LIBRARY", joinpath(homedir(), ".local", "ir-sanitize", "lib", "libIRSanitize.so"))

# Status codes of include/ir-sanitize-c/IRSanitize.h.
const IRSStatusOk = Cint(0)
const IRSStatusFindings = Cint(1)

"""Calls an entry point that returns (status, JSON, message); frees both strings."""
function irs_call(f::Symbol, args...)
    out = Ref{Ptr{Cchar}}(C_NULL)
    msg = Ref{Ptr{Cchar}}(C_NULL)
    # ccall needs a literal library/function pair, hence the small dispatch.
    status = if f === :IRSCheck
        ccall((:IRSCheck, libirs), Cint, (LLVM.API.LLVMModuleRef, Cstring, Ptr{Ptr{Cchar}}, Ptr{Ptr{Cchar}}), args..., out, msg)
    elseif f === :IRSNormalizeBundles
        ccall((:IRSNormalizeBundles, libirs), Cint, (LLVM.API.LLVMModuleRef, Cstring, Ptr{Ptr{Cchar}}, Ptr{Ptr{Cchar}}), args..., out, msg)
    elseif f === :IRSSplatKernels
        ccall((:IRSSplatKernels, libirs), Cint, (LLVM.API.LLVMModuleRef, Ptr{Cchar}, Ptr{Ptr{Cchar}}, Ptr{Ptr{Cchar}}), args..., out, msg)
    elseif f === :IRSRestoreBundles
        ccall((:IRSRestoreBundles, libirs), Cint, (LLVM.API.LLVMModuleRef, Ptr{Ptr{Cchar}}, Ptr{Ptr{Cchar}}), args..., out, msg)
    elseif f === :IRSOptimizeDerivativeAccesses
        ccall((:IRSOptimizeDerivativeAccesses, libirs), Cint, (LLVM.API.LLVMModuleRef, Ptr{Cchar}, Ptr{Ptr{Cchar}}, Ptr{Ptr{Cchar}}), args..., out, msg)
    end
    json = out[] == C_NULL ? nothing : unsafe_string(out[])
    err = msg[] == C_NULL ? "" : unsafe_string(msg[])
    ccall((:IRSDisposeString, libirs), Cvoid, (Ptr{Cchar},), out[])
    ccall((:IRSDisposeString, libirs), Cvoid, (Ptr{Cchar},), msg[])
    status in (IRSStatusOk, IRSStatusFindings) || error("$f: status $status: $err")
    println("$f: status $status")
    return status, json
end

"""
Host-side repacking: the splatted kernel's parameter `p` is the bytes
`[offset, offset + size)` of the original argument `orig_index` (as the
host holds it, e.g. a CuDeviceArray struct or a broadcast closure, converted
with `cudaconvert`). Returns one byte vector per new parameter, for
`cudacall`/`cuLaunchKernel`'s argument array.
"""
function repack(kernel, original_args::Vector{Vector{UInt8}})
    map(kernel.params) do p
        original_args[p.orig_index+1][p.offset+1:p.offset+p.size]
    end
end

function sanitize!(mod::LLVM.Module; policy = "")
    major, minor, patch, api = Ref{Cuint}(), Ref{Cuint}(), Ref{Cuint}(), Ref{Cuint}()
    ccall((:IRSGetVersion, libirs), Cvoid, (Ref{Cuint}, Ref{Cuint}, Ref{Cuint}, Ref{Cuint}), major, minor, patch, api)
    llvm_version = unsafe_string(ccall((:IRSGetLLVMVersion, libirs), Cstring, ()))
    println("ir-sanitize $(major[]).$(minor[]).$(patch[]) (C API $(api[])) on LLVM $llvm_version")
    VersionNumber(llvm_version).major == Base.libllvm_version.major ||
        error("libIRSanitize was built for LLVM $llvm_version, Julia runs $(Base.libllvm_version)")

    ref = mod.ref                       # the LLVMModuleRef under LLVM.jl's Module
    _, check = irs_call(:IRSCheck, ref, C_NULL)
    _, report = irs_call(:IRSNormalizeBundles, ref, policy)
    _, manifest_json = irs_call(:IRSSplatKernels, ref, C_NULL)
    manifest = JSON3.read(manifest_json)
    for kernel in manifest.kernels
        # The launch's original arguments as bytes; the C consumer uses a
        # recognisable pattern instead: byte j of argument k is (37k + j) % 256.
        args = [UInt8[(37 * (o.index) + j) % 256 for j in 0:o.size-1] for o in kernel.original_params]
        for (p, bytes) in zip(kernel.params, repack(kernel, args))
            println("  param $(p.index) = arg $(p.orig_index) [$(p.offset), $(p.offset + p.size)): ",
                    join(string.(bytes; base = 16, pad = 2), " "))
        end
    end
    # ... Enzyme runs here, on the same module ...
    _, restored = irs_call(:IRSRestoreBundles, ref)
    # ... GPUCompiler optimises the derivative here; then, before codegen:
    _, accesses = irs_call(:IRSOptimizeDerivativeAccesses, ref, C_NULL)
    return (; check, report, manifest, restored, accesses)
end

# Usage:
#   LLVM.Context() do ctx
#       mod = parse(LLVM.Module, read("examples/kernels/bcast_add_1d.ll", String))
#       sanitize!(mod; policy = "gc-transition=lower;scope=all")
#   end
