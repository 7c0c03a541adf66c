// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

package main

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"strconv"
	"testing"
	"time"
)

// TestMain turns a re-executed test binary into one process of the example.
func TestMain(m *testing.M) {
	if id := os.Getenv("TESSERA_GO_EXAMPLE_ID"); id != "" {
		n, _ := strconv.Atoi(id)
		if err := run(context.Background(), os.Stdout, os.Getenv("TESSERA_GO_EXAMPLE_ADDRESS"), 2, n); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func TestTwoProcessesRunTheExample(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	address := l.Addr().String()
	l.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	var cmds [2]*exec.Cmd
	var outs, logs [2]bytes.Buffer // stdout; stderr (library log lines, errors)
	for id := range cmds {
		cmds[id] = exec.CommandContext(ctx, os.Args[0], "-test.run=^$")
		cmds[id].Env = append(os.Environ(), fmt.Sprintf("TESSERA_GO_EXAMPLE_ID=%d", id), "TESSERA_GO_EXAMPLE_ADDRESS="+address)
		cmds[id].Stdout, cmds[id].Stderr = &outs[id], &logs[id]
		if err := cmds[id].Start(); err != nil {
			t.Fatal(err)
		}
	}
	for id, cmd := range cmds {
		if err := cmd.Wait(); err != nil {
			t.Errorf("process %d: %v\n%s%s", id, err, outs[id].String(), logs[id].String())
		}
	}
	if want := "hello from 0\nhello from 1\nprocess 0 of 2 passed the barrier\n"; outs[0].String() != want {
		t.Errorf("process 0 printed %q, want %q", outs[0].String(), want)
	}
	if want := "process 1 of 2 passed the barrier\n"; outs[1].String() != want {
		t.Errorf("process 1 printed %q, want %q", outs[1].String(), want)
	}
}
