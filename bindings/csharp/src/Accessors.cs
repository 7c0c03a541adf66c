// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// The accessors of the generated classes as properties (see "accessors as
// properties" in ../tessera_csharp.i): each reads its internal Get<Name>().
namespace Tessera {

public partial class Device {
  /// <summary>The device's id (unique in the job).</summary>
  public long Id => GetId();

  /// <summary>The device's platform.</summary>
  public Platform Platform => GetPlatform();

  /// <summary>The index of the process that owns the device.</summary>
  public long ProcessIndex => GetProcessIndex();

  /// <summary>The device's ordinal among its process's devices of its platform.</summary>
  public long LocalOrdinal => GetLocalOrdinal();

  /// <summary>The device's name ("gpu:3").</summary>
  public string Name => GetName();

  /// <summary>Whether the device has physical coordinates (TPUs).</summary>
  public bool HasCoords => GetHasCoords();

  /// <summary>The device's core on its chip (TPUs; 0 otherwise).</summary>
  public long CoreOnChip => GetCoreOnChip();
}

public partial class DeviceList {
  /// <summary>The number of devices in the list.</summary>
  public long NumDevices => GetNumDevices();
}

public partial class LocalDevices {
  /// <summary>The number of devices discovery found.</summary>
  public long NumDevices => GetNumDevices();

  /// <summary>Which discovery found the devices.</summary>
  public string Provider => GetProvider();

  /// <summary>Why NVML could not be used ("" when it was).</summary>
  public string NvmlUnavailableReason => GetNvmlUnavailableReason();
}

public partial class Mesh {
  /// <summary>The number of mesh axes.</summary>
  public long NumAxes => GetNumAxes();

  /// <summary>The number of devices in the mesh.</summary>
  public long NumDevices => GetNumDevices();

  /// <summary>The platform of the mesh's devices.</summary>
  public Platform Platform => GetPlatform();
}

public partial class Layout {
  /// <summary>The number of tensor dimensions the layout describes.</summary>
  public long NumDims => GetNumDims();
}

public partial class LayoutMap {
  /// <summary>The number of rules in the map.</summary>
  public long NumRules => GetNumRules();

  /// <summary>How rule keys match variable paths.</summary>
  public KeyMatch Match => GetMatch();
}

public partial class Distribution {
  /// <summary>Data or model parallel.</summary>
  public DistributionKind Kind => GetKind();

  /// <summary>The mesh axis the batch is split over.</summary>
  public string BatchDimName => GetBatchDimName();

  /// <summary>The number of processes the distribution spans.</summary>
  public long NumProcesses => GetNumProcesses();

  /// <summary>This process's index.</summary>
  public long ProcessIndex => GetProcessIndex();

  /// <summary>The number of model replicas.</summary>
  public long NumModelReplicas => GetNumModelReplicas();

  /// <summary>The number of data shards.</summary>
  public long NumDataShards => GetNumDataShards();

  /// <summary>This process's data shard.</summary>
  public long DataShardId => GetDataShardId();
}

public partial class DatasetPlan {
  /// <summary>Whether the dataset passes through, is replicated or is sharded.</summary>
  public DatasetPlanKind Kind => GetKind();

  /// <summary>The global batch, in examples.</summary>
  public long GlobalBatchSize => GetGlobalBatchSize();

  /// <summary>Each process's batch, in examples.</summary>
  public long PerProcessBatchSize => GetPerProcessBatchSize();

  /// <summary>The number of dataset shards.</summary>
  public long NumShards => GetNumShards();

  /// <summary>This process's dataset shard.</summary>
  public long ShardIndex => GetShardIndex();

  /// <summary>The number of rebatch sizes (RebatchSize(i)).</summary>
  public long NumRebatchSizes => GetNumRebatchSizes();
}

public partial class Sharding {
  /// <summary>The number of tensor dimensions.</summary>
  public long NumDims => GetNumDims();

  /// <summary>The number of devices (shards, replicas included).</summary>
  public long NumDevices => GetNumDevices();
}

public partial class ReshardPlan {
  /// <summary>The number of transfers in the plan.</summary>
  public long NumTransfers => GetNumTransfers();

  /// <summary>The number of tensor dimensions.</summary>
  public long NumDims => GetNumDims();
}

public partial class DTensorMesh {
  /// <summary>Empty, tile or single-device.</summary>
  public DTensorMeshKind Kind => GetKind();

  /// <summary>The mesh's name.</summary>
  public string Name => GetName();

  /// <summary>The devices' type ("CPU", "GPU", "TPU").</summary>
  public string DeviceType => GetDeviceType();

  /// <summary>The device of a single-device mesh ("" otherwise).</summary>
  public string SingleDevice => GetSingleDevice();

  /// <summary>Whether the mesh uses XLA SPMD.</summary>
  public bool UseXlaSpmd => GetUseXlaSpmd();

  /// <summary>The number of mesh dimensions.</summary>
  public long NumDims => GetNumDims();

  /// <summary>The number of global device ids.</summary>
  public long NumGlobalIds => GetNumGlobalIds();

  /// <summary>The number of this client's device ids.</summary>
  public long NumLocalIds => GetNumLocalIds();

  /// <summary>The number of global device names.</summary>
  public long NumGlobalDevices => GetNumGlobalDevices();
}

public partial class Detection {
  /// <summary>Where the configuration came from.</summary>
  public string Source => GetSource();

  /// <summary>The coordinator's address.</summary>
  public string CoordinatorAddress => GetCoordinatorAddress();

  /// <summary>The address the coordinator binds.</summary>
  public string BindAddress => GetBindAddress();

  /// <summary>The number of processes in the job.</summary>
  public long NumProcesses => GetNumProcesses();

  /// <summary>This process's index.</summary>
  public long ProcessIndex => GetProcessIndex();

  /// <summary>The job's id.</summary>
  public string JobId => GetJobId();

  /// <summary>The number of local device ids (LocalDeviceId(i)).</summary>
  public long NumLocalDeviceIds => GetNumLocalDeviceIds();

  /// <summary>How each value was found, for people.</summary>
  public string Explanation => GetExplanation();
}

public partial class Client {
  /// <summary>This process's index in the job.</summary>
  public long ProcessIndex => GetProcessIndex();

  /// <summary>The number of processes in the job.</summary>
  public long NumProcesses => GetNumProcesses();

  /// <summary>The job's topology fingerprint (the uint64's bits).</summary>
  public long TopologyFingerprint => GetTopologyFingerprint();

  /// <summary>How many times the topology has changed.</summary>
  public long TopologyGeneration => GetTopologyGeneration();

  /// <summary>The coordinator's address.</summary>
  public string CoordinatorAddress => GetCoordinatorAddress();
}

public partial class Event {
  /// <summary>What happened.</summary>
  public EventKind Kind => GetKind();

  /// <summary>The process the event is about.</summary>
  public long ProcessIndex => GetProcessIndex();

  /// <summary>That process's state.</summary>
  public TaskState TaskState => GetTaskState();

  /// <summary>The error code of a job error.</summary>
  public Code Code => GetCode();

  /// <summary>The event's message.</summary>
  public string Message => GetMessage();

  /// <summary>The topology generation.</summary>
  public long Generation => GetGeneration();

  /// <summary>The event's sequence number.</summary>
  public long Version => GetVersion();
}

public partial class KvList {
  /// <summary>The number of entries.</summary>
  public long NumEntries => GetNumEntries();
}

public partial class Coordinator {
  /// <summary>The port the coordinator serves on.</summary>
  public int Port => GetPort();
}

}
