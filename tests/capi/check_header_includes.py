#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 The Tessera Authors
# SPDX-License-Identifier: Apache-2.0
"""The public headers' include rule (ARCHITECTURE.md): a header includes only
<stddef.h>, <stdint.h>, <stdbool.h> and other tessera/ headers, and is guarded
by TESSERA_<NAME>_H_."""
import os
import re
import sys

ALLOWED_SYSTEM = {"stddef.h", "stdint.h", "stdbool.h"}
INCLUDE_RE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]', re.M)


def problems_of(path):
    with open(path, encoding="utf-8") as f:
        text = f.read()
    found = []
    for kind, name in INCLUDE_RE.findall(text):
        if kind == "<" and name not in ALLOWED_SYSTEM:
            found.append(f"includes <{name}>; only {sorted(ALLOWED_SYSTEM)} are allowed")
        if kind == '"' and not name.startswith("tessera/"):
            found.append(f'includes "{name}"; only "tessera/..." headers are allowed')
    stem = os.path.basename(path).split(".")[0]
    tier = "EXPERIMENTAL_" if os.path.basename(os.path.dirname(path)) == "experimental" else ""
    guard = f"TESSERA_{tier}{stem.upper()}_H_"
    if not re.search(rf"#ifndef {guard}\s+#define {guard}\b", text):
        found.append(f"lacks the include guard {guard}")
    return found


def main(headers):
    count = 0
    for header in headers:
        for problem in problems_of(header):
            print(f"{header}: {problem}")
            count += 1
    print(f"{len(headers)} headers checked; {count} problems")
    return 1 if count else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
