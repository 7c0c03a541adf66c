// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

package tessera_test

import (
	"reflect"
	"testing"

	"github.com/tessera-dev/tessera/bindings/go/tessera"
)

// K61: 11 batches over 3 shards; drop_last stops at 9.
func TestInterleaveBatchesK61(t *testing.T) {
	if got := must(tessera.InterleaveBatches(11, 3, 1, false)); !reflect.DeepEqual(got, []int{1, 4, 7, 10}) {
		t.Fatalf("batches %v", got)
	}
	if got := must(tessera.InterleaveBatches(11, 3, 1, true)); !reflect.DeepEqual(got, []int{1, 4, 7}) {
		t.Fatalf("drop_last batches %v", got)
	}
}

func TestInterleaveItemsAndSamples(t *testing.T) {
	if got := must(tessera.InterleaveBatchItems(25, 10, 2, 0, false)); len(got) != 15 || got[10] != 20 {
		t.Fatalf("items %v", got)
	}
	if got := must(tessera.InterleaveSamples(10, 4, 2, false)); !reflect.DeepEqual(got, []int{2, 6, 0}) {
		t.Fatalf("samples %v", got)
	}
}

// K59: torch 2.15's DistributedSampler(range(10), num_replicas=4, rank=0,
// shuffle=True) after set_epoch(1) and set_epoch(2).
func TestInterleaveSamplesShuffledK59(t *testing.T) {
	if got := must(tessera.InterleaveSamplesShuffled(10, 4, 0, false, 0, 1)); !reflect.DeepEqual(got, []int{5, 0, 7}) {
		t.Fatalf("epoch 1 samples %v", got)
	}
	if got := must(tessera.InterleaveSamplesShuffled(10, 4, 0, false, 0, 2)); !reflect.DeepEqual(got, []int{8, 6, 2}) {
		t.Fatalf("epoch 2 samples %v", got)
	}
	// seed=-1, set_epoch(1) is torch's manual_seed(0).
	if got := must(tessera.InterleaveSamplesShuffled(10, 3, 2, false, -1, 1)); !reflect.DeepEqual(got, []int{7, 9, 6, 1}) {
		t.Fatalf("negative seed samples %v", got)
	}
}

func TestInterleaveShardOutOfRangeIsKerasError(t *testing.T) {
	_, err := tessera.InterleaveBatches(10, 3, 3, false)
	if err == nil || err.Error() != "INVALID_ARGUMENT: data_shard_id must be in [0, 2]. Received: 3" {
		t.Fatalf("err %v", err)
	}
}

// K53: mesh (2, 4), 8 processes, process 5 reads interleave shard 1 of 2.
func TestDistributionSettingsAndInterleaveK53(t *testing.T) {
	lm := must(tessera.NewLayoutMap(mesh42(t), tessera.KeyMatchSearch))
	opts := tessera.NewDistributionOptions()
	ok(t, opts.SetProcess(8, 5))
	d := must(tessera.NewModelParallel(lm, "", opts))
	if d.InterleaveNumShards() != 4 || d.InterleaveShardIndex() != 2 || !d.AutoShardDataset() ||
		d.ShapeCheck() != tessera.ShapeCheckStrict || d.DatasetMode() != tessera.DatasetModeCurrent || !d.IsBatchParallel() {
		t.Fatalf("interleave %d/%d auto %v", d.InterleaveNumShards(), d.InterleaveShardIndex(), d.AutoShardDataset())
	}
	if m := must(d.LayoutMap()); m == nil {
		t.Fatal("no layout map")
	}
	plan := must(d.PlanDatasetForProcess(8, 0))
	if plan.ShardIndex() != 0 || plan.InterleaveNumShards() != 4 || plan.InterleaveShardIndex() != 0 {
		t.Fatalf("plan shard %d interleave %d/%d", plan.ShardIndex(), plan.InterleaveNumShards(), plan.InterleaveShardIndex())
	}
	if same := must(d.IsSame(d)); !same {
		t.Fatal("a distribution is not the same as itself")
	}
}
