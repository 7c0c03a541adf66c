#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 The Tessera Authors
# SPDX-License-Identifier: Apache-2.0
"""Random cases answered by the real keras (keras-nightly, JAX backend, CPU).

Writes one JSON object per line for compare_with_keras.py:
  - "interleave": the batch positions a shard reads through Keras's
    DistributedBatchSampler (with and without drop_last; torch is not needed:
    a stub stands in for the one isinstance check), the item indices of
    ArrayDataAdapter and the batches of PyDatasetAdapter under a distribution
    with S shards and shard id i, and Keras's errors for bad S and i;
  - "initialize": keras.distribution.initialize with random explicit
    arguments and KERAS_DISTRIBUTION_* values, recording what Keras passes to
    its JAX backend and what that passes to jax.distributed.initialize
    (mocked), or the error;
  - "distribution": DataParallel / ModelParallel on random meshes with a
    random process count and id (the backend's num_processes and process_id
    patched before construction), recording the constructor error or
    num_model_replicas, num_data_shards, data_shard_id, batch_dim_name and
    auto_shard_dataset.

Usage (in the keras venv, KERAS_BACKEND=jax): keras_cases.py --count N --seed S
"""
import argparse
import json
import os
import random
import sys
import types
from unittest import mock

os.environ.setdefault("KERAS_BACKEND", "jax")

# DistributedBatchSampler.__iter__ imports torch only to test for its
# BatchSampler fast path; a stub module, installed only around that call (other
# libraries probe sys.modules for torch), makes that test false and leaves the
# pure-Python interleave loop under test.
_torch = types.ModuleType("torch")
_torch.utils = types.SimpleNamespace(data=types.SimpleNamespace(BatchSampler=type("BatchSampler", (), {})))

import numpy as np  # noqa: E402

import keras  # noqa: E402
from keras.src.distribution import distribution_lib  # noqa: E402
from keras.src.trainers.data_adapters import array_data_adapter  # noqa: E402
from keras.src.trainers.data_adapters import data_adapter_utils  # noqa: E402
from keras.src.trainers.data_adapters import py_dataset_adapter  # noqa: E402

ENV_NAMES = ("KERAS_DISTRIBUTION_JOB_ADDRESSES", "KERAS_DISTRIBUTION_NUM_PROCESSES", "KERAS_DISTRIBUTION_PROCESS_ID")


class Shards:
    """The two attributes the adapters read from the current distribution."""

    def __init__(self, num_data_shards, data_shard_id):
        self.auto_shard_dataset = True
        self.num_data_shards = num_data_shards
        self.data_shard_id = data_shard_id


class Batches(keras.utils.PyDataset):
    def __init__(self, n):
        super().__init__()
        self.n = n

    @property
    def num_batches(self):
        return self.n

    def __getitem__(self, i):
        return (np.array([i]),)


def interleave_case(rng):
    n = rng.randint(0, 60)
    batch = rng.randint(1, 12)
    # C takes sizes, so no negative S or i; 0 shards and i == S are Keras's errors.
    s = rng.choice([0, 1, 1, 2, 3, 4, 5, 8, 13])
    i = s if rng.random() < 0.05 else rng.randint(0, max(s - 1, 0))
    drop_last = rng.random() < 0.5
    num_batches = -(-n // batch)
    case = {"kind": "interleave", "num_items": n, "batch": batch, "num_shards": s, "shard_index": i,
            "drop_last": drop_last}
    try:
        sampler = data_adapter_utils.DistributedBatchSampler(list(range(num_batches)), s, i, drop_last=drop_last)
    except ValueError as e:
        case["error"] = str(e)
        return case
    with mock.patch.dict(sys.modules, {"torch": _torch}):
        case["sampler_batches"] = list(sampler)
    case["sampler_len"] = len(sampler)
    distribution_lib.set_distribution(Shards(s, i))
    try:
        adapter = array_data_adapter.ArrayDataAdapter(np.arange(n), batch_size=batch, shuffle=False)
        items = [int(v) for b in adapter.get_numpy_iterator() for v in np.ravel(b[0] if isinstance(b, tuple) else b)]
        case["array_items"] = items
        case["array_num_batches"] = adapter.num_batches
        py = py_dataset_adapter.PyDatasetAdapter(Batches(num_batches), shuffle=False)
        case["pydataset_batches"] = [int(np.ravel(b[0] if isinstance(b, tuple) else b)[0])
                                     for b in py.get_numpy_iterator()]
    finally:
        distribution_lib.set_distribution(None)
    return case


def number_text(rng):
    value = rng.choice([0, 1, 2, 3, 4, 7, 16, -1])
    return rng.choice([str(value), f" {value} ", f"+{value}", "1_6", "abc", "", "0x1", "2.0", "1__2", f"\t{value}\n"])


def initialize_case(rng):
    env = {}
    jobs = [f"10.0.0.{k}:{1000 + k}" for k in range(rng.randint(1, 4))]
    if rng.random() < 0.6:
        env[ENV_NAMES[0]] = rng.choice([",".join(jobs), jobs[0], ""])
    if rng.random() < 0.6:
        env[ENV_NAMES[1]] = number_text(rng)
    if rng.random() < 0.6:
        env[ENV_NAMES[2]] = number_text(rng)
    explicit = {}
    if rng.random() < 0.3:
        explicit["job_addresses"] = rng.choice([",".join(jobs), jobs[0]])
    if rng.random() < 0.3:
        explicit["num_processes"] = rng.choice([1, 2, 3, 4])
    if rng.random() < 0.3:
        explicit["process_id"] = rng.choice([0, 1, 2])
    case = {"kind": "initialize", "env": env, "explicit": explicit}
    backend = distribution_lib.distribution_lib
    passed = {}

    def record(job_addresses, num_processes, process_id):
        passed.update(job_addresses=job_addresses, num_processes=num_processes, process_id=process_id)
        return original(job_addresses, num_processes, process_id)

    original = backend.initialize
    with mock.patch.dict(os.environ, env, clear=False), \
            mock.patch.object(backend, "initialize", record), \
            mock.patch.object(backend, "initialize_rng", lambda: None), \
            mock.patch.object(backend.jax.distributed, "initialize") as jax_init:
        for name in ENV_NAMES:
            if name not in env:
                os.environ.pop(name, None)
        try:
            distribution_lib.initialize(**explicit)
        except ValueError as e:
            case["error"] = str(e)
            return case
    case["passed"] = passed
    case["coordinator_address"] = jax_init.call_args.kwargs["coordinator_address"]
    return case


def distribution_case(rng):
    model_parallel = rng.random() < 0.6
    # DataParallel on a mesh of rank > 1 is Keras's TypeError (its warnings.warn
    # call is malformed); Tessera warns instead, as documented: not compared.
    rank = rng.choice([1, 2, 2, 3]) if model_parallel else 1
    shape = [rng.choice([1, 2, 3, 4]) for _ in range(rank)]
    if not model_parallel:
        shape = [rng.choice([1, 2, 3, 4, 6, 8])]
    names = ["batch", "model", "seq"][:rank]
    size = int(np.prod(shape))
    devices = [f"cpu:{k}" for k in range(size)]
    p = rng.choice([1, 2, 3, 4, 6, 8])
    pid = rng.randrange(p)
    batch_dim = rng.choice([None] + names) if model_parallel else None
    auto_shard = rng.random() < 0.8
    case = {"kind": "distribution", "shape": shape, "names": names, "num_processes": p, "process_id": pid,
            "model_parallel": model_parallel, "batch_dim_name": batch_dim, "auto_shard": auto_shard}
    backend = distribution_lib.distribution_lib
    with mock.patch.object(backend, "num_processes", lambda: p), mock.patch.object(backend, "process_id", lambda: pid):
        mesh = distribution_lib.DeviceMesh(shape, names, devices)
        try:
            if model_parallel:
                d = distribution_lib.ModelParallel(layout_map=distribution_lib.LayoutMap(mesh),
                                                   batch_dim_name=batch_dim, auto_shard_dataset=auto_shard)
            else:
                d = distribution_lib.DataParallel(device_mesh=mesh, auto_shard_dataset=auto_shard)
        except (ValueError, TypeError) as e:
            case["error"] = str(e)
            return case
    case.update(num_model_replicas=d.num_model_replicas, num_data_shards=d.num_data_shards,
                data_shard_id=d.data_shard_id, resolved_batch_dim_name=d.batch_dim_name,
                auto_shard_dataset=d.auto_shard_dataset)
    return case


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--count", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    makers = [interleave_case, initialize_case, distribution_case]
    for k in range(args.count):
        print(json.dumps(makers[k % len(makers)](rng)))


if __name__ == "__main__":
    main()
