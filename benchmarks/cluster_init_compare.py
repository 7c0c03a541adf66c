# SPDX-FileCopyrightText: 2026 The Tessera Authors
# SPDX-License-Identifier: Apache-2.0

"""Side by side: how long N processes on this machine take to form a job and
get past a first barrier, Tessera (tessera_runtime_initialize + tessera_client_barrier)
against JAX (jax.distributed.initialize + wait_at_barrier, CPU).

Two measurements per peer, both ending when the LAST process is past the
barrier (each worker reports its own CLOCK_MONOTONIC times):
  launch  from just before the first process is spawned; the workers start
          initialize as soon as they are up, so this includes program start
          (exec and library loading for the C worker, python and `import jax`
          for JAX).
  go      every worker starts, loads its library (`import jax`), reports
          READY and blocks on one shared pipe; once all are ready the driver
          closes the pipe (one system call releases them all) and the clock
          starts. Library work only, with every process starting together.
          "Loaded" means bound as well: Python imports extension modules with
          dlopen(RTLD_NOW), so jaxlib's symbols are all resolved by `import
          jax`, while the C worker's libraries (libtessera, gRPC, protobuf,
          Abseil) are bound lazily, on each function's first call, which
          would put that loading work inside the timed window. Go runs
          therefore set LD_BIND_NOW=1 for both peers (no effect on JAX's
          numbers); --lazy-binding leaves it unset.
For the go runs the table also shows when the last process began initialize
(scheduling spread), when the last one returned from it, and the CPU time
the whole job spent from initialize to past the barrier (all processes, all
threads, user + system): the work each library asks of the machine, apart
from the time it spends waiting (timers, polls, and on a loaded machine with
fewer cores than processes, a core).

Runs alternate: each repetition runs both peers in both modes, the peer that
goes first swapping every repetition. Prints medians over --runs, the ratio
JAX / Tessera, and the load average before and after.
"""
import argparse
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time

MODES = ("launch", "go")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def load_average():
    return subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()


def worker_env(bind_now=False):
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("TESSERA_", "OMPI_", "PMI_", "SLURM_")) and "proxy" not in k.lower()}
    env["JAX_PLATFORMS"] = "cpu"
    if bind_now:
        env["LD_BIND_NOW"] = "1"
    return env


def parse_reports(out):
    reports = {}
    for line in out.splitlines():
        tag, value = line.split()
        reports[tag] = float(value)
    return reports


def run_job(command, n, mode, timeout_s, bind_now=True):
    """One job of n processes. Returns seconds: launch (from spawn) and, in go
    mode, go / start / init (from the go signal), each to the LAST process."""
    address = f"127.0.0.1:{free_port()}"
    go = mode == "go"
    read_end, write_end = os.pipe() if go else (subprocess.DEVNULL, None)
    errors = [tempfile.TemporaryFile() for _ in range(n)]
    procs = []
    watchdog = threading.Timer(timeout_s, lambda: [p.kill() for p in procs if p.poll() is None])
    watchdog.start()
    try:
        launched = time.monotonic()
        for i in range(n):
            procs.append(subprocess.Popen(command + [address, str(n), str(i)] + (["go"] if go else []),
                                          stdin=read_end, stdout=subprocess.PIPE, stderr=errors[i],
                                          text=True, env=worker_env(go and bind_now)))
        go_time = None
        if go:
            os.close(read_end)
            for i, p in enumerate(procs):
                line = p.stdout.readline()
                if not line.startswith("READY "):
                    raise RuntimeError(f"process {i} did not get ready: {line!r}")
            go_time = time.monotonic()
            os.close(write_end)  # the go signal: every worker's stdin reaches end of file
            write_end = None
        reports, after_barrier = [], []
        for i, p in enumerate(procs):
            reports.append(parse_reports(p.stdout.read()))
            if p.wait() != 0:
                errors[i].seek(0)
                message = (f"{mode} run, process {i} failed ({p.returncode}): "
                           f"{errors[i].read().decode(errors='replace').strip()[-500:]}")
                if "CPU_PAST" not in reports[-1]:
                    raise RuntimeError(message)
                after_barrier.append(message)  # measured; the failure is reported, not hidden
    finally:
        watchdog.cancel()
        if write_end is not None:
            os.close(write_end)
        for p in procs:
            if p.poll() is None:
                p.kill()
            p.wait()
            p.stdout.close()
        for e in errors:
            e.close()
    if any("PAST" not in r for r in reports):
        raise RuntimeError(f"{sum('PAST' in r for r in reports)} of {n} processes passed the barrier")
    last = {tag: max(r[tag] for r in reports) for tag in ("START", "INIT", "PAST")}
    result = {"launch": last["PAST"] - launched,
              "cpu": sum(r["CPU_PAST"] - r["CPU_START"] for r in reports),
              "failures_after_barrier": after_barrier}
    if go:
        result.update(go=last["PAST"] - go_time, start=last["START"] - go_time,
                      init=last["INIT"] - go_time)
    return result


def median_ms(results, key):
    return statistics.median(r[key] for r in results) * 1e3


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tessera", required=True, help="path of cluster_init_worker")
    parser.add_argument("--venv", required=True, help="jax virtual environment")
    parser.add_argument("--processes", type=int, nargs="+", default=[8, 32])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--timeout", type=float, default=300, help="seconds per job")
    parser.add_argument("--only", choices=["tessera", "jax"], help="run one peer (profiling)")
    parser.add_argument("--lazy-binding", action="store_true",
                        help="go runs without LD_BIND_NOW (the C worker binds symbols inside the window)")
    parser.add_argument("--verbose", action="store_true", help="print every run")
    args = parser.parse_args()
    here = os.path.dirname(os.path.abspath(__file__))
    commands = {
        "tessera": [args.tessera],
        "jax": [os.path.join(args.venv, "bin", "python"), os.path.join(here, "jax_cluster_init_worker.py")],
    }
    if args.only:
        commands = {args.only: commands[args.only]}
    print(f"load before: {load_average()}")
    print(f"{'processes':>9} {'library':>8} {'launch ms':>10} {'go ms':>9}   "
          f"{'go: last start':>14} {'last init':>9} {'job CPU ms':>10}   (medians of {args.runs})",
          flush=True)
    failures = []
    for n in args.processes:
        results = {name: {mode: [] for mode in MODES} for name in commands}
        for rep in range(args.runs):
            order = list(commands) if rep % 2 == 0 else list(reversed(commands))
            for name in order:
                for mode in MODES:
                    result = run_job(commands[name], n, mode, args.timeout, not args.lazy_binding)
                    results[name][mode].append(result)
                    failures += [f"{n} processes, {name}: {m}" for m in result.pop("failures_after_barrier")]
                    if args.verbose:
                        print(f"  run {rep} {name} {mode}: " +
                              " ".join(f"{k}={v * 1e3:.1f}" for k, v in result.items()), flush=True)
        medians = {}
        for name in commands:
            launch = median_ms(results[name]["launch"], "launch")
            go = median_ms(results[name]["go"], "go")
            medians[name] = (launch, go)
            print(f"{n:>9} {name:>8} {launch:>10.1f} {go:>9.1f}   "
                  f"{median_ms(results[name]['go'], 'start'):>14.1f} "
                  f"{median_ms(results[name]['go'], 'init'):>9.1f} "
                  f"{median_ms(results[name]['go'], 'cpu'):>10.1f}", flush=True)
        if len(commands) == 2:
            print(f"{n:>9} {'ratio':>8} {medians['jax'][0] / medians['tessera'][0]:>9.1f}x "
                  f"{medians['jax'][1] / medians['tessera'][1]:>8.1f}x   (jax / tessera)", flush=True)
    print(f"load after: {load_average()}")
    if failures:
        print(f"{len(failures)} process(es) failed AFTER passing the barrier (their runs are counted):")
        for failure in failures:
            print(f"  {failure}")


if __name__ == "__main__":
    sys.exit(main())
