// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// Launcher detectors: each reads only the variables its launcher documents
// and returns a complete contribution, or says why it was skipped (which
// variables are present and which are missing, coordinator.md P8). None of
// them contacts anything: Kubernetes, for instance, is read from variables
// and an explicit host template, never from the API server.
//
// Order (coordinator.md §6.8): torchrun, Open MPI (4 and 5), MPICH/Hydra and
// PMI, Slurm, GKE TPU, Kubernetes indexed jobs. Open MPI comes before Slurm
// because mpirun inside a Slurm allocation leaves the allocation's SLURM_*
// behind. GKE TPU comes before Kubernetes, as in JAX: a TPU pod of a GKE
// JobSet also has the JobSet's variables, and only the TPU ones give the
// process count.
#ifndef TESSERA_CORE_CLUSTER_LAUNCHERS_H_
#define TESSERA_CORE_CLUSTER_LAUNCHERS_H_

#include <cstdint>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "core/cluster/source.h"

namespace tessera::cluster {

// Ports derived from a job id land in [61440, 65535], JAX's range, so two jobs
// on one host rarely collide and firewalls can open one range.
inline constexpr int32_t kDerivedPortBase = 61440;
inline constexpr int32_t kDerivedPortSpan = 4096;
// JAX's Kubernetes default port.
inline constexpr int32_t kKubernetesDefaultPort = 55527;
// JAX's Cloud TPU coordinator port since 0.8.1 (8476 through 0.8.0,
// coordinator.md P6).
inline constexpr int32_t kGkeTpuPort = 8482;

// torchrun / torch.distributed env://: RANK, WORLD_SIZE, LOCAL_RANK,
// MASTER_ADDR. The port is MASTER_PORT + 1: MASTER_PORT is torch's own store,
// which is listening in the same job. TORCHELASTIC_RUN_ID is the job id.
absl::StatusOr<SourceResult> DetectTorchrun(const Environment& env);

// Open MPI: OMPI_COMM_WORLD_{SIZE,RANK,LOCAL_RANK} plus, for version 4,
// OMPI_MCA_orte_hnp_uri (coordinator = its first IP, port from its job id as
// JAX does) or, for version 5, PRTE_LAUNCHED / PMIX_SERVER_URI* (coordinator =
// the PMIx server's IP when every process is on one node: that server is
// node-local). Local device ids = [OMPI_COMM_WORLD_LOCAL_RANK], as JAX.
absl::StatusOr<SourceResult> DetectOpenMpi(const Environment& env);

// MPICH / Intel MPI (Hydra) and PMI-1/2 launchers: PMI_RANK and PMI_SIZE
// (MPI_LOCALRANKID optional). They name no coordinator, so the address must
// come from a higher source.
absl::StatusOr<SourceResult> DetectHydra(const Environment& env);

// Slurm: all of SLURM_JOB_ID, SLURM_STEP_NODELIST, SLURM_NTASKS, SLURM_PROCID,
// SLURM_LOCALID. Coordinator = the first node, port 61440 + SLURM_JOB_ID %
// 4096 (JAX), local device ids = [SLURM_LOCALID], job id = SLURM_JOB_ID.
absl::StatusOr<SourceResult> DetectSlurm(const Environment& env);

// Kubernetes Indexed Job: JOB_COMPLETION_INDEX is the process id; the
// coordinator (index 0) is TESSERA_K8S_COORDINATOR_HOST, or for a JobSet
// "<JOBSET_NAME>-<REPLICATED_JOB_NAME>-0-0.<subdomain>", or for a plain Job
// with a headless service "<job>-0.<TESSERA_K8S_SUBDOMAIN>" (job from
// HOSTNAME "<job>-<index>"). The subdomain defaults to JOBSET_NAME for a
// JobSet. Port 55527. The Job's size is not in a pod's environment:
// num_processes must come from a higher source (TESSERA_NUM_PROCESSES).
absl::StatusOr<SourceResult> DetectKubernetes(const Environment& env);

// GKE TPU (JAX's GkeTpuCluster): TPU_WORKER_ID and the slice's worker list,
// TPU_PROCESS_ADDRESSES or else TPU_WORKER_HOSTNAMES (comma-separated hosts;
// a port on an entry is dropped). Multislice adds MEGASCALE_NUM_SLICES
// (default 1) and MEGASCALE_SLICE_ID (default 0): num_processes = workers x
// slices, process_id = TPU_WORKER_ID + MEGASCALE_SLICE_ID x workers. The
// coordinator is MEGASCALE_COORDINATOR_ADDRESS's host (its port dropped),
// else the first worker, on port 8482. Local device ids are never set; the
// job id is JOBSET_NAME when set. Unlike JAX it reads no GCE metadata (the
// tpu-env fallback for MEGASCALE_*) and does not check for a Cloud TPU VM:
// the variables alone decide.
absl::StatusOr<SourceResult> DetectGkeTpu(const Environment& env);

struct Launcher {
  const char* name;  // as Detection::source and the detection option spell it
  absl::StatusOr<SourceResult> (*detect)(const Environment&);
};

// Every launcher, in detection order.
absl::Span<const Launcher> Launchers();

// The FNV-1a 32-bit hash: a port derivation every process computes alike
// from a textual job id (std::hash may differ between builds).
uint32_t Fnv1a32(absl::string_view text);

}  // namespace tessera::cluster

#endif  // TESSERA_CORE_CLUSTER_LAUNCHERS_H_
