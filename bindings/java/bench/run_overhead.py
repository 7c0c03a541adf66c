#!/usr/bin/env python3
"""Runs the layout-map lookup loop in C and through the Java binding and
prints the medians side by side with their ratio.

Usage: run_overhead.py JAVA CLASSPATH JNI_LIBRARY C_LOOP
"""
import subprocess
import sys


def medians(command):
    out = subprocess.run(command, check=True, capture_output=True, text=True).stdout
    return {name: float(ns) for name, ns in (line.split() for line in out.splitlines() if line)}


def main():
    java, classpath, jni, c_loop = sys.argv[1:5]
    c = medians([c_loop])
    j = medians([java, '-Dtessera.jni.library=' + jni, '-cp', classpath, 'LayoutMapBench'])
    print(f"{'lookup':<12} {'C ns/call':>10} {'Java ns/call':>13} {'Java/C':>7}")
    for name in c:
        print(f"{name:<12} {c[name]:>10.1f} {j[name]:>13.1f} {j[name] / c[name]:>7.2f}")


if __name__ == '__main__':
    main()
