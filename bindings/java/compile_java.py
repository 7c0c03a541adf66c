#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 The Tessera Authors
# SPDX-License-Identifier: Apache-2.0
"""Compiles Java sources against a class path into one jar (tests, example,
benchmark). Usage: compile_java.py JAVAC JAR OUT.jar WORKDIR CLASSPATH SOURCES..."""
import os
import shutil
import subprocess
import sys


def main():
    javac, jar, out, work, classpath = sys.argv[1:6]
    sources = sys.argv[6:]
    classes = os.path.join(work, 'classes')
    shutil.rmtree(classes, ignore_errors=True)
    os.makedirs(classes)
    subprocess.run([javac, '--release', '17', '-Xlint:all,-serial', '-Werror', '-cp', classpath,
                    '-d', classes] + sources, check=True)
    subprocess.run([jar, '--create', '--file', out, '-C', classes, '.'], check=True)


if __name__ == '__main__':
    sys.exit(main())
