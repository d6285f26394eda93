# shellcheck shell=bash
# Package installation shared by the scripts (source it): apt-get, as root or
# through sudo, waiting up to 10 min for a dpkg lock others hold.
#
#   want PKG CHECK...     queue PKG unless the command CHECK... succeeds
#   install_wanted        install the queued packages (none queued: nothing)
#   apt_install PKG...    install now; on failure (stale or empty package
#                         lists) apt-get update once and try again
#   apt_newest NAME       the highest N of the packages NAME-N apt knows
#   have CMD              CMD is on PATH
#   have_file GLOB...     some file matches one of the GLOBs
#   want_newest_clang     queue the newest clang-N apt knows and its sanitizer and libFuzzer
#                         runtimes (nothing if $CLANGXX names a compiler)

SUDO=()
if [[ $(id -u) -ne 0 ]]; then SUDO=(sudo); fi
APT_UPDATED=0
WANTED=()

have() { command -v "$1" >/dev/null 2>&1; }
have_file() {
  local g
  for g in "$@"; do compgen -G "$g" >/dev/null && return 0; done
  return 1
}

apt_get() {
  "${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive \
    apt-get -o DPkg::Lock::Timeout=600 -y -q "$@"
}

apt_update_once() {
  if [[ $APT_UPDATED -eq 0 ]]; then apt_get update && APT_UPDATED=1; fi
}

apt_install() {
  [[ $# -gt 0 ]] || return 0
  if ! have apt-get; then
    echo "error: missing packages ($*) and no apt-get to install them" >&2
    return 1
  fi
  echo "==> apt-get install $*"
  apt_get install --no-install-recommends "$@" && return 0
  [[ $APT_UPDATED -eq 0 ]] || return 1
  apt_update_once && apt_get install --no-install-recommends "$@"
}

want() {
  local pkg=$1; shift
  "$@" >/dev/null 2>&1 || WANTED+=("$pkg")
}

install_wanted() {
  local -a pkgs=("${WANTED[@]}")
  WANTED=()
  apt_install "${pkgs[@]}"
}

apt_versions() {
  apt-cache search --names-only "^$1-[0-9]+\$" | sed -nE "s/^$1-([0-9]+) .*/\\1/p" | sort -n
}
apt_newest() {
  have apt-cache || return 0
  local v
  v=$(apt_versions "$1" | tail -n 1)
  # Empty package lists (a fresh machine): fetch them and look again.
  if [[ -z $v ]] && apt_update_once >&2; then v=$(apt_versions "$1" | tail -n 1); fi
  echo "$v"
}

want_newest_clang() {
  [[ -z ${CLANGXX:-} ]] || return 0
  local v; v=$(apt_newest clang)
  [[ -n $v ]] || return 0
  want "clang-$v" have "clang++-$v"
  # The sanitizer and libFuzzer runtimes are a separate package since clang 15.
  if apt-cache show "libclang-rt-$v-dev" >/dev/null 2>&1; then
    want "libclang-rt-$v-dev" dpkg -s "libclang-rt-$v-dev"
  fi
}
