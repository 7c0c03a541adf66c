#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 The Tessera Authors
# SPDX-License-Identifier: Apache-2.0
"""Specification of `tessera devices`, one behaviour per case (suite 'cli').

Usage:
  check_devices.py --list              the case names, one per line (read by meson)
  check_devices.py TESSERA CASE        runs one case; exit 0 when it passes

Each case sets TESSERA_DEVICES and TESSERA_CPU_DEVICE_COUNT itself (or removes
them), so no case depends on the machine's GPUs, except the one that says so.
Table rows are compared cell by cell: cells are separated by two or more spaces.
"""
import os
import re
import subprocess
import sys

from cases import Failure, case, expect, main


def run(tessera, *args, env):
    environment = dict(os.environ)
    for name in ("TESSERA_DEVICES", "TESSERA_CPU_DEVICE_COUNT"):
        environment.pop(name, None)
    environment.update(env)
    return subprocess.run([tessera, "devices", *args], capture_output=True, text=True,
                          env=environment, timeout=60)


def rows(stdout):
    return [re.split(r"\s{2,}", l.strip()) for l in stdout.splitlines() if l.startswith("  ")]


@case
def explicit_list_prints_one_row_per_device_with_details(tessera):
    done = run(tessera, env={"TESSERA_DEVICES": "gpu:NVIDIA H100 80GB HBM3:GPU-abc:85899345920,gpu",
                             "TESSERA_CPU_DEVICE_COUNT": "2"})
    expect(done.returncode, 0, "exit status")
    expect(done.stderr, "", "stderr")
    expect(done.stdout.splitlines()[0], "4 local devices", "first line")
    expect(rows(done.stdout), [
        ["platform", "ordinal", "kind", "physical id", "pci bus id", "memory"],
        ["gpu", "0", "NVIDIA H100 80GB HBM3", "GPU-abc", "-", "80.0 GiB"],
        ["gpu", "1", "gpu", "-", "-", "-"],
        ["cpu", "0", "cpu", "-", "-", "-"],
        ["cpu", "1", "cpu", "-", "-", "-"],
    ], "device rows")


@case
def explicit_list_names_its_provider_and_skips_nvml(tessera):
    done = run(tessera, env={"TESSERA_DEVICES": "gpu*2"})
    lines = done.stdout.splitlines()
    expect(lines[-2], "accelerators: explicit list (TESSERA_DEVICES)", "provider line")
    expect(lines[-1], "nvml: not consulted (TESSERA_DEVICES is set)", "nvml line")


@case
def empty_explicit_list_leaves_the_cpu_devices(tessera):
    done = run(tessera, env={"TESSERA_DEVICES": "", "TESSERA_CPU_DEVICE_COUNT": "3"})
    expect(done.returncode, 0, "exit status")
    expect([r[0] for r in rows(done.stdout)[1:]], ["cpu", "cpu", "cpu"], "platforms")


@case
def one_device_is_counted_in_the_singular(tessera):
    done = run(tessera, env={"TESSERA_DEVICES": ""})
    expect(done.stdout.splitlines()[0], "1 local device", "first line")


@case
def without_an_explicit_list_nvml_is_consulted(tessera):
    # On a machine without NVIDIA's driver the reason is printed; with GPUs
    # they are listed. Either way the provider and NVML lines agree.
    done = run(tessera, env={})
    expect(done.returncode, 0, "exit status")
    lines = done.stdout.splitlines()
    if lines[-2] == "accelerators: NVIDIA GPUs found through NVML":
        expect(lines[-1], "nvml: available", "nvml line")
        expect(rows(done.stdout)[1][0], "gpu", "first device")
    else:
        expect(lines[-2], "accelerators: none found; CPU devices only", "provider line")
        if not lines[-1].startswith("nvml: no GPU: "):
            raise Failure(f"nvml line: {lines[-1]!r}")


@case
def malformed_device_list_is_a_usage_error_naming_the_entry(tessera):
    done = run(tessera, env={"TESSERA_DEVICES": "gpu,tpu*x"})
    expect(done.returncode, 2, "exit status")
    expect(done.stdout, "", "stdout")
    expect(done.stderr,
           "tessera devices: Environment variable TESSERA_DEVICES entry 1 'tpu*x': count 'x' is "
           "not a device count; expected '*' and an integer from 1 to 1048576\n", "stderr")


@case
def unknown_argument_is_a_usage_error(tessera):
    done = run(tessera, "--all", env={})
    expect(done.returncode, 2, "exit status")
    expect(done.stderr,
           "tessera devices: unknown argument '--all' (see 'tessera devices --help')\n", "stderr")


@case
def help_prints_the_usage(tessera):
    done = run(tessera, "--help", env={})
    expect(done.returncode, 0, "exit status")
    expect(done.stdout.splitlines()[0], "Usage: tessera devices", "first line")


@case
def top_level_help_lists_the_devices_command(tessera):
    environment = dict(os.environ)
    done = subprocess.run([tessera, "--help"], capture_output=True, text=True, env=environment,
                          timeout=60)
    if not any(l.startswith("  devices ") for l in done.stdout.splitlines()):
        raise Failure(f"no devices command in:\n{done.stdout}")


if __name__ == "__main__":
    # A case gets the tessera executable.
    sys.exit(main(sys.argv, __doc__, lambda tessera: tessera))
