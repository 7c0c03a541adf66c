#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 The Tessera Authors
# SPDX-License-Identifier: Apache-2.0
"""Runs the example's cluster part as two processes on one free local port.

Usage: run_example_cluster.py MONO TesseraExample.exe
Both must exit 0 and print what the other process stored.
"""
import socket
import subprocess
import sys


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def main():
    mono, exe = sys.argv[1:3]
    address = "127.0.0.1:%d" % free_port()
    procs = [subprocess.Popen([mono, exe, "cluster", str(i), address], stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, text=True) for i in (0, 1)]
    failed = False
    try:
        for i, p in enumerate(procs):
            out, _ = p.communicate(timeout=90)
            print("--- process %d (exit %d)\n%s" % (i, p.returncode, out.strip()))
            expected = "process %d read: hello from %d" % (i, 1 - i)
            if p.returncode != 0 or expected not in out:
                print("process %d: expected exit 0 and '%s'" % (i, expected))
                failed = True
    finally:
        for p in procs:
            if p.poll() is None:
                p.kill()
                p.wait()
                failed = True
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
