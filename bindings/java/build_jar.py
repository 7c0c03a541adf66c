#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 The Tessera Authors
# SPDX-License-Identifier: Apache-2.0
"""Runs SWIG for Java and packs the result: the JNI glue (a C file, compiled by
Meson) and tessera.jar (the generated proxies plus the hand-written classes).

SWIG writes one .java file per class, a set Meson cannot list in advance, so
this one step generates, compiles and jars them (style.md 2.5, 6.10).

Usage: build_jar.py --swig SWIG --javac JAVAC --jar JAR --interface tessera.i
                    --include DIR... --wrap OUT.c --jar-out OUT.jar
                    --javadoc JAVADOC --javadoc-jar-out OUT.jar
                    --work DIR [SOURCES.java...]

The javadoc runs with -Xdoclint (every check but "missing", which the
generated proxies would fail) and -Werror: a malformed comment, a broken
{@link} or bad HTML anywhere fails the build.
"""
import argparse
import os
import shutil
import subprocess
import sys


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('--swig', required=True)
    parser.add_argument('--javac', required=True)
    parser.add_argument('--jar', required=True)
    parser.add_argument('--interface', required=True)
    parser.add_argument('--include', action='append', default=[])
    parser.add_argument('--wrap', required=True)
    parser.add_argument('--jar-out', required=True)
    parser.add_argument('--javadoc', required=True)
    parser.add_argument('--javadoc-jar-out', required=True)
    parser.add_argument('--work', required=True)
    parser.add_argument('sources', nargs='*')
    args = parser.parse_args()

    generated = os.path.join(args.work, 'generated', 'org', 'tessera')
    classes = os.path.join(args.work, 'classes')
    docs = os.path.join(args.work, 'javadoc')
    for folder in (os.path.join(args.work, 'generated'), classes, docs):
        shutil.rmtree(folder, ignore_errors=True)
    os.makedirs(generated)
    os.makedirs(classes)
    os.makedirs(docs)

    swig = [args.swig, '-java', '-package', 'org.tessera', '-outdir', generated,
            '-o', args.wrap]
    swig += ['-I' + d for d in args.include]
    subprocess.run(swig + [args.interface], check=True)

    java_files = sorted(os.path.join(generated, f) for f in os.listdir(generated))
    subprocess.run([args.javac, '--release', '17', '-Xlint:all,-serial', '-Werror',
                    '-d', classes] + java_files + args.sources, check=True)
    subprocess.run([args.jar, '--create', '--file', args.jar_out, '-C', classes, '.'],
                   check=True)
    subprocess.run([args.javadoc, '--release', '17', '-quiet', '-Xdoclint:all,-missing',
                    '-Werror', '-notimestamp', '-d', docs] + java_files + args.sources,
                   check=True)
    subprocess.run([args.jar, '--create', '--file', args.javadoc_jar_out, '-C', docs, '.'],
                   check=True)


if __name__ == '__main__':
    sys.exit(main())
