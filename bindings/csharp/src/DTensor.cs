// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// The hand-written half of the experimental DTensor classes (issue 11):
// properties, value equality, and the arrays the native methods take flat.
namespace Tessera {

/// <summary>A TF DTensor layout of any type, with its whole DTensor mesh (experimental).</summary>
public partial class DTensorLayout : global::System.IEquatable<DTensorLayout> {
  /// <summary>Static, parted, single device or empty.</summary>
  public DTensorLayoutType Type => GetLayoutType();

  /// <summary>The rank: the number of sharding specs (0 for a scalar).</summary>
  public long NumDims => GetNumDims();

  /// <summary>The sharding specs, one per dimension.</summary>
  public string[] Specs {
    get {
      var specs = new string[NumDims];
      for (long i = 0; i < specs.LongLength; ++i) specs[i] = Spec(i);
      return specs;
    }
  }

  /// <summary>DTensor's GetMostShardedLayout of <paramref name="layouts"/> (at least one), on the first one's mesh.</summary>
  public static DTensorLayout MostSharded(params DTensorLayout[] layouts) {
    try {
      return MostShardedOf(Addresses(layouts));
    } finally {
      global::System.GC.KeepAlive(layouts);
    }
  }

  /// <summary>DTensor's GetLeastShardedLayout of <paramref name="layouts"/> (at least one, of one rank).</summary>
  public static DTensorLayout LeastSharded(params DTensorLayout[] layouts) {
    try {
      return LeastShardedOf(Addresses(layouts));
    } finally {
      global::System.GC.KeepAlive(layouts);
    }
  }

  // The handles of live layouts; 0 (refused by the C call, naming the entry) for null.
  static long[] Addresses(DTensorLayout[] layouts) {
    var addresses = new long[layouts == null ? 0 : layouts.Length];
    for (int i = 0; i < addresses.Length; ++i) addresses[i] = getCPtr(layouts[i]).Handle.ToInt64();
    return addresses;
  }

  /// <summary>
  /// GlobalShapeFromLocalShape: the global shape of <paramref name="localShape"/>; with
  /// <paramref name="localShapes"/> (one per local device, each of the rank's extents), a dynamic
  /// axis sums its shards.
  /// </summary>
  public long[] GlobalShapeFromLocal(long[] localShape, params long[][] localShapes) {
    int rank = localShape == null ? 0 : localShape.Length;
    var flat = new long[localShapes.Length * rank];
    for (int k = 0; k < localShapes.Length; ++k) {
      if (localShapes[k].Length != rank) {
        throw new TesseraException(Code.InvalidArgument, "Argument 'local_shapes' entry " + k + " has " +
                                   localShapes[k].Length + " extents; expected the local shape's " + rank);
      }
      global::System.Array.Copy(localShapes[k], 0, flat, k * rank, rank);
    }
    return GlobalShapeFromLocalFlat(localShape, flat, localShapes.Length);
  }

  /// <summary>Whether <paramref name="other"/> has the same type, specs and mesh (DTensor's ==).</summary>
  public bool Equals(DTensorLayout other) => !ReferenceEquals(other, null) && IsEqual(other);

  /// <summary>Whether <paramref name="other"/> is an equal <see cref="DTensorLayout"/>.</summary>
  public override bool Equals(object other) => Equals(other as DTensorLayout);

  /// <summary>A hash that equal layouts share (their rank and type).</summary>
  public override int GetHashCode() => (NumDims * 31 + (long)Type).GetHashCode();

  /// <summary>Value equality; two nulls are equal.</summary>
  public static bool operator ==(DTensorLayout a, DTensorLayout b) =>
      ReferenceEquals(a, null) ? ReferenceEquals(b, null) : a.Equals(b);

  /// <summary>The negation of ==.</summary>
  public static bool operator !=(DTensorLayout a, DTensorLayout b) => !(a == b);
}

/// <summary>DTensor meshes compare as DTensor's Mesh ==: every field of its proto.</summary>
public partial class DTensorMesh : global::System.IEquatable<DTensorMesh> {
  /// <summary>Mesh::hosts: how many distinct "/job:J/task:T" the local devices name.</summary>
  public long NumHosts => GetNumHosts();

  /// <summary>The hosts ("/job:localhost/task:0"), first seen first.</summary>
  public string[] Hosts {
    get {
      var hosts = new string[NumHosts];
      for (long i = 0; i < hosts.LongLength; ++i) hosts[i] = Host(i);
      return hosts;
    }
  }

  /// <summary>Whether <paramref name="other"/> is the same mesh field by field.</summary>
  public bool Equals(DTensorMesh other) => !ReferenceEquals(other, null) && IsEqual(other);

  /// <summary>Whether <paramref name="other"/> is an equal <see cref="DTensorMesh"/>.</summary>
  public override bool Equals(object other) => Equals(other as DTensorMesh);

  /// <summary>A hash that equal meshes share (their rank and id count).</summary>
  public override int GetHashCode() => (NumDims * 31 + NumGlobalIds).GetHashCode();

  /// <summary>Value equality; two nulls are equal.</summary>
  public static bool operator ==(DTensorMesh a, DTensorMesh b) =>
      ReferenceEquals(a, null) ? ReferenceEquals(b, null) : a.Equals(b);

  /// <summary>The negation of ==.</summary>
  public static bool operator !=(DTensorMesh a, DTensorMesh b) => !(a == b);
}

/// <summary>TF DTensor's configuration (config.py) read from DTENSOR_* variables (experimental).</summary>
public partial class DTensorConfig {
  /// <summary>DTensor's heartbeat_enabled(): DTENSOR_ENABLE_HEARTBEAT (default true).</summary>
  public bool HeartbeatEnabled => GetHeartbeatEnabled();

  /// <summary>Whether the accelerators were initialised (the options' setting; true unset).</summary>
  public bool AcceleratorsInitialized => GetAcceleratorsInitialized();

  /// <summary>DTensor's jobs(): DTENSOR_JOBS split on ',' (empty in local mode).</summary>
  public string[] Jobs() {
    var jobs = new string[NumJobs()];
    for (long i = 0; i < jobs.LongLength; ++i) jobs[i] = Job(i);
    return jobs;
  }
}

}
