#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 The Tessera Authors
# SPDX-License-Identifier: Apache-2.0
"""Runs the layout-map lookup loop in C and through the Java binding, three
times each, alternating, and prints per lookup the lowest of each program's
medians (the run least disturbed by other work on the machine) and their ratio.

Usage: run_overhead.py JAVA CLASSPATH JNI_LIBRARY C_LOOP
"""
import subprocess
import sys


def medians(command):
    out = subprocess.run(command, check=True, capture_output=True, text=True).stdout
    return {name: float(ns) for name, ns in (line.split() for line in out.splitlines() if line)}


def main():
    java, classpath, jni, c_loop = sys.argv[1:5]
    c, j = {}, {}
    for _ in range(3):
        for best, command in ((c, [c_loop]),
                              (j, [java, '-Dtessera.jni.library=' + jni, '-cp', classpath,
                                   'LayoutMapBench'])):
            for name, ns in medians(command).items():
                best[name] = min(ns, best.get(name, ns))
    print(f"{'lookup':<12} {'C ns/call':>10} {'Java ns/call':>13} {'Java/C':>7}")
    for name in c:
        print(f"{name:<12} {c[name]:>10.1f} {j[name]:>13.1f} {j[name] / c[name]:>7.2f}")


if __name__ == '__main__':
    main()
