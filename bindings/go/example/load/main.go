// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// Command load reads one process's shards of a safetensors checkpoint into
// its own []byte buffers with the Tessera Go binding: the plan says which
// bytes of the file the process's devices need (each replicated tensor read
// once), and Load reads exactly those.
//
//	go run ./example/load
//
// It writes a small checkpoint first (w: U8 [4, 6], b: U8 [6], data byte i
// is i), then loads process 0 of 2 on a 2x2 mesh with the rule w -> (x, y).
package main

import (
	"encoding/binary"
	"fmt"
	"io"
	"log"
	"os"
	"path/filepath"

	"github.com/tessera-dev/tessera/bindings/go/tessera"
)

const header = `{"w":{"dtype":"U8","shape":[4,6],"data_offsets":[0,24]},` +
	`"b":{"dtype":"U8","shape":[6],"data_offsets":[24,30]}}`

func main() {
	dir, err := os.MkdirTemp("", "tessera-load-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "model.safetensors")
	if err := writeCheckpoint(path); err != nil {
		log.Fatal(err)
	}
	if err := run(os.Stdout, path); err != nil {
		log.Fatal(err)
	}
}

// writeCheckpoint writes the header's length (u64, little-endian), the
// header, and the data bytes 0, 1, ..., 29.
func writeCheckpoint(path string) error {
	file := binary.LittleEndian.AppendUint64(nil, uint64(len(header)))
	file = append(file, header...)
	for i := 0; i < 30; i++ {
		file = append(file, byte(i))
	}
	return os.WriteFile(path, file, 0o644)
}

func run(out io.Writer, path string) error {
	checkpoint, err := tessera.OpenCheckpoint(path)
	if err != nil {
		return err
	}
	defer checkpoint.Close()
	tensors, err := checkpoint.Tensors()
	if err != nil {
		return err
	}

	mesh, err := tessera.NewMesh([]int64{2, 2}, []string{"x", "y"}, []string{"cpu:0", "cpu:1", "cpu:2", "cpu:3"})
	if err != nil {
		return err
	}
	defer mesh.Close()
	rules, err := tessera.NewLayoutMap(mesh, tessera.KeyMatchFull)
	if err != nil {
		return err
	}
	defer rules.Close()
	rowsAndColumns, err := tessera.NewLayout([]string{"x", "y"}, mesh)
	if err != nil {
		return err
	}
	defer rowsAndColumns.Close()
	if err := rules.Set("w", rowsAndColumns); err != nil {
		return err
	}

	// This process is 0 of 2: it owns devices 0 and 1.
	options := tessera.NewReadOptions()
	defer options.Close()
	if err := options.SetProcess(0, 2); err != nil {
		return err
	}
	plan, err := tessera.NewReadPlan(checkpoint, rules, options)
	if err != nil {
		return err
	}
	defer plan.Close()
	total, err := plan.TotalBytes()
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "process 0 of 2 reads %d of the file's data bytes\n", total)

	buffers, err := plan.AllocateBuffers()
	if err != nil {
		return err
	}
	read, err := plan.Load(buffers, nil)
	if err != nil {
		return err
	}
	pieces, err := plan.Pieces()
	if err != nil {
		return err
	}
	for i, piece := range pieces {
		fmt.Fprintf(out, "device %d %s %v: %v\n", piece.Device, tensors[piece.Tensor].Name, piece.Shape, buffers[i])
	}
	fmt.Fprintf(out, "read %d bytes\n", read)
	return nil
}
