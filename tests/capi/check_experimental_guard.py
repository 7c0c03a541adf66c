#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 The Tessera Authors
# SPDX-License-Identifier: Apache-2.0
"""The experimental tier's guard, as a user meets it:

  1. each tessera/experimental/*.h compiles alone (C99 and C++11, warnings as
     errors) when TESSERA_EXPERIMENTAL_API is defined;
  2. without the macro it does not compile, and the error names the macro;
  3. <tessera/tessera.h> without the macro declares none of their functions,
     and with it declares all of them.

usage: check_experimental_guard.py --cc CC... --cxx CXX... -I DIR... -- HEADER...
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

API_RE = re.compile(r"TESSERA_API\b[^;{]*?\b(tessera_\w+)\s*\(", re.S)


def compile_source(compiler, flags, includes, source, defined):
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "t.c")
        with open(path, "w", encoding="utf-8") as f:
            f.write(source)
        command = compiler + flags + sum((["-I", d] for d in includes), [])
        command += (["-DTESSERA_EXPERIMENTAL_API"] if defined else []) + ["-fsyntax-only", path]
        result = subprocess.run(command, capture_output=True, text=True)
        return result.returncode, result.stderr


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--cc", nargs="+", required=True)
    parser.add_argument("--cxx", nargs="+", required=True)
    parser.add_argument("-I", dest="includes", action="append", required=True)
    parser.add_argument("headers", nargs="+")
    args = parser.parse_args()
    languages = {
        "C99": (args.cc, ["-x", "c", "-std=c99", "-pedantic", "-Werror", "-Wall", "-Wextra"]),
        "C++11": (args.cxx, ["-x", "c++", "-std=c++11", "-pedantic", "-Werror", "-Wall", "-Wextra"]),
    }
    problems = []
    functions = []
    for header in args.headers:
        name = "tessera/experimental/" + os.path.basename(header)
        with open(header, encoding="utf-8") as f:
            functions += API_RE.findall(f.read())
        source = f'#include "{name}"\ntypedef int tessera_guard_test;\n'
        for language, (compiler, flags) in languages.items():
            code, err = compile_source(compiler, flags, args.includes, source, True)
            if code != 0:
                problems.append(f"{name} does not compile alone as {language} with the macro:\n{err}")
            code, err = compile_source(compiler, flags, args.includes, source, False)
            if code == 0:
                problems.append(f"{name} compiles as {language} without TESSERA_EXPERIMENTAL_API")
            elif "define TESSERA_EXPERIMENTAL_API" not in err:
                problems.append(f"{name} fails without the macro, but the error does not name it:\n{err}")
    # A function's address is taken: an undeclared name is an error in both languages.
    uses = "".join(f"void* tessera_guard_{i} = (void*)&{f};\n" for i, f in enumerate(functions))
    source = '#include "tessera/tessera.h"\n' + uses
    compiler, flags = languages["C99"]
    code, err = compile_source(compiler, flags + ["-Wno-pedantic"], args.includes, source, True)
    if code != 0:
        problems.append(f"<tessera/tessera.h> with the macro lacks experimental functions:\n{err}")
    for function in functions:
        one = f'#include "tessera/tessera.h"\nvoid* tessera_guard = (void*)&{function};\n'
        code, _ = compile_source(compiler, flags + ["-Wno-pedantic"], args.includes, one, False)
        if code == 0:
            problems.append(f"<tessera/tessera.h> declares {function} without TESSERA_EXPERIMENTAL_API")
    for problem in problems:
        print(problem)
    print(f"{len(args.headers)} experimental headers, {len(functions)} functions; {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
