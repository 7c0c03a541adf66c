#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 The Tessera Authors
# SPDX-License-Identifier: Apache-2.0
"""Prepends the two SPDX lines to the source files that lack them, in each
file's comment style (after a shebang line), so that `reuse lint` passes.

Usage: python3 scripts/spdx-headers.py [FILE...]   (no FILE: every tracked file)
Files of other kinds (data, documents) are left alone: REUSE.toml covers them.
"""
import re
import subprocess
import sys
C_BLOCK = re.compile(r"(\.c|\.i|\.in)$|^capi/include/.*\.h$")
SLASH = re.compile(r"\.(cc|h|go|java|cs|proto)$")
HASH = re.compile(r"\.(py|sh)$|(^|/)meson\.build$|^meson_options\.txt$|^\.ci/run$|^docs/Doxyfile\.in$")
LINES = ["SPDX-FileCopyrightText: 2026 The Tessera Authors", "SPDX-License-Identifier: Apache-2.0"]
def style(path):
    if HASH.search(path): return "# {}"
    if C_BLOCK.search(path): return "/* {} */"
    if SLASH.search(path): return "// {}"
    return None
paths = sys.argv[1:] or subprocess.run(["git", "ls-files"], capture_output=True, text=True, check=True).stdout.split()
for path in paths:
    form = style(path)
    if form is None: continue
    text = open(path, encoding="utf-8").read()
    if "SPDX-License-Identifier" in text[:400]: continue
    head = "".join(form.format(l) + "\n" for l in LINES)
    if text.startswith("#!"):
        first, _, rest = text.partition("\n")
        text = first + "\n" + head + rest
    else:
        text = head + ("\n" if not text.startswith("\n") else "") + text
    open(path, "w", encoding="utf-8").write(text)
    print(path)
