// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

package main

import (
	"os"
	"strings"
	"testing"
)

// The README's Go example is this program, verbatim: compiled (and run) here.
func TestReadmeShowsThisProgram(t *testing.T) {
	readme := os.Getenv("TESSERA_README")
	if readme == "" {
		t.Skip("TESSERA_README is not set (meson test sets it)")
	}
	text, err := os.ReadFile(readme)
	if err != nil {
		t.Fatal(err)
	}
	section := string(text)
	start := strings.Index(section, "\n## Go\n")
	if start < 0 {
		t.Fatal("README has no \"## Go\" section")
	}
	section = section[start+1:]
	if end := strings.Index(section[1:], "\n## "); end >= 0 {
		section = section[:end+1]
	}
	const fence = "```go\n"
	open := strings.Index(section, fence)
	if open < 0 {
		t.Fatal("the README's Go section has no ```go block")
	}
	block := section[open+len(fence):]
	block = block[:strings.Index(block, "```")]
	program, err := os.ReadFile("main.go")
	if err != nil {
		t.Fatal(err)
	}
	if block != withoutLicenceHeader(string(program)) {
		t.Fatalf("the README's Go example differs from example/readme/main.go:\n%s", block)
	}
}

// The file's leading SPDX lines (and the blank line after them) are the
// repository's licensing, not part of the example the README shows.
func withoutLicenceHeader(program string) string {
	for strings.HasPrefix(program, "// SPDX-") {
		program = program[strings.Index(program, "\n")+1:]
	}
	return strings.TrimPrefix(program, "\n")
}

// With no TESSERA_* variable: the program names its devices itself.
func TestReadmeProgramRunsWithoutEnvironment(t *testing.T) {
	for _, name := range []string{"TESSERA_CPU_DEVICE_COUNT", "TESSERA_DEVICES"} {
		if value, set := os.LookupEnv(name); set {
			t.Setenv(name, value) // restored after the test
			os.Unsetenv(name)
		}
	}
	main()
}
