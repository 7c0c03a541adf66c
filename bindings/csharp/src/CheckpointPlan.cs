// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// The hand-written half of CheckpointPlan and CheckpointPlanSearch
// (experimental, issue 12): tensors, devices and candidates as values, and
// the search over LayoutMap objects.
namespace Tessera {

/// <summary>A tensor of a checkpoint as a memory plan places it.</summary>
public sealed class PlannedTensor {
  /// <summary>The type it is planned at (the planned dtype, else the checkpoint's), as the format spells it.</summary>
  public string ElementType { get; }
  /// <summary>The index of the layout map's rule it matched, -1 when none (or several) did.</summary>
  public long Rule { get; }
  /// <summary>The largest shard's shape (ceil(size / shards) per dimension).</summary>
  public long[] ShardShape { get; }
  /// <summary>The largest shard's bytes at its planned type.</summary>
  public long ShardBytes { get; }
  /// <summary>Why its layout does not fit it (several rules, the ranks differ, a dimension not divisible,
  /// a cut quantized block); "" when it does.</summary>
  public string Problem { get; }

  internal PlannedTensor(string elementType, long rule, long[] shardShape, long shardBytes, string problem) {
    ElementType = elementType;
    Rule = rule;
    ShardShape = shardShape;
    ShardBytes = shardBytes;
    Problem = problem;
  }
}

/// <summary>A device's memory in a checkpoint's plan, in bytes per term; a term the recipe does not have is
/// 0.</summary>
public sealed class PlannedDevice {
  /// <summary>The tensors' shards.</summary>
  public long Weights { get; }
  /// <summary>The KV cache's share (inference).</summary>
  public long KvCache { get; }
  /// <summary>Gradients, as the weights (training).</summary>
  public long Gradients { get; }
  /// <summary>Adam's two f32 moments (training).</summary>
  public long OptimizerState { get; }
  /// <summary>f32 copies of 16-bit weights (training).</summary>
  public long MasterWeights { get; }
  /// <summary>The sum of the terms.</summary>
  public long Peak { get; }
  /// <summary>The device's capacity, -1 when unknown.</summary>
  public long Capacity { get; }
  /// <summary>Whether the peak fits the capacity.</summary>
  public PlanVerdict Verdict { get; }
  /// <summary>Capacity - Peak: negative when the device does not fit (meaningless when the capacity is
  /// unknown).</summary>
  public long Headroom => Capacity - Peak;

  internal PlannedDevice(long weights, long kvCache, long gradients, long optimizerState, long masterWeights,
                         long peak, long capacity, PlanVerdict verdict) {
    Weights = weights;
    KvCache = kvCache;
    Gradients = gradients;
    OptimizerState = optimizerState;
    MasterWeights = masterWeights;
    Peak = peak;
    Capacity = capacity;
    Verdict = verdict;
  }
}

/// <summary>A mesh shape and layout map a checkpoint was tried on.</summary>
public sealed class PlanCandidate {
  /// <summary>One size per axis of the maps' mesh.</summary>
  public long[] MeshShape { get; }
  /// <summary>The position of its map in the maps searched.</summary>
  public long LayoutMap { get; }
  /// <summary>Its largest device peak, in bytes.</summary>
  public long Peak { get; }
  /// <summary>Why it is rejected (a tensor whose layout does not fit, or the first device over its
  /// capacity); "" when it fits.</summary>
  public string Problem { get; }
  /// <summary>Whether every tensor's layout fits and every device's peak fits its capacity.</summary>
  public bool Fits => Problem.Length == 0;

  internal PlanCandidate(long[] meshShape, long layoutMap, long peak, string problem) {
    MeshShape = meshShape;
    LayoutMap = layoutMap;
    Peak = peak;
    Problem = problem;
  }
}

public partial class CheckpointPlan {
  /// <summary>Tensor <paramref name="index"/> as planned (OUT_OF_RANGE from NumTensors() on).</summary>
  public PlannedTensor Tensor(long index) {
    return new PlannedTensor(TensorElementType(index), TensorRule(index), TensorShardShape(index),
                             TensorShardBytes(index), TensorProblem(index));
  }

  /// <summary>Every tensor as planned, in the checkpoint's order.</summary>
  public PlannedTensor[] Tensors() {
    var tensors = new PlannedTensor[NumTensors()];
    for (long i = 0; i < tensors.LongLength; ++i) tensors[i] = Tensor(i);
    return tensors;
  }

  /// <summary>Device <paramref name="index"/>'s memory (OUT_OF_RANGE from NumDevices() on).</summary>
  public PlannedDevice Device(long index) {
    return new PlannedDevice(DeviceTermBytes(index, PlanTerm.Weights), DeviceTermBytes(index, PlanTerm.KvCache),
                             DeviceTermBytes(index, PlanTerm.Gradients),
                             DeviceTermBytes(index, PlanTerm.OptimizerState),
                             DeviceTermBytes(index, PlanTerm.MasterWeights), DevicePeakBytes(index),
                             DeviceCapacityBytes(index), DeviceVerdict(index));
  }

  /// <summary>Every device's memory, in mesh order.</summary>
  public PlannedDevice[] Devices() {
    var devices = new PlannedDevice[NumDevices()];
    for (long i = 0; i < devices.LongLength; ++i) devices[i] = Device(i);
    return devices;
  }

  /// <summary>
  /// Tries <paramref name="checkpoint"/> on every mesh shape of the first map's devices over its axes, with
  /// each map's rules (their meshes must have the same axes and devices); <paramref name="options"/> may be
  /// null (the defaults).
  /// </summary>
  public static CheckpointPlanSearch Search(Checkpoint checkpoint, CheckpointPlanOptions options,
                                            params LayoutMap[] layoutMaps) {
    var addresses = new long[layoutMaps == null ? 0 : layoutMaps.Length];
    for (int i = 0; i < addresses.Length; ++i) addresses[i] = Tessera.LayoutMap.getCPtr(layoutMaps[i]).Handle.ToInt64();
    try {
      return SearchOf(checkpoint, addresses, options);
    } finally {
      global::System.GC.KeepAlive(layoutMaps);
    }
  }
}

public partial class CheckpointPlanSearch {
  /// <summary>Candidate <paramref name="index"/> (OUT_OF_RANGE from NumCandidates() on).</summary>
  public PlanCandidate Candidate(long index) {
    return new PlanCandidate(CandidateMeshShape(index), CandidateLayoutMap(index), CandidatePeakBytes(index),
                             CandidateProblem(index));
  }

  /// <summary>Every candidate: those that fit first, by their largest device peak, then the rejected.</summary>
  public PlanCandidate[] Candidates() {
    var candidates = new PlanCandidate[NumCandidates()];
    for (long i = 0; i < candidates.LongLength; ++i) candidates[i] = Candidate(i);
    return candidates;
  }
}

}  // namespace Tessera
