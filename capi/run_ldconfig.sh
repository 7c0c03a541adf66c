#!/bin/sh
# SPDX-FileCopyrightText: 2026 The Tessera Authors
# SPDX-License-Identifier: Apache-2.0
# Meson install script (capi/meson.build), run only by a real install (Meson
# skips it when DESTDIR is set): refreshes the dynamic linker's cache so the
# freshly installed libtessera.so.0 is found without LD_LIBRARY_PATH. Only root
# can write the cache; anyone else is told the command to run, and the install
# still succeeds.
set -eu
if [ "$(id -u)" -ne 0 ]; then
  echo "tessera: not root, so the linker cache is unchanged: run 'ldconfig' as root" >&2
  exit 0
fi
PATH=$PATH:/usr/sbin:/sbin
exec ldconfig
