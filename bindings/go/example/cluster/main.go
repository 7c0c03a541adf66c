// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// Command cluster is one process of a multi-host job with the Tessera Go
// binding: initialize, exchange a value through the key-value store, meet
// at a barrier, shut down. Start one per process, e.g. two on one machine:
//
//	go run ./example/cluster -coordinator 127.0.0.1:8476 -processes 2 -index 0 &
//	go run ./example/cluster -coordinator 127.0.0.1:8476 -processes 2 -index 1
//
// (Without flags the configuration comes from TESSERA_*, Keras, DTensor or
// launcher variables: srun, mpirun, torchrun set them for you.)
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log"
	"os"
	"time"

	"github.com/tessera-dev/tessera/bindings/go/tessera"
)

func main() {
	coordinator := flag.String("coordinator", "", "host:port of process 0's coordinator")
	processes := flag.Int("processes", 0, "number of processes")
	index := flag.Int("index", -1, "this process's index (0 runs the coordinator)")
	flag.Parse()
	// The whole run, each blocking call included, within one minute.
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := run(ctx, os.Stdout, *coordinator, *processes, *index); err != nil {
		log.Fatal(err)
	}
}

func run(ctx context.Context, out io.Writer, coordinator string, processes, index int) error {
	opts := tessera.NewClusterOptions()
	defer opts.Close()
	if coordinator != "" {
		if err := opts.SetCoordinatorAddress(coordinator); err != nil {
			return err
		}
	}
	if processes > 0 {
		if err := opts.SetNumProcesses(processes); err != nil {
			return err
		}
	}
	if index >= 0 {
		if err := opts.SetProcessIndex(index); err != nil {
			return err
		}
	}
	if err := opts.SetInitTimeout(30 * time.Second); err != nil {
		return err
	}

	client, err := tessera.Initialize(ctx, opts)
	if err != nil {
		return err
	}
	defer client.Close()
	me, n := client.ProcessIndex(), client.NumProcesses()

	// Every process publishes its index; process 0 reads them all.
	if err := client.KVSet(fmt.Sprintf("hello/%d", me), []byte(fmt.Sprintf("hello from %d", me)), false); err != nil {
		return err
	}
	if me == 0 {
		for p := 0; p < n; p++ {
			value, err := client.KVGet(ctx, fmt.Sprintf("hello/%d", p), 30*time.Second)
			if err != nil {
				return err
			}
			fmt.Fprintf(out, "%s\n", value)
		}
	}
	if err := client.Barrier(ctx, "done", 30*time.Second, nil); err != nil {
		return err
	}
	fmt.Fprintf(out, "process %d of %d passed the barrier\n", me, n)
	return client.Shutdown(ctx)
}
