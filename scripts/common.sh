# SPDX-FileCopyrightText: 2026 The Tessera Authors
# SPDX-License-Identifier: Apache-2.0

# shellcheck shell=bash
# Shared by plan.sh, test.sh, coverage.sh and tsan.sh (sourced, not run): the
# repository root as the working directory, and one way to configure and build
# a build directory.

cd "$(dirname "${BASH_SOURCE[0]}")/.." || exit 1

# Go lives in /usr/local/go on the machine image; a login shell may not have it
# on PATH, and Meson finds `go` through PATH.
case ":$PATH:" in *:/usr/local/go/bin:*) ;; *) export PATH="$PATH:/usr/local/go/bin" ;; esac

# Logs of configure and build steps; inside the ignored build* pattern.
readonly LOG_DIR=build-logs

# Prints a progress line on stderr, so stdout stays the commands' own output.
say() {
  printf '==> %s\n' "$*" >&2
}

# Runs "$@" with its output in $LOG_DIR/$1.log; on failure prints the log's
# tail and returns the command's status.
logged() {
  local name=$1 status=0
  shift
  mkdir -p "$LOG_DIR"
  "$@" >"$LOG_DIR/$name.log" 2>&1 || status=$?
  if ((status != 0)); then
    printf '%s failed (status %d); last lines of %s:\n' "$*" "$status" "$LOG_DIR/$name.log" >&2
    tail -n 60 "$LOG_DIR/$name.log" >&2
  fi
  return "$status"
}

# configure DIR MESON_OPTION...: sets up DIR, or applies the options to an
# existing DIR (so a build dir from an older run gets today's options).
configure() {
  local dir=$1
  shift
  if [[ -f $dir/meson-private/coredata.dat ]]; then
    logged "$dir-configure" meson configure "$dir" "$@"
  else
    logged "$dir-configure" meson setup "$dir" "$@"
  fi
}

# build DIR [NINJA_ARG...]: builds DIR (all targets unless some are named).
build() {
  local dir=$1
  shift
  logged "$dir-build" ninja -C "$dir" "$@"
}

# build_suites DIR NAME...: builds only what the tests of those suites (or
# with those test names) run (their programs and the targets they depend
# on), not the whole tree.
build_suites() {
  local dir=$1 targets
  shift
  targets=$(meson introspect "$dir" --tests --targets | python3 -c '
import json, os, sys
info = json.load(sys.stdin)
suites = set(sys.argv[2:])
build = os.path.realpath(sys.argv[1])
files = {t["id"]: t["filename"] for t in info["targets"]}
wanted = set()
for test in info["tests"]:
    if test["name"] not in suites and not suites & {s.split(":")[-1] for s in test["suite"]}:
        continue
    for dep in test["depends"]:
        wanted.update(files.get(dep, []))
    if test["cmd"] and os.path.realpath(test["cmd"][0]).startswith(build + os.sep):
        wanted.add(test["cmd"][0])
print("\n".join(sorted(os.path.relpath(f, build) for f in wanted)))
' "$dir" "$@") || return 1
  [[ -n $targets ]] || return 1
  # shellcheck disable=SC2086  # one target a word
  build "$dir" -j"${JOBS:-2}" $targets
}
