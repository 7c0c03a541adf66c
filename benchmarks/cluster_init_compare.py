"""Side by side: how long N processes on this machine take to form a job and
get past a first barrier, Tessera (tessera_initialize + tessera_client_barrier)
against JAX (jax.distributed.initialize + wait_at_barrier, CPU).

Two times per run, both ending when the LAST process is past the barrier:
  launch  from just before the first process is spawned (includes program
          start: exec for the C worker, python + `import jax` for JAX);
  init    from the earliest initialize call (library work only).
Prints the median of each over --runs runs and the ratio JAX / Tessera.
"""
import argparse
import os
import socket
import statistics
import subprocess
import sys
import time


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def run_job(command, n, timeout_s):
    port = free_port()
    address = f"127.0.0.1:{port}"
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("TESSERA_", "OMPI_", "PMI_", "SLURM_")) and "proxy" not in k.lower()}
    env["JAX_PLATFORMS"] = "cpu"
    launched = time.monotonic()
    procs = [subprocess.Popen(command + [address, str(n), str(i)], stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True, env=env) for i in range(n)]
    starts, pasts = [], []
    try:
        for p in procs:
            out, err = p.communicate(timeout=timeout_s)
            if p.returncode != 0:
                raise RuntimeError(f"worker failed ({p.returncode}): {err.strip()[-500:]}")
            for line in out.splitlines():
                tag, value = line.split()
                (starts if tag == "START" else pasts).append(float(value))
    finally:
        for p in procs:
            if p.poll() is None:
                p.kill()
                p.wait()
    if len(pasts) != n:
        raise RuntimeError(f"{len(pasts)} of {n} processes passed the barrier")
    return max(pasts) - launched, max(pasts) - min(starts)


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--tessera", required=True, help="path of cluster_init_worker")
    parser.add_argument("--venv", required=True, help="jax virtual environment")
    parser.add_argument("--processes", type=int, nargs="+", default=[8, 32])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--timeout", type=float, default=300)
    args = parser.parse_args()
    here = os.path.dirname(os.path.abspath(__file__))
    commands = {
        "tessera": [args.tessera],
        "jax": [os.path.join(args.venv, "bin", "python"), os.path.join(here, "jax_cluster_init_worker.py")],
    }
    print(f"{'processes':>9} {'library':>8} {'launch ms':>10} {'init ms':>9}   (median of {args.runs})")
    for n in args.processes:
        medians = {}
        for name, command in commands.items():
            results = [run_job(command, n, args.timeout) for _ in range(args.runs)]
            launch = statistics.median(r[0] for r in results) * 1e3
            init = statistics.median(r[1] for r in results) * 1e3
            medians[name] = (launch, init)
            print(f"{n:>9} {name:>8} {launch:>10.1f} {init:>9.1f}", flush=True)
        print(f"{n:>9} {'ratio':>8} {medians['jax'][0] / medians['tessera'][0]:>9.1f}x "
              f"{medians['jax'][1] / medians['tessera'][1]:>8.1f}x   (jax / tessera)", flush=True)


if __name__ == "__main__":
    sys.exit(main())
