# SPDX-FileCopyrightText: 2026 The Tessera Authors
# SPDX-License-Identifier: Apache-2.0

"""Failure detection: how long after a SIGKILL every survivor learns that the
job failed (its pending barrier returns ABORTED / JOB_FAILED), against the
bound heartbeat_timeout + one heartbeat interval.

Uses the cluster tests' worker (tests/cluster/worker.c). Prints per-run
latencies (kill -> last survivor's error) and their median.
"""
import argparse
import os
import socket
import statistics
import subprocess
import sys
import threading
import time


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def follow(proc, events):
    for line in proc.stdout:
        events.append((time.monotonic(), line.rstrip("\n")))


def wait_for(events, prefix, deadline):
    while time.monotonic() < deadline:
        for t, line in list(events):
            if line.startswith(prefix):
                return t, line
        time.sleep(0.005)
    return None, None


def run(worker, n, interval_ms, timeout_ms):
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("TESSERA_") and "proxy" not in k.lower()}
    procs, logs = [], []
    for i in range(n):
        args = [worker, f"addr=127.0.0.1:{port}", f"bind=127.0.0.1:{port}", f"n={n}", f"id={i}",
                f"hb={interval_ms},{timeout_ms}", "init_timeout=30000", "alarm=60", "--", "init",
                # The victim waits elsewhere, so the barrier cannot pass.
                "get:never-set:60000" if i == n - 1 else "barrier:b:60000"]
        p = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=env)
        events = []
        threading.Thread(target=follow, args=(p, events), daemon=True).start()
        procs.append(p)
        logs.append(events)
    try:
        deadline = time.monotonic() + 30
        for events in logs:
            if wait_for(events, "B 1 ", deadline)[0] is None:
                raise RuntimeError("workers did not reach the barrier")
        time.sleep(0.3)
        killed = time.monotonic()
        procs[n - 1].kill()
        latest = 0.0
        for events in logs[:n - 1]:
            t, line = wait_for(events, "R 1 ", killed + 30)
            if t is None or " err " not in line:
                raise RuntimeError(f"survivor did not fail: {line}")
            latest = max(latest, t - killed)
        return latest
    finally:
        for p in procs:
            if p.poll() is None:
                p.kill()
            p.wait()


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--worker", required=True)
    parser.add_argument("--processes", type=int, default=4)
    parser.add_argument("--interval-ms", type=int, default=100)
    parser.add_argument("--timeout-ms", type=int, default=1000)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    bound = (args.timeout_ms + args.interval_ms) / 1e3
    times = []
    for r in range(args.runs):
        t = run(args.worker, args.processes, args.interval_ms, args.timeout_ms)
        times.append(t)
        print(f"run {r}: every survivor knew after {t * 1e3:.0f} ms", flush=True)
    median = statistics.median(times)
    print(f"{args.processes} processes, heartbeat {args.interval_ms} ms / timeout {args.timeout_ms} ms: "
          f"median {median * 1e3:.0f} ms vs bound timeout+interval {bound * 1e3:.0f} ms "
          f"({'within' if median <= bound else 'OVER'})")


if __name__ == "__main__":
    sys.exit(main())
