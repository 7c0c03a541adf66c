#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 The Tessera Authors
# SPDX-License-Identifier: Apache-2.0
"""Random cases for the Keras 3.0 dataset mode, answered by keras 3.3.3's
distribute_dataset on TensorFlow's CPU wheel.

Each line: the distribution (DataParallel, or ModelParallel on a mesh
(batch, model)), the process count P and a global batch G, and per process
the rows of range(2 * G).batch(G) that process reads in each of the two
steps, or Keras's error. The distribution objects are built without their
constructors (which read the backend's process count, absent on TF) and
given P and the process id the way Keras's own tests force them.

Usage (in the keras 3.3 venv): keras30_cases.py --count N --seed S
"""
import argparse
import json
import os
import random

os.environ.setdefault("KERAS_BACKEND", "tensorflow")
os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

import tensorflow as tf  # noqa: E402
from keras.src.distribution import distribution_lib as dl  # noqa: E402

STEPS = 2


def rows(distribution, g):
    dataset = distribution.distribute_dataset(tf.data.Dataset.range(g * STEPS).batch(g))
    return [[int(v) for v in batch.numpy()] for batch in dataset]


def force(distribution, p, pid):
    distribution._num_process, distribution._process_id, distribution._is_multi_process = p, pid, p > 1
    return distribution


def case(rng):
    model_parallel = rng.random() < 0.5
    p = rng.choice([1, 2, 3, 4, 6, 8])
    g = rng.randint(1, 20)
    c = {"kind": "keras30", "model_parallel": model_parallel, "num_processes": p, "global_batch_size": g}
    if model_parallel:
        b, m = rng.choice([1, 2, 4, 8]), rng.choice([1, 2, 4])
        while (b * m) % p:
            p = rng.choice([1, 2, 4, 8])
        c.update(num_processes=p, mesh=[b, m])
        mesh = dl.DeviceMesh((b, m), ["batch", "model"], [f"cpu:{k}" for k in range(b * m)])

        def make(pid):
            d = dl.ModelParallel.__new__(dl.ModelParallel)
            d._device_mesh, d._batch_dim_name = mesh, "batch"
            return force(d, p, pid)
    else:
        def make(pid):
            return force(dl.DataParallel.__new__(dl.DataParallel), p, pid)
    try:
        c["rows"] = [rows(make(pid), g) for pid in range(p)]
    except ValueError as e:
        c["error"] = str(e)
    return c


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--count", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    for _ in range(args.count):
        print(json.dumps(case(rng)))


if __name__ == "__main__":
    main()
