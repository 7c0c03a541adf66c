#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 The Tessera Authors
# SPDX-License-Identifier: Apache-2.0
"""Compiles and runs the Java example of README.md's "## Java" section as written
and checks that it prints what the section says.

Usage: check_readme.py JAVAC JAVA TESSERA_JAR JNI_LIBRARY README WORKDIR
"""
import os
import re
import shutil
import subprocess
import sys


def java_section(readme):
    """The example's code and the output the section says it prints."""
    text = open(readme, encoding='utf-8').read()
    section = re.search(r'^## Java\n(.*?)(?=^## )', text, re.S | re.M)
    if not section:
        sys.exit('README.md has no "## Java" section')
    blocks = re.findall(r'```java\n(.*?)```', section.group(1), re.S)
    if not blocks:
        sys.exit('the "## Java" section has no ```java block')
    prints = re.search(r'It prints:\n\n```\n(.*?)```', section.group(1), re.S)
    if not prints:
        sys.exit('the "## Java" section does not say what the example prints')
    return blocks[-1], prints.group(1)


def main():
    javac, java, jar, jni, readme, work = sys.argv[1:7]
    code, expected = java_section(readme)
    name = re.search(r'\bclass (\w+)', code)
    if not name:
        sys.exit('the Java example declares no class')
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    source = os.path.join(work, name.group(1) + '.java')
    with open(source, 'w', encoding='utf-8') as f:
        f.write(code)
    subprocess.run([javac, '-Xlint:all', '-Werror', '-cp', jar, '-d', work, source], check=True)
    run = subprocess.run([java, '-Dtessera.jni.library=' + jni, '-cp', jar + ':' + work,
                          name.group(1)], check=True, capture_output=True, text=True)
    sys.stdout.write(run.stdout)
    if run.stdout != expected:
        sys.exit('the example printed something else than README.md says:\n' + expected)
    print('1 passed, 0 failed')


if __name__ == '__main__':
    main()
