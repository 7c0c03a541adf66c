#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 The Tessera Authors
# SPDX-License-Identifier: Apache-2.0
"""Compiles the ```csharp block of README.md's "## C#" section against Tessera.dll.

Usage: compile_readme_snippet.py README.md MCS Tessera.dll OUT.exe
"""
import pathlib
import re
import subprocess
import sys


def main():
    readme, mcs, dll, out = sys.argv[1:5]
    text = pathlib.Path(readme).read_text(encoding="utf-8")
    section = re.search(r"^## C#\n(.*?)(?=^## )", text, re.S | re.M)
    if not section:
        sys.exit("README.md has no '## C#' section")
    block = re.search(r"```csharp\n(.*?)```", section.group(1), re.S)
    if not block:
        sys.exit("the '## C#' section of README.md has no ```csharp block")
    source = pathlib.Path(out).with_suffix(".cs")
    source.write_text(block.group(1), encoding="utf-8")
    result = subprocess.run([mcs, "-nologo", "-warnaserror+", "-r:" + dll, "-out:" + out, str(source)])
    print("README C# snippet: " + ("compiles" if result.returncode == 0 else "does not compile"))
    sys.exit(result.returncode)


if __name__ == "__main__":
    main()
