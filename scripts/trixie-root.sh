#!/usr/bin/env bash
# The Debian 13 (trixie) root that the LLVM 18 build lives in: Debian 12 has
# no llvm-18, trixie's needs trixie's C library (docs/LLVMVersions.md).
# Everything that knows about the root is here; scripts/setup.sh and
# scripts/test.sh call it.
#
#   trixie-root.sh ensure PKG...   make the root if it does not exist yet
#                                  (debootstrap; installs debootstrap here
#                                  first) and install PKG... inside it
#                                  (scripts/setup.sh names them)
#   trixie-root.sh run CMD...      run CMD inside the root, in this repository
#   trixie-root.sh llvm V CMD...   run CMD where LLVM V is: inside the root for
#                                  the versions it holds, here for the others
#   trixie-root.sh holds V         exit 0 if LLVM V is built inside the root
#
# The root is ${IRS_TRIXIE_ROOT:-/var/lib/ir-sanitize/trixie}, kept between
# runs (1.7 GB). Needs root (debootstrap, chroot, mount) and, to make
# it, the network (deb.debian.org, or $IRS_DEBIAN_MIRROR).
#
# Inside the root the repository, ../shared (the Enzyme plugins, the corpus)
# and CUDA (/usr/local/cuda) appear at the same paths as here, so a build
# directory's absolute paths mean the same inside and out. They are mounted
# in a mount namespace of the command's own (unshare): the mounts exist only
# while the command runs and vanish with it however it ends, so no run ever
# leaves a mount behind, and deleting the root never reaches the repository.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
root=${IRS_TRIXIE_ROOT:-/var/lib/ir-sanitize/trixie}
mirror=${IRS_DEBIAN_MIRROR:-http://deb.debian.org/debian}
# The LLVM versions built inside the root (not in Debian 12, in Debian 13).
root_llvm_versions="18"
# Written when the packages are in: the root is ready to build in.
ready=$root/etc/ir-sanitize-packages

die() {
  echo "trixie-root: $*" >&2
  exit 1
}

check_privileges() {
  [ "$(id -u)" = 0 ] ||
    die "the Debian 13 root of the LLVM 18 build needs root (debootstrap, chroot, mount); run as root, or leave 18 out of IRS_LLVM_VERSIONS"
  unshare --mount true 2>/dev/null ||
    die "the Debian 13 root of the LLVM 18 build needs mount namespaces (unshare --mount): run as root with CAP_SYS_ADMIN (e.g. a privileged container)"
}

# in_namespace ROOT CMD...: CMD in a mount namespace of its own where ROOT
# has /proc, /dev, the host's resolv.conf (for apt), and the repository,
# ../shared and CUDA at their paths here.
in_namespace() {
  local target=$1
  shift
  # SOURCE TARGET rw|ro: the repository at its path as this shell names it
  # (symbolic links in it are real folders inside the root), ../shared
  # beside it, CUDA; only the repository writable.
  local binds=("$repo" "$repo" rw)
  [ -d "$repo/../shared" ] && binds+=("$repo/../shared" "$(dirname "$repo")/shared" ro)
  [ -d /usr/local/cuda/ ] && binds+=(/usr/local/cuda/ /usr/local/cuda ro)
  unshare --mount --propagation private -- bash -euc '
    target=$1 nbinds=$2
    shift 2
    mount -t proc proc "$target/proc"
    mount --rbind /dev "$target/dev"
    if [ -f /etc/resolv.conf ]; then
      [ -e "$target/etc/resolv.conf" ] || : >"$target/etc/resolv.conf"
      mount --bind /etc/resolv.conf "$target/etc/resolv.conf"
    fi
    for ((i = 0; i < nbinds; i++)); do
      mkdir -p "$target$2"
      mount --bind -o "$3" "$1" "$target$2"
      shift 3
    done
    exec "$@"' in_namespace "$target" $((${#binds[@]} / 3)) "${binds[@]}" "$@"
}

# The environment of a command inside the root: a clean one, plus the
# project's own variables. The root keeps its own ccache (a different
# compiler), with the repository's parent as base directory.
root_env() {
  local name
  env_args=(PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
    HOME=/root LANG=C.UTF-8 "TERM=${TERM:-dumb}" DEBIAN_FRONTEND=noninteractive
    CCACHE_DIR=/root/.cache/ccache "CCACHE_BASEDIR=$(dirname "$repo")")
  for name in $(compgen -e); do
    case $name in
      IRS_* | ENZYME_* | CTEST_* | CMAKE_BUILD_PARALLEL_LEVEL | LIT_*)
        env_args+=("$name=${!name}")
        ;;
    esac
  done
}

# ensure PKG...
ensure() {
  [ $# -gt 0 ] || die "ensure: no packages"
  if [ -f "$ready" ] && chroot "$root" dpkg -s "$@" >/dev/null 2>&1; then
    return 0
  fi
  check_privileges
  case $root/ in
    "$repo"/*) die "IRS_TRIXIE_ROOT ($root) must be outside the repository" ;;
  esac
  local start=$SECONDS log
  rm -f "$ready"
  if [ ! -x "$root/usr/bin/apt-get" ]; then
    if ! command -v debootstrap >/dev/null; then
      echo "== trixie-root: installing debootstrap"
      { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap; } \
        >/dev/null 2>&1 || die "could not install debootstrap (apt-get install debootstrap needs the network)"
    fi
    # Made beside the root and renamed when complete, so that a root that
    # exists is whole. debootstrap mounts /proc and /sys inside it: in a
    # namespace of its own, those go when it ends.
    mkdir -p "$(dirname "$root")"
    log=$root.debootstrap.log
    rm -rf --one-file-system "$root.partial"
    echo "== trixie-root: debootstrap trixie $root (a few minutes; log $log)"
    unshare --mount --propagation private -- \
      debootstrap --variant=minbase trixie "$root.partial" "$mirror" >"$log" 2>&1 ||
      die "debootstrap trixie failed (it needs the network: $mirror); see $log"
    mv "$root.partial" "$root"
    echo "== trixie-root: debootstrap took $((SECONDS - start)) s"
  fi
  local apt_start=$SECONDS
  echo "== trixie-root: installing $* in $root"
  root_env
  log=$root.apt.log
  in_namespace "$root" chroot "$root" env -i "${env_args[@]}" sh -c \
    'apt-get update -qq && apt-get install -y -qq --no-install-recommends "$@"' \
    apt "$@" >"$log" 2>&1 ||
    die "installing packages in $root failed (it needs the network: $mirror); see $log"
  printf '%s\n' "$@" >"$ready"
  echo "== trixie-root: packages took $((SECONDS - apt_start)) s; ready in $((SECONDS - start)) s"
}

run() {
  [ $# -gt 0 ] || die "run: no command"
  [ -f "$ready" ] || die "no Debian 13 root with the build's packages at $root; make it with: IRS_LLVM_VERSIONS=18 bash scripts/setup.sh"
  check_privileges
  root_env
  in_namespace "$root" chroot "$root" env -i "${env_args[@]}" \
    sh -c 'cd "$0" && exec "$@"' "$repo" "$@"
}

holds() {
  case " $root_llvm_versions " in *" $1 "*) return 0 ;; esac
  return 1
}

command=${1:-}
[ $# -gt 0 ] && shift
case $command in
  ensure) ensure "$@" ;;
  run) run "$@" ;;
  holds)
    [ $# = 1 ] || die "usage: holds VERSION"
    holds "$1"
    ;;
  llvm)
    [ $# -ge 2 ] || die "usage: llvm VERSION CMD..."
    v=$1
    shift
    if holds "$v"; then run "$@"; else exec "$@"; fi
    ;;
  *)
    echo "usage: $0 ensure PKG... | run CMD... | llvm VERSION CMD... | holds VERSION" >&2
    exit 2
    ;;
esac
