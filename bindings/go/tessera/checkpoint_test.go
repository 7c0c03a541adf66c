// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

package tessera_test

import (
	"encoding/binary"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/tessera-dev/tessera/bindings/go/tessera"
)

// tests/capi/test_checkpoint.c's file: a 144-byte header, tensors at
// absolute offsets 152 and 176, 178 bytes in all.
const checkpointHeader = `{"__metadata__":{"format":"pt"},` +
	`"w":{"dtype":"F32","shape":[2,3],"data_offsets":[0,24]},` +
	`"s":{"dtype":"F4","shape":[2,2],"data_offsets":[24,26]}}`

// writeSafetensors writes a safetensors file in a fresh directory: the
// header's length (u64, little-endian), the header, data bytes 0, 1, 2, ...
func writeSafetensors(t *testing.T, name, header string, dataSize int) string {
	t.Helper()
	file := binary.LittleEndian.AppendUint64(nil, uint64(len(header)))
	file = append(file, header...)
	for i := 0; i < dataSize; i++ {
		file = append(file, byte(i))
	}
	path := filepath.Join(t.TempDir(), name)
	ok(t, os.WriteFile(path, file, 0o644))
	return path
}

func openCheckpoint(t *testing.T) (*tessera.Checkpoint, string) {
	t.Helper()
	path := writeSafetensors(t, "one.safetensors", checkpointHeader, 26)
	c, err := tessera.OpenCheckpoint(path)
	ok(t, err)
	t.Cleanup(func() { c.Close() })
	return c, path
}

func TestASafetensorsFileIsOneFileInTheSafetensorsFormat(t *testing.T) {
	c, path := openCheckpoint(t)
	format, err := c.Format()
	ok(t, err)
	files, err := c.Files()
	ok(t, err)
	if format != "safetensors" || !reflect.DeepEqual(files, []tessera.CheckpointFile{{Path: path, Size: 178}}) {
		t.Fatalf("Format() = %q, Files() = %+v", format, files)
	}
}

func TestCheckpointTensorsKeepTheHeaderOrderWithAbsoluteOffsetsAndBlocks(t *testing.T) {
	c, _ := openCheckpoint(t)
	tensors, err := c.Tensors()
	ok(t, err)
	want := []tessera.CheckpointTensor{
		{Name: "w", ElementType: "F32", BlockElements: 1, BlockBytes: 4, Shape: []int64{2, 3}, File: 0, Offset: 152, Size: 24},
		{Name: "s", ElementType: "F4", BlockElements: 2, BlockBytes: 1, Shape: []int64{2, 2}, File: 0, Offset: 176, Size: 2},
	}
	if !reflect.DeepEqual(tensors, want) {
		t.Fatalf("Tensors() = %+v\nwant       %+v", tensors, want)
	}
}

func TestACheckpointTensorIsLookedUpByName(t *testing.T) {
	c, _ := openCheckpoint(t)
	index, err := c.LookupTensor("s")
	ok(t, err)
	if index != 1 {
		t.Fatalf("LookupTensor(s) = %d, want 1", index)
	}
}

func TestCheckpointMetadataIsListedInFileOrderAndLookedUpByKey(t *testing.T) {
	c, _ := openCheckpoint(t)
	entries, err := c.Metadata()
	ok(t, err)
	value, err := c.MetadataValue("format")
	ok(t, err)
	if !reflect.DeepEqual(entries, []tessera.MetadataEntry{{Key: "format", Value: "pt"}}) || value != "pt" {
		t.Fatalf("Metadata() = %+v, MetadataValue(format) = %q", entries, value)
	}
}

func TestAnUnknownCheckpointTensorNameIsNotFoundNamingIt(t *testing.T) {
	c, _ := openCheckpoint(t)
	_, err := c.LookupTensor("v")
	wantError(t, err, tessera.CodeNotFound, "No tensor named 'v' in the checkpoint")
}

func TestACheckpointTensorIndexAtTheCountIsOutOfRange(t *testing.T) {
	c, _ := openCheckpoint(t)
	_, err := c.Tensor(2)
	wantError(t, err, tessera.CodeOutOfRange, "Argument 'index' is 2; expected less than 2 (the checkpoint's tensors)")
}

func TestADuplicateCheckpointTensorIsRefusedWithItsFileAndByte(t *testing.T) {
	path := writeSafetensors(t, "dup.safetensors",
		`{"a":{"dtype":"U8","shape":[1],"data_offsets":[0,1]},`+
			`"a":{"dtype":"U8","shape":[1],"data_offsets":[1,2]}}`, 2)
	c, err := tessera.OpenCheckpoint(path)
	if c != nil {
		t.Fatal("OpenCheckpoint of a duplicate tensor: a checkpoint")
	}
	wantError(t, err, tessera.CodeInvalidArgument,
		path+`: byte 61: invalid JSON in header: duplicate key "a" (first at byte 9)`)
}

func TestAClosedCheckpointIsInvalidArgumentNamingIt(t *testing.T) {
	c, _ := openCheckpoint(t)
	c.Close()
	_, err := c.NumTensors()
	wantError(t, err, tessera.CodeInvalidArgument, "Argument 'checkpoint' is NULL; expected a valid pointer")
}
