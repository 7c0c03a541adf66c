#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 The Tessera Authors
# SPDX-License-Identifier: Apache-2.0
"""The coordinator's /metrics (issue 14), scraped from a running
`tessera coordinator --metrics-bind` while two cluster_worker processes sit
at known points of a job, and parsed by the prometheus_client package's own
parsers: the Prometheus 0.0.4 text parser for a plain scrape, the strict
OpenMetrics parser when the Accept header asks for OpenMetrics.

Usage: check_metrics.py TESSERA_CLI CLUSTER_WORKER
"""
import os
import re
import socket
import subprocess
import sys
import threading
import time
import urllib.request

from prometheus_client.openmetrics import parser as openmetrics_parser
from prometheus_client import parser as prometheus_parser

OPENMETRICS_TYPE = "application/openmetrics-text; version=1.0.0; charset=utf-8"
PROMETHEUS_TYPE = "text/plain; version=0.0.4; charset=utf-8"
JOB = "job-metrics"


class Lines:
    """A process's stdout, read on a thread, waited on line by line."""

    def __init__(self, proc):
        self.lines, self.cv = [], threading.Condition()
        threading.Thread(target=self._read, args=(proc.stdout,), daemon=True).start()

    def _read(self, stream):
        for line in stream:
            with self.cv:
                self.lines.append(line.rstrip("\n"))
                self.cv.notify_all()

    def wait(self, pattern, timeout=30):
        deadline = time.monotonic() + timeout
        with self.cv:
            while True:
                for line in self.lines:
                    m = re.search(pattern, line)
                    if m:
                        return m
                left = deadline - time.monotonic()
                if left <= 0:
                    raise AssertionError(f"no line matching {pattern!r} in {self.lines}")
                self.cv.wait(left)


def scrape(port, accept=None):
    request = urllib.request.Request(f"http://127.0.0.1:{port}/metrics")
    if accept:
        request.add_header("Accept", accept)
    with urllib.request.urlopen(request, timeout=10) as answer:
        return answer.headers["Content-Type"], answer.read().decode()


def samples(families):
    """{(sample name, sorted labels): value} of parsed families."""
    out = {}
    for family in families:
        for s in family.samples:
            out[(s.name, tuple(sorted(s.labels.items())))] = s.value
    return out


def raw_http(port, data, timeout=10):
    """What the server answers to `data` (bytes) on one connection."""
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as s:
        s.sendall(data)
        chunks = []
        while True:
            chunk = s.recv(65536)
            if not chunk:
                return b"".join(chunks).decode(errors="replace")
            chunks.append(chunk)


CHECKS = []


def check(fn):
    CHECKS.append(fn)
    return fn


@check
def plain_scrape_is_prometheus_text_parsed_by_prometheus_client(ctx):
    content_type, body = scrape(ctx["port"])
    assert content_type == PROMETHEUS_TYPE, content_type
    assert not body.rstrip().endswith("# EOF"), body[-40:]
    ctx["prometheus"] = samples(prometheus_parser.text_string_to_metric_families(body))


@check
def openmetrics_scrape_ends_with_eof_and_parses_strictly(ctx):
    content_type, body = scrape(ctx["port"], "application/openmetrics-text; version=1.0.0,text/plain;q=0.5")
    assert content_type == OPENMETRICS_TYPE, content_type
    assert body.endswith("# EOF\n"), body[-40:]
    families = list(openmetrics_parser.text_string_to_metric_families(body))
    ctx["openmetrics"] = samples(families)
    ctx["openmetrics_types"] = {f.name: f.type for f in families}


@check
def both_formats_carry_the_same_samples(ctx):
    p, o = ctx["prometheus"], ctx["openmetrics"]
    # The RPC that scraped nothing counts between the scrapes: compare the rest.
    assert set(p) == set(o), sorted(set(p) ^ set(o))
    differing = [k for k in p if p[k] != o[k] and k[0] != "tessera_coordinator_rpcs_total"]
    assert not differing, differing


@check
def counters_end_in_total(ctx):
    types = ctx["openmetrics_types"]
    counters = sorted(n for n, t in types.items() if t == "counter")
    assert counters == ["tessera_coordinator_barriers_failed", "tessera_coordinator_barriers_passed",
                        "tessera_coordinator_heartbeats_missed", "tessera_coordinator_processes_lost",
                        "tessera_coordinator_rpcs"], counters
    names = {name for name, _ in ctx["openmetrics"]}
    for c in counters:
        assert c + "_total" in names and c not in names, c


def value(ctx, name, **labels):
    return ctx["openmetrics"][("tessera_coordinator_" + name, tuple(sorted(labels.items())))]


@check
def processes_registered_and_connected_are_both_processes(ctx):
    assert value(ctx, "processes_expected") == 2
    assert value(ctx, "processes_registered") == 2
    assert value(ctx, "processes_connected") == 2
    assert value(ctx, "processes_failed") == 0
    assert value(ctx, "processes_lost_total") == 0
    assert value(ctx, "heartbeats_missed_total") == 0


@check
def one_barrier_passed_and_one_waits_with_one_process(ctx):
    assert value(ctx, "barriers_passed_total") == 1
    assert value(ctx, "barriers_failed_total") == 0
    assert value(ctx, "barriers_waiting") == 1
    assert value(ctx, "barrier_processes_waiting") == 1
    assert value(ctx, "barrier_duration_seconds_count") == 1
    assert value(ctx, "barrier_duration_seconds_bucket", le="+Inf") == 1
    assert value(ctx, "barrier_duration_seconds_sum") < 20


@check
def kv_counts_the_key_set_and_its_bytes(ctx):
    # "alpha" -> "12345": 5 + 5 bytes.
    assert (value(ctx, "kv_keys"), value(ctx, "kv_bytes")) == (1, 10)


@check
def rpcs_count_registrations_and_barriers_by_method_and_code(ctx):
    coordinator = "tessera.v1.Coordinator"
    assert value(ctx, "rpcs_total", service=coordinator, method="Register", code="OK") == 2
    assert value(ctx, "rpcs_total", service=coordinator, method="Barrier", code="OK") == 2
    assert value(ctx, "rpcs_total", service=coordinator, method="KvSet", code="OK") == 1


@check
def job_state_is_running_and_nothing_else(ctx):
    states = {s: value(ctx, "job_state", state=s)
              for s in ("REGISTERING", "RUNNING", "SHUTTING_DOWN", "STOPPED", "FAILED")}
    assert states == {"REGISTERING": 0, "RUNNING": 1, "SHUTTING_DOWN": 0, "STOPPED": 0, "FAILED": 0}, states


@check
def head_answers_the_headers_without_a_body(ctx):
    answer = raw_http(ctx["port"], b"HEAD /metrics HTTP/1.1\r\nHost: x\r\n\r\n")
    head, _, body = answer.partition("\r\n\r\n")
    assert head.startswith("HTTP/1.1 200 OK\r\n"), head
    assert "Content-Type: " + PROMETHEUS_TYPE in head, head
    assert body == "", body


@check
def another_path_is_not_found(ctx):
    answer = raw_http(ctx["port"], b"GET /healthz HTTP/1.1\r\n\r\n")
    assert answer.startswith("HTTP/1.1 404 Not Found\r\n"), answer
    assert answer.endswith("no page at '/healthz'; the metrics are at /metrics\n"), answer


@check
def post_is_not_allowed(ctx):
    answer = raw_http(ctx["port"], b"POST /metrics HTTP/1.1\r\nContent-Length: 0\r\n\r\n")
    assert answer.startswith("HTTP/1.1 405 Method Not Allowed\r\n"), answer
    assert "\r\nAllow: GET, HEAD\r\n" in answer, answer


@check
def a_request_over_8_kib_is_refused(ctx):
    answer = raw_http(ctx["port"], b"GET /metrics HTTP/1.1\r\nX-Pad: " + b"a" * 9000 + b"\r\n\r\n")
    assert answer.startswith("HTTP/1.1 431 Request Header Fields Too Large\r\n"), answer[:80]


@check
def garbage_is_a_bad_request(ctx):
    answer = raw_http(ctx["port"], b"\x00\x01hello\r\n\r\n")
    assert answer.startswith("HTTP/1.1 400 Bad Request\r\n"), answer


@check
def a_silent_client_is_dropped_and_scrapes_go_on(ctx):
    with socket.create_connection(("127.0.0.1", ctx["port"])) as silent:
        silent.sendall(b"GET /metr")
        started = time.monotonic()
        content_type, body = scrape(ctx["port"])
        waited = time.monotonic() - started
        assert silent.recv(1) == b"", "the silent connection was answered"
    assert content_type == PROMETHEUS_TYPE and waited < 5, (content_type, waited)


def main():
    cli, worker = sys.argv[1], sys.argv[2]
    env = {k: v for k, v in os.environ.items() if not k.startswith("TESSERA_")}
    coordinator = subprocess.Popen(
        [cli, "coordinator", "--bind", "127.0.0.1:0", "--num-processes", "2", "--job-id", JOB,
         "--metrics-bind", "127.0.0.1:0", "--heartbeat-interval-ms", "200", "--heartbeat-timeout-ms", "10000"],
        stdout=subprocess.PIPE, text=True, env=env)
    out = Lines(coordinator)
    workers = []
    failures = 0
    try:
        grpc_port = int(out.wait(r"listening on port (\d+)").group(1))
        metrics_port = int(out.wait(r"metrics on port (\d+)").group(1))
        common = [f"addr=127.0.0.1:{grpc_port}", "n=2", f"job={JOB}", "hb=200,10000", "alarm=60", "--"]
        steps = {0: ["connect", "set:alpha:12345", "barrier:b1:30000", "barrier:b2:30000", "shutdown"],
                 1: ["connect", "barrier:b1:30000", "sleep:6000", "barrier:b2:30000", "shutdown"]}
        for i in (0, 1):
            p = subprocess.Popen([worker, f"id={i}"] + common + steps[i], stdout=subprocess.PIPE,
                                 stderr=subprocess.DEVNULL, text=True, env=env)
            workers.append((p, Lines(p)))
        workers[0][1].wait(r"^B 3 ")  # process 0 at b2
        workers[1][1].wait(r"^B 2 ")  # process 1 asleep
        time.sleep(0.5)  # process 0's Barrier call is parked at the coordinator
        ctx = {"port": metrics_port}
        for fn in CHECKS:
            try:
                fn(ctx)
                print(f"ok   {fn.__name__}")
            except Exception as e:  # one failed check must not hide the others
                failures += 1
                print(f"FAIL {fn.__name__}: {type(e).__name__}: {e}")
        print("--- the OpenMetrics scrape ---")
        print(scrape(metrics_port, "application/openmetrics-text")[1], end="")
        for p, _ in workers:
            p.wait(timeout=60)
        coordinator.wait(timeout=30)
        if coordinator.returncode != 0:
            failures += 1
            print(f"FAIL the coordinator exited {coordinator.returncode} after the job")
    finally:
        for p, _ in workers:
            p.kill()
        coordinator.kill()
    print(f"{len(CHECKS) - failures} of {len(CHECKS)} checks passed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
