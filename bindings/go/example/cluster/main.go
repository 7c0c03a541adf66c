// Command cluster is one process of a multi-host job with the Tessera Go
// binding: initialize, exchange a value through the key-value store, meet
// at a barrier, shut down. Start one per process, e.g. two on one machine:
//
//	go run ./example/cluster -coordinator 127.0.0.1:8476 -processes 2 -id 0 &
//	go run ./example/cluster -coordinator 127.0.0.1:8476 -processes 2 -id 1
//
// (Without flags the configuration comes from TESSERA_*, Keras, DTensor or
// launcher variables: srun, mpirun, torchrun set them for you.)
package main

import (
	"flag"
	"fmt"
	"io"
	"log"
	"os"

	"github.com/tessera-dev/tessera/bindings/go/tessera"
)

func main() {
	coordinator := flag.String("coordinator", "", "host:port of process 0's coordinator")
	processes := flag.Int64("processes", 0, "number of processes")
	id := flag.Int64("id", -1, "this process's id")
	flag.Parse()
	if err := run(os.Stdout, *coordinator, *processes, *id); err != nil {
		log.Fatal(err)
	}
}

func run(out io.Writer, coordinator string, processes, id int64) error {
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
	if id >= 0 {
		if err := opts.SetProcessID(id); err != nil {
			return err
		}
	}
	if err := opts.SetInitTimeoutMs(30_000); err != nil {
		return err
	}

	client, err := tessera.Initialize(opts)
	if err != nil {
		return err
	}
	defer client.Close()
	me, n := client.ProcessID(), client.NumProcesses()

	// Every process publishes its id; process 0 reads them all.
	if err := client.KVSet(fmt.Sprintf("hello/%d", me), []byte(fmt.Sprintf("hello from %d", me)), false); err != nil {
		return err
	}
	if me == 0 {
		for p := int64(0); p < n; p++ {
			value, err := client.KVGet(fmt.Sprintf("hello/%d", p), 30_000)
			if err != nil {
				return err
			}
			fmt.Fprintf(out, "%s\n", value)
		}
	}
	if err := client.Barrier("done", 30_000, nil); err != nil {
		return err
	}
	fmt.Fprintf(out, "process %d of %d passed the barrier\n", me, n)
	return client.Shutdown()
}
