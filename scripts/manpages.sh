#!/usr/bin/env bash
# SPDX-FileCopyrightText: 2026 The Tessera Authors
# SPDX-License-Identifier: Apache-2.0
# Writes the man pages of the `tessera` command into OUTDIR: tessera.1 from
# `tessera --help`, and tessera-COMMAND.1 from `tessera COMMAND --help` for
# every command that `tessera --help` lists under "Commands:". The pages are
# help2man's rendering of the --help text itself, so they cannot drift from it,
# and a new command gets its page without a change here.
#
# Usage: scripts/manpages.sh TESSERA OUTDIR
#   TESSERA: the built `tessera` program (it must run: set LD_LIBRARY_PATH for
#   a build tree). Needs help2man.
set -euo pipefail

if (($# != 2)); then
  echo "usage: $0 TESSERA OUTDIR" >&2
  exit 2
fi
tessera=$(realpath "$1") outdir=$2
mkdir -p "$outdir"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# "tessera 0.2.0": the library's version.
version=$("$tessera" --version)
version=${version##* }
# The first line of a --help after its usage line: the command's one-line summary.
# "Tessera plans how ..." becomes "plans how ...", a man page's NAME line.
summary_of() { "$@" --help | awk 'NR > 1 && NF { sub(/^Tessera /, ""); sub(/\.$/, ""); print; exit }'; }

# help2man runs a program with --help and --version; a command has no
# --version of its own, so it runs this wrapper instead, which also gives
# help2man the page's name (the first word of the --version line).
render() {
  local name=$1 summary=$2
  shift 2
  printf '#!/bin/sh\n[ "$1" = --version ] && { echo "%s"; exit 0; }\nexec %s "$@"\n' \
    "$name $version" "$*" >"$tmp/$name"
  chmod +x "$tmp/$name"
  help2man --no-info --no-discard-stderr --section 1 --source "Tessera" --manual "Tessera manual" \
    --name "$summary" --output "$outdir/$name.1" "$tmp/$name"
}

render tessera "$(summary_of "$tessera")" "$tessera"
commands=$("$tessera" --help | awk '/^Commands:/ { on = 1; next } on && !NF { exit } on { print $1 }')
[[ -n $commands ]] || { echo "manpages: tessera --help lists no commands" >&2; exit 1; }
for command in $commands; do
  # The command's summary as the top-level help gives it ("plan  show how ...").
  summary=$("$tessera" --help | awk -v c="$command" '/^Commands:/ { on = 1; next } on && $1 == c { $1 = ""; sub(/^ +/, ""); print; exit }')
  render "tessera-$command" "$summary" "$tessera" "$command"
done
