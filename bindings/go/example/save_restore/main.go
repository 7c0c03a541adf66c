// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// Command save_restore saves a sharded checkpoint as a 2-process job on a
// 2x2 mesh with the Tessera Go binding, then restores it as a 1-process job
// on a mesh of 3 devices under another layout: each process writes only
// the distinct shards its devices hold, and the restore reads only the
// bytes each new shard needs.
//
//	go run ./example/save_restore
//
// The tensors: w U8 [4, 6] (byte i is i) split over (x, y), and b U8 [6]
// (byte i is 100 + i), replicated, so stored once. Process 1 hands its
// shards as buffers, process 0 streams them from a callback; process 0
// then writes the index. The restore splits w's columns over d, and
// replicates b.
package main

import (
	"fmt"
	"io"
	"log"
	"os"
	"path/filepath"

	"github.com/tessera-dev/tessera/bindings/go/tessera"
)

type tensor struct {
	name  string
	shape []int64 // rank 1 or 2
	axes  []string
	data  []byte // row-major, one byte per element
}

func tensors() []tensor {
	w := make([]byte, 24)
	b := make([]byte, 6)
	for i := range w {
		w[i] = byte(i)
	}
	for i := range b {
		b[i] = byte(100 + i)
	}
	return []tensor{
		{"w", []int64{4, 6}, []string{"x", "y"}, w},
		{"b", []int64{6}, []string{""}, b},
	}
}

func main() {
	dir, err := os.MkdirTemp("", "tessera-save-restore-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	if err := run(os.Stdout, filepath.Join(dir, "checkpoint")); err != nil {
		log.Fatal(err)
	}
}

func run(out io.Writer, dir string) error {
	// The saving job: processes 1 and 0 (here one after the other; in a job,
	// each its own program), then process 0's Finish.
	for process := 1; process >= 0; process-- {
		if err := save(dir, process); err != nil {
			return err
		}
	}
	index, err := tessera.OpenCheckpointIndex(dir)
	if err != nil {
		return err
	}
	defer index.Close()
	stored, err := index.Tensors()
	if err != nil {
		return err
	}
	for _, t := range stored {
		for _, piece := range t.Pieces {
			fmt.Fprintf(out, "saved %s%s in file %d\n", t.Name, text(piece.Ranges), piece.File)
		}
	}
	return restore(out, index, stored)
}

// text is ranges as numpy's slices: [0:2, 3:6].
func text(ranges []tessera.Range) string {
	s := "["
	for i, r := range ranges {
		if i > 0 {
			s += ", "
		}
		s += fmt.Sprintf("%d:%d", r.Start, r.Stop)
	}
	return s + "]"
}

// box is the box ranges of t's array as row-major bytes.
func box(t tensor, ranges []tessera.Range) []byte {
	if len(t.shape) == 1 {
		return t.data[ranges[0].Start:ranges[0].Stop]
	}
	var b []byte
	for r := ranges[0].Start; r < ranges[0].Stop; r++ {
		b = append(b, t.data[r*t.shape[1]+ranges[1].Start:r*t.shape[1]+ranges[1].Stop]...)
	}
	return b
}

// save is process `process` of 2's part of the save on the 2x2 mesh.
func save(dir string, process int) error {
	mesh, err := tessera.NewMesh([]int64{2, 2}, []string{"x", "y"}, []string{"cpu:0", "cpu:1", "cpu:2", "cpu:3"})
	if err != nil {
		return err
	}
	defer mesh.Close()
	options := tessera.NewSaveOptions()
	defer options.Close()
	if err := options.SetProcess(process, 2); err != nil {
		return err
	}
	saver, err := tessera.NewSaver(dir, options)
	if err != nil {
		return err
	}
	defer saver.Close()
	all := tensors()
	for i, t := range all {
		layout, err := tessera.NewLayout(t.axes, mesh)
		if err != nil {
			return err
		}
		defer layout.Close()
		if err := saver.AddTensor(t.name, "U8", layout, t.shape); err != nil {
			return err
		}
		if process == 0 {
			continue
		}
		// Process 1 owns devices 2 and 3: their shards as buffers (the saver
		// writes only those it stores: b is device 0's).
		sharding, err := tessera.NewSharding(layout, t.shape, tessera.ShardModeStrict)
		if err != nil {
			return err
		}
		defer sharding.Close()
		for device := 2; device < 4; device++ {
			ranges, err := sharding.DeviceRanges(device)
			if err != nil {
				return err
			}
			if err := saver.SetShard(i, device, box(t, ranges)); err != nil {
				return err
			}
		}
	}
	if process == 1 {
		return saver.Write()
	}
	// Process 0 streams: the saver asks for each stored piece's bytes.
	err = saver.Stream(func(tensor, device int, ranges []tessera.Range, offset int64, out []byte) bool {
		copy(out, box(all[tensor], ranges)[offset:])
		return true
	})
	if err != nil {
		return err
	}
	return saver.Finish()
}

// restore reads the checkpoint as process 0 of 1 on a mesh of 3 devices.
func restore(out io.Writer, index *tessera.CheckpointIndex, stored []tessera.IndexedTensor) error {
	mesh, err := tessera.NewMesh([]int64{3}, []string{"d"}, []string{"cpu:0", "cpu:1", "cpu:2"})
	if err != nil {
		return err
	}
	defer mesh.Close()
	rules, err := tessera.NewLayoutMap(mesh, tessera.KeyMatchFull)
	if err != nil {
		return err
	}
	defer rules.Close()
	columns, err := tessera.NewLayout([]string{"", "d"}, mesh)
	if err != nil {
		return err
	}
	defer columns.Close()
	if err := rules.Set("w", columns); err != nil {
		return err
	}
	plan, err := tessera.NewRestorePlan(index, rules, nil, nil)
	if err != nil {
		return err
	}
	defer plan.Close()
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
		fmt.Fprintf(out, "device %d %s%s: %v\n", piece.Device, stored[piece.Tensor].Name, text(piece.Ranges), buffers[i])
	}
	fmt.Fprintf(out, "restored on 3 devices, read %d bytes\n", read)
	return nil
}
