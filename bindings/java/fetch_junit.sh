#!/bin/sh
# SPDX-FileCopyrightText: 2026 The Tessera Authors
# SPDX-License-Identifier: Apache-2.0
# Puts the pinned JUnit 5 console launcher (junit-platform-console-standalone)
# into ~/.cache/tessera/junit (or $TESSERA_JUNIT_DIR) and prints its path.
# Offline once it is there; otherwise Maven fetches it from Maven Central.
set -eu
version=1.14.1
dir=${TESSERA_JUNIT_DIR:-$HOME/.cache/tessera/junit}
jar="$dir/junit-platform-console-standalone-$version.jar"
if [ ! -s "$jar" ]; then
  mkdir -p "$dir"
  mvn -q -B dependency:copy \
    -Dartifact="org.junit.platform:junit-platform-console-standalone:$version" \
    -DoutputDirectory="$dir" >&2
fi
echo "$jar"
