// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

#include "core/cluster/launchers.h"

#include <array>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "core/cluster/slurm_nodelist.h"
#include "core/status_macros.h"

namespace tessera::cluster {
namespace {

using State = SourceResult::State;

SourceResult Absent(absl::Span<const char* const> names) {
  SourceResult result;
  result.state = State::kAbsent;
  result.diagnostic = DescribeAbsent(names);
  return result;
}

SourceResult Partial(std::string diagnostic) {
  SourceResult result;
  result.state = State::kPartial;
  result.diagnostic = std::move(diagnostic);
  return result;
}

SourceResult Present(Contribution contribution, std::string diagnostic) {
  SourceResult result;
  result.state = State::kPresent;
  result.contribution = std::move(contribution);
  result.diagnostic = std::move(diagnostic);
  return result;
}

const std::string& Var(const Environment& env, absl::string_view name) { return *FindVar(env, name); }

// A host alone (no port), as launchers give it.
absl::StatusOr<HostPort> HostOnly(absl::string_view host, absl::string_view what) {
  TESSERA_ASSIGN_OR_RETURN(HostPort parsed, ParseHostPort(host, what));
  if (parsed.port) {
    return absl::InvalidArgumentError(absl::StrCat(what, " must be a host name or IP without a port, got \"", host, "\""));
  }
  return parsed;
}

// Why a launcher's local rank became the local device ids, and the way out
// on hosts with fewer local devices than processes (CPU-only tests, say).
std::string LocalRankNote(absl::string_view launcher, absl::string_view variable, int64_t local_rank) {
  return absl::StrCat(launcher, ": local_device_ids [", local_rank, "] from ", variable,
                      " (one device per process, as JAX); set TESSERA_LOCAL_DEVICE_IDS to choose others (empty: all)");
}

int32_t DerivedPort(uint64_t key) { return kDerivedPortBase + static_cast<int32_t>(key % kDerivedPortSpan); }

// ---- torchrun

constexpr std::array<const char*, 4> kTorchrunVars = {"RANK", "WORLD_SIZE", "LOCAL_RANK", "MASTER_ADDR"};

// ---- Open MPI

constexpr std::array<const char*, 3> kOmpiVars = {"OMPI_COMM_WORLD_SIZE", "OMPI_COMM_WORLD_RANK",
                                                  "OMPI_COMM_WORLD_LOCAL_RANK"};
constexpr char kOrteHnpUri[] = "OMPI_MCA_orte_hnp_uri";
// Newest first: the URI a PMIx 4.1 server publishes for its clients, then older encodings.
constexpr std::array<const char*, 5> kPmixServerUris = {"PMIX_SERVER_URI41", "PMIX_SERVER_URI4", "PMIX_SERVER_URI3",
                                                        "PMIX_SERVER_URI21", "PMIX_SERVER_URI2"};

// The first IP of "…;tcp://IP[,IP…]:port" or "…;tcp6://[IP[,IP…]]:port"
// (also "tcp4://", PMIx's spelling), as JAX's regular expression reads it.
absl::StatusOr<std::string> FirstUriIp(absl::string_view var, absl::string_view uri) {
  for (absl::string_view scheme : {"tcp://", "tcp4://"}) {
    const size_t at = uri.find(scheme);
    if (at == absl::string_view::npos) continue;
    const absl::string_view rest = uri.substr(at + scheme.size());
    const size_t end = rest.find_first_of(",:");
    if (end != absl::string_view::npos && end > 0) return std::string(rest.substr(0, end));
  }
  const size_t at = uri.find("tcp6://[");
  if (at != absl::string_view::npos) {
    const absl::string_view rest = uri.substr(at + 8);
    const size_t end = rest.find_first_of(",]");
    if (end != absl::string_view::npos && end > 0) return std::string(rest.substr(0, end));
  }
  return absl::InvalidArgumentError(absl::StrCat("Environment variable ", var, " holds no tcp:// or tcp6:// address: \"",
                                                 uri, "\""));
}

absl::Status OpenMpi4(const Environment& env, Contribution& out, std::string& diagnostic) {
  const std::string& uri = Var(env, kOrteHnpUri);
  // "1531576320.0;tcp://10.96.0.1,10.148.0.1:34911": the job id precedes the first '.'.
  const std::string job = std::string(absl::string_view(uri).substr(0, uri.find('.')));
  uint64_t job_number = 0;
  if (!absl::SimpleAtoi(job, &job_number)) {
    return absl::InvalidArgumentError(absl::StrCat("Environment variable ", kOrteHnpUri,
                                                   " must start with a numeric job id (\"1531576320.0;tcp://…\"), got \"",
                                                   uri, "\""));
  }
  TESSERA_ASSIGN_OR_RETURN(const std::string ip, FirstUriIp(kOrteHnpUri, uri));
  HostPort coordinator{ip, DerivedPort(job_number / kDerivedPortSpan)};
  out.port_formula = absl::StrCat("(jobid / 4096) % 4096 + 61440 with jobid = ", job, " from ", kOrteHnpUri, " = ",
                                  *coordinator.port, " (as JAX)");
  out.coordinator = std::move(coordinator);
  out.job_id = job;
  out.notes.push_back(absl::StrCat("openmpi: the coordinator host is mpirun's first address in ", kOrteHnpUri,
                                   " (as JAX); process 0 must run on that host"));
  diagnostic = absl::StrCat("Open MPI 4 (", kOrteHnpUri, ")");
  return absl::OkStatus();
}

absl::Status OpenMpi5(const Environment& env, int64_t size, Contribution& out, std::string& diagnostic) {
  const char* uri_var = nullptr;
  for (const char* name : kPmixServerUris) {
    if (FindVar(env, name) != nullptr) {
      uri_var = name;
      break;
    }
  }
  diagnostic = "Open MPI 5 (PRRTE/PMIx)";
  if (uri_var == nullptr) {
    out.notes.push_back("openmpi: PRTE_LAUNCHED is set but no PMIX_SERVER_URI* names an address; set "
                        "TESSERA_COORDINATOR_ADDRESS");
    return absl::OkStatus();
  }
  const std::string& uri = Var(env, uri_var);
  // "prterun-host-1234@0.0;tcp4://10.0.0.1:45678": namespace.rank before ';'.
  std::string job;
  if (const std::string* ns = FindVar(env, "PMIX_NAMESPACE")) {
    job = *ns;
  } else {
    const absl::string_view prefix = absl::string_view(uri).substr(0, uri.find(';'));
    job = std::string(prefix.substr(0, prefix.rfind('.')));
  }
  out.job_id = job;
  const int32_t port = DerivedPort(Fnv1a32(job));
  out.port_formula = absl::StrCat("FNV-1a(\"", job, "\") % 4096 + 61440 = ", port, " (job id from ",
                                  FindVar(env, "PMIX_NAMESPACE") != nullptr ? "PMIX_NAMESPACE" : uri_var, ")");
  // PRRTE runs one PMIx server per node, so its URI names this node's daemon:
  // a shared coordinator only when every process is on one node.
  const std::string* local_size = FindVar(env, "OMPI_COMM_WORLD_LOCAL_SIZE");
  int64_t local = -1;
  if (local_size == nullptr || !absl::SimpleAtoi(*local_size, &local) || local != size) {
    out.notes.push_back(absl::StrCat(
        "openmpi: ", uri_var, " names the node-local PRRTE daemon, which differs between nodes; OMPI_COMM_WORLD_LOCAL_SIZE=",
        local_size ? *local_size : "(unset)", " of OMPI_COMM_WORLD_SIZE=", size,
        " does not show a single-node job, so the coordinator address must be given (TESSERA_COORDINATOR_ADDRESS)"));
    out.port_formula.clear();
    return absl::OkStatus();
  }
  TESSERA_ASSIGN_OR_RETURN(const std::string ip, FirstUriIp(uri_var, uri));
  out.coordinator = HostPort{ip, port};
  absl::StrAppend(&diagnostic, ", ", uri_var);
  return absl::OkStatus();
}

// ---- Hydra / PMI

constexpr std::array<const char*, 2> kHydraVars = {"PMI_RANK", "PMI_SIZE"};
constexpr std::array<const char*, 3> kHydraAllVars = {"PMI_RANK", "PMI_SIZE", "MPI_LOCALRANKID"};

// ---- Slurm

constexpr std::array<const char*, 5> kSlurmVars = {"SLURM_JOB_ID", "SLURM_STEP_NODELIST", "SLURM_NTASKS",
                                                   "SLURM_PROCID", "SLURM_LOCALID"};

// ---- Kubernetes

constexpr std::array<const char*, 6> kKubernetesVars = {"JOB_COMPLETION_INDEX", "TESSERA_K8S_COORDINATOR_HOST",
                                                        "JOBSET_NAME",          "REPLICATED_JOB_NAME",
                                                        "TESSERA_K8S_SUBDOMAIN", "HOSTNAME"};

// ---- GKE TPU

constexpr char kTpuWorkerId[] = "TPU_WORKER_ID";
constexpr char kTpuProcessAddresses[] = "TPU_PROCESS_ADDRESSES";
constexpr char kTpuWorkerHostnames[] = "TPU_WORKER_HOSTNAMES";
constexpr char kMegascaleCoordinator[] = "MEGASCALE_COORDINATOR_ADDRESS";
constexpr char kMegascaleNumSlices[] = "MEGASCALE_NUM_SLICES";
constexpr char kMegascaleSliceId[] = "MEGASCALE_SLICE_ID";
constexpr std::array<const char*, 6> kGkeTpuVars = {kTpuWorkerId,          kTpuWorkerHostnames, kTpuProcessAddresses,
                                                    kMegascaleCoordinator, kMegascaleNumSlices, kMegascaleSliceId};

// The hosts of a comma-separated worker list. TPU_PROCESS_ADDRESSES entries
// carry a port ("10.0.0.1:8476"), which is libtpu's, so only the host is kept.
absl::StatusOr<std::vector<std::string>> TpuWorkerHosts(const char* var, const std::string& list) {
  std::vector<std::string> hosts;
  for (absl::string_view entry : absl::StrSplit(list, ',')) {
    const absl::string_view trimmed = absl::StripAsciiWhitespace(entry);
    const std::string what = absl::StrCat("Environment variable ", var, " entry ", hosts.size());
    if (trimmed.empty()) {
      return absl::InvalidArgumentError(absl::StrCat(what, " is empty in \"", list,
                                                     "\"; expected comma-separated worker host names"));
    }
    TESSERA_ASSIGN_OR_RETURN(HostPort parsed, ParseHostPort(trimmed, what));
    hosts.push_back(std::move(parsed.host));
  }
  return hosts;
}

// A MEGASCALE_* count or id: unset or empty means `fallback`, as JAX's
// `if not value` reads it.
absl::StatusOr<int64_t> MegascaleInt(const Environment& env, const char* var, int64_t fallback, int64_t min) {
  const std::string* value = FindVar(env, var);
  if (value == nullptr || absl::StripAsciiWhitespace(*value).empty()) return fallback;
  return ParseIntVarAtLeast(var, *value, min);
}

}  // namespace

uint32_t Fnv1a32(absl::string_view text) {
  uint32_t hash = 2166136261u;
  for (unsigned char c : text) {
    hash ^= c;
    hash *= 16777619u;
  }
  return hash;
}

absl::StatusOr<SourceResult> DetectTorchrun(const Environment& env) {
  const Presence presence = CheckPresence(env, kTorchrunVars);
  if (presence.none()) return Absent(kTorchrunVars);
  if (!presence.all()) return Partial(DescribePartial(presence));
  Contribution out;
  TESSERA_ASSIGN_OR_RETURN(out.process_id, ParseIntVarAtLeast("RANK", Var(env, "RANK"), 0));
  TESSERA_ASSIGN_OR_RETURN(out.num_processes, ParseIntVarAtLeast("WORLD_SIZE", Var(env, "WORLD_SIZE"), 1));
  TESSERA_RETURN_IF_ERROR(ParseIntVarAtLeast("LOCAL_RANK", Var(env, "LOCAL_RANK"), 0).status());
  TESSERA_ASSIGN_OR_RETURN(HostPort coordinator,
                           HostOnly(Var(env, "MASTER_ADDR"), "Environment variable MASTER_ADDR"));
  if (const std::string* master_port = FindVar(env, "MASTER_PORT")) {
    TESSERA_ASSIGN_OR_RETURN(const int32_t port, ParsePort(*master_port, "Environment variable MASTER_PORT"));
    if (port == 65535) {
      return absl::InvalidArgumentError(
          "Environment variable MASTER_PORT is 65535, so MASTER_PORT + 1 is not a port; set TESSERA_COORDINATOR_PORT");
    }
    coordinator.port = port + 1;
    out.port_formula = absl::StrCat("MASTER_PORT + 1 = ", port, " + 1 = ", port + 1,
                                    " (MASTER_PORT is torch's own store port, not reused)");
  } else {
    out.notes.push_back("torchrun: MASTER_PORT is not set, so the coordinator port (MASTER_PORT + 1) must come from "
                        "TESSERA_COORDINATOR_PORT");
  }
  out.coordinator = std::move(coordinator);
  if (const std::string* run_id = FindVar(env, "TORCHELASTIC_RUN_ID")) out.job_id = *run_id;
  return Present(std::move(out), "RANK, WORLD_SIZE, LOCAL_RANK, MASTER_ADDR");
}

absl::StatusOr<SourceResult> DetectOpenMpi(const Environment& env) {
  const Presence presence = CheckPresence(env, kOmpiVars);
  const bool v4 = FindVar(env, kOrteHnpUri) != nullptr;
  bool v5 = FindVar(env, "PRTE_LAUNCHED") != nullptr;
  for (const char* name : kPmixServerUris) v5 = v5 || FindVar(env, name) != nullptr;
  if (presence.none() && !v4 && !v5) {
    return Absent({"OMPI_COMM_WORLD_SIZE", "OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_LOCAL_RANK", kOrteHnpUri,
                   "PRTE_LAUNCHED", "PMIX_SERVER_URI*"});
  }
  if (!presence.all() || (!v4 && !v5)) {
    Presence described = presence;
    if (v4) described.present.emplace_back(kOrteHnpUri);
    if (v5) described.present.emplace_back("PRTE_LAUNCHED or PMIX_SERVER_URI*");
    if (!v4 && !v5) described.missing.emplace_back("OMPI_MCA_orte_hnp_uri (Open MPI 4) or PRTE_LAUNCHED/PMIX_SERVER_URI* (Open MPI 5)");
    return Partial(DescribePartial(described));
  }
  Contribution out;
  TESSERA_ASSIGN_OR_RETURN(out.num_processes,
                           ParseIntVarAtLeast("OMPI_COMM_WORLD_SIZE", Var(env, "OMPI_COMM_WORLD_SIZE"), 1));
  TESSERA_ASSIGN_OR_RETURN(out.process_id,
                           ParseIntVarAtLeast("OMPI_COMM_WORLD_RANK", Var(env, "OMPI_COMM_WORLD_RANK"), 0));
  TESSERA_ASSIGN_OR_RETURN(const int64_t local_rank, ParseIntVarAtLeast("OMPI_COMM_WORLD_LOCAL_RANK",
                                                                        Var(env, "OMPI_COMM_WORLD_LOCAL_RANK"), 0));
  out.local_device_ids = std::vector<int64_t>{local_rank};
  out.notes.push_back(LocalRankNote("openmpi", "OMPI_COMM_WORLD_LOCAL_RANK", local_rank));
  std::string diagnostic;
  if (v4) {
    TESSERA_RETURN_IF_ERROR(OpenMpi4(env, out, diagnostic));
  } else {
    TESSERA_RETURN_IF_ERROR(OpenMpi5(env, *out.num_processes, out, diagnostic));
  }
  return Present(std::move(out), std::move(diagnostic));
}

absl::StatusOr<SourceResult> DetectHydra(const Environment& env) {
  const Presence presence = CheckPresence(env, kHydraVars);
  if (presence.none()) {
    if (FindVar(env, "MPI_LOCALRANKID") == nullptr) return Absent(kHydraAllVars);
    return Partial(DescribePartial(Presence{{"MPI_LOCALRANKID"}, {"PMI_RANK", "PMI_SIZE"}}));
  }
  if (!presence.all()) return Partial(DescribePartial(presence));
  Contribution out;
  TESSERA_ASSIGN_OR_RETURN(out.process_id, ParseIntVarAtLeast("PMI_RANK", Var(env, "PMI_RANK"), 0));
  TESSERA_ASSIGN_OR_RETURN(out.num_processes, ParseIntVarAtLeast("PMI_SIZE", Var(env, "PMI_SIZE"), 1));
  if (const std::string* local = FindVar(env, "MPI_LOCALRANKID")) {
    TESSERA_RETURN_IF_ERROR(ParseIntVarAtLeast("MPI_LOCALRANKID", *local, 0).status());
  }
  out.notes.push_back("hydra: MPICH/Hydra and PMI name no coordinator; give its address explicitly "
                      "(TESSERA_COORDINATOR_ADDRESS or the coordinator_address option)");
  return Present(std::move(out), "PMI_RANK, PMI_SIZE");
}

absl::StatusOr<SourceResult> DetectSlurm(const Environment& env) {
  const Presence presence = CheckPresence(env, kSlurmVars);
  if (presence.none()) return Absent(kSlurmVars);
  // A shell on an allocated node (ssh, or salloc without srun) has only part
  // of the set: skip rather than guess (jax#30073).
  if (!presence.all()) return Partial(DescribePartial(presence));
  Contribution out;
  const std::string& job = Var(env, "SLURM_JOB_ID");
  TESSERA_ASSIGN_OR_RETURN(const int64_t job_number, ParseIntVarAtLeast("SLURM_JOB_ID", job, 0));
  TESSERA_ASSIGN_OR_RETURN(out.num_processes, ParseIntVarAtLeast("SLURM_NTASKS", Var(env, "SLURM_NTASKS"), 1));
  TESSERA_ASSIGN_OR_RETURN(out.process_id, ParseIntVarAtLeast("SLURM_PROCID", Var(env, "SLURM_PROCID"), 0));
  TESSERA_ASSIGN_OR_RETURN(const int64_t local_id, ParseIntVarAtLeast("SLURM_LOCALID", Var(env, "SLURM_LOCALID"), 0));
  out.local_device_ids = std::vector<int64_t>{local_id};
  out.notes.push_back(LocalRankNote("slurm", "SLURM_LOCALID", local_id));
  absl::StatusOr<std::string> host = FirstSlurmHost(Var(env, "SLURM_STEP_NODELIST"));
  if (!host.ok()) {
    return absl::InvalidArgumentError(absl::StrCat("Environment variable SLURM_STEP_NODELIST: ", host.status().message()));
  }
  TESSERA_ASSIGN_OR_RETURN(HostPort coordinator, HostOnly(*host, "The first host of SLURM_STEP_NODELIST"));
  coordinator.port = DerivedPort(static_cast<uint64_t>(job_number));
  out.port_formula = absl::StrCat("SLURM_JOB_ID % 4096 + 61440 = ", job, " % 4096 + 61440 = ", *coordinator.port,
                                  " (as JAX)");
  out.coordinator = std::move(coordinator);
  out.job_id = job;
  return Present(std::move(out), "SLURM_JOB_ID, SLURM_STEP_NODELIST, SLURM_NTASKS, SLURM_PROCID, SLURM_LOCALID");
}

absl::StatusOr<SourceResult> DetectGkeTpu(const Environment& env) {
  const Presence presence = CheckPresence(env, kGkeTpuVars);
  if (presence.none()) return Absent(kGkeTpuVars);
  const std::string* worker_id = FindVar(env, kTpuWorkerId);
  // TPU_PROCESS_ADDRESSES first, as JAX reads it.
  const char* list_var = FindVar(env, kTpuProcessAddresses) != nullptr ? kTpuProcessAddresses
                         : FindVar(env, kTpuWorkerHostnames) != nullptr ? kTpuWorkerHostnames
                                                                        : nullptr;
  if (worker_id == nullptr || list_var == nullptr) {
    Presence described;
    described.present = presence.present;
    if (worker_id == nullptr) described.missing.emplace_back(kTpuWorkerId);
    if (list_var == nullptr) described.missing.emplace_back("TPU_WORKER_HOSTNAMES (or TPU_PROCESS_ADDRESSES)");
    return Partial(DescribePartial(described));
  }
  TESSERA_ASSIGN_OR_RETURN(const std::vector<std::string> hosts, TpuWorkerHosts(list_var, Var(env, list_var)));
  const int64_t workers = static_cast<int64_t>(hosts.size());
  TESSERA_ASSIGN_OR_RETURN(const int64_t id_in_slice, ParseIntVarAtLeast(kTpuWorkerId, *worker_id, 0));
  if (id_in_slice >= workers) {
    return absl::InvalidArgumentError(absl::StrCat("Environment variable ", kTpuWorkerId, " is ", id_in_slice,
                                                   ", but ", list_var, " names ", workers, " worker",
                                                   workers == 1 ? "" : "s", ": expected 0..", workers - 1));
  }
  TESSERA_ASSIGN_OR_RETURN(const int64_t slices, MegascaleInt(env, kMegascaleNumSlices, 1, 1));
  TESSERA_ASSIGN_OR_RETURN(const int64_t slice_id, MegascaleInt(env, kMegascaleSliceId, 0, 0));
  if (slice_id >= slices) {
    return absl::InvalidArgumentError(absl::StrCat("Environment variable ", kMegascaleSliceId, " is ", slice_id,
                                                   ", but ", kMegascaleNumSlices, " is ", slices, ": expected 0..",
                                                   slices - 1));
  }
  Contribution out;
  int64_t total = 0;
  if (__builtin_mul_overflow(workers, slices, &total)) {
    return absl::InvalidArgumentError(absl::StrCat("Environment variable ", kMegascaleNumSlices, " is ", slices,
                                                   ": ", workers, " workers per slice times that overflows"));
  }
  out.num_processes = total;
  out.process_id = id_in_slice + slice_id * workers;  // < total, so no overflow
  out.notes.push_back(absl::StrCat("gketpu: num_processes = ", workers, " workers (", list_var, ") x ", slices,
                                   " slice", slices == 1 ? "" : "s", " (", kMegascaleNumSlices, ", default 1) = ",
                                   total, "; process_id = ", kTpuWorkerId, " + ", kMegascaleSliceId, " x ", workers,
                                   " = ", id_in_slice, " + ", slice_id, " x ", workers, " = ", *out.process_id,
                                   " (as JAX)"));
  std::string diagnostic = absl::StrCat(kTpuWorkerId, ", ", list_var);
  // Megascale names the host of process 0 of slice 0; its port is the
  // Megascale service's, not ours, so it is dropped (JAX splits at ':').
  const std::string* megascale = FindVar(env, kMegascaleCoordinator);
  std::string host = hosts.front();
  if (megascale != nullptr && !absl::StripAsciiWhitespace(*megascale).empty()) {
    TESSERA_ASSIGN_OR_RETURN(const HostPort parsed,
                             ParseHostPort(absl::StripAsciiWhitespace(*megascale),
                                           absl::StrCat("Environment variable ", kMegascaleCoordinator)));
    host = parsed.host;
    absl::StrAppend(&diagnostic, ", ", kMegascaleCoordinator);
    if (parsed.port) {
      out.notes.push_back(absl::StrCat("gketpu: the coordinator host is ", kMegascaleCoordinator, " \"", *megascale,
                                       "\" without its port ", *parsed.port, " (the Megascale service's; as JAX)"));
    }
  } else {
    out.notes.push_back(absl::StrCat("gketpu: the coordinator host is the first worker of ", list_var,
                                     " (process 0; as JAX)"));
  }
  for (const char* name : {kMegascaleNumSlices, kMegascaleSliceId}) {
    if (FindVar(env, name) != nullptr) absl::StrAppend(&diagnostic, ", ", name);
  }
  if (list_var == kTpuProcessAddresses && FindVar(env, kTpuWorkerHostnames) != nullptr) {
    absl::StrAppend(&diagnostic, "; ", kTpuWorkerHostnames, " also set, not read");
  }
  out.coordinator = HostPort{host, kGkeTpuPort};
  out.port_formula = absl::StrCat(kGkeTpuPort, " (JAX's Cloud TPU port since 0.8.1; through 0.8.0 it was 8476, the "
                                  "port GCP's default TPU firewall rule opens)");
  out.notes.push_back("gketpu: local_device_ids are not set: a TPU process uses all of its chips (as JAX)");
  // Every slice of a GKE JobSet shares its name; a lone TPU VM names no job.
  if (const std::string* jobset = FindVar(env, "JOBSET_NAME")) out.job_id = *jobset;
  return Present(std::move(out), std::move(diagnostic));
}

absl::StatusOr<SourceResult> DetectKubernetes(const Environment& env) {
  const Presence presence = CheckPresence(env, kKubernetesVars);
  const std::string* index = FindVar(env, "JOB_COMPLETION_INDEX");
  const std::string* explicit_host = FindVar(env, "TESSERA_K8S_COORDINATOR_HOST");
  const std::string* jobset = FindVar(env, "JOBSET_NAME");
  const std::string* replicated = FindVar(env, "REPLICATED_JOB_NAME");
  const std::string* subdomain = FindVar(env, "TESSERA_K8S_SUBDOMAIN");
  const std::string* hostname = FindVar(env, "HOSTNAME");
  // HOSTNAME alone is set in every container, so it does not make a Job.
  const bool any = index || explicit_host || jobset || replicated || subdomain;
  if (!any) return Absent({"JOB_COMPLETION_INDEX", "TESSERA_K8S_COORDINATOR_HOST", "JOBSET_NAME", "TESSERA_K8S_SUBDOMAIN"});
  const char* const kHostSources =
      "TESSERA_K8S_COORDINATOR_HOST (or JOBSET_NAME and REPLICATED_JOB_NAME, or TESSERA_K8S_SUBDOMAIN with HOSTNAME)";
  const bool jobset_host = jobset && replicated;
  const bool subdomain_host = subdomain && hostname && index;
  if (!index || !(explicit_host || jobset_host || subdomain_host)) {
    Presence described;
    described.present = presence.present;
    if (!index) described.missing.emplace_back("JOB_COMPLETION_INDEX");
    if (!(explicit_host || jobset_host || subdomain_host)) described.missing.emplace_back(kHostSources);
    return Partial(DescribePartial(described));
  }
  Contribution out;
  TESSERA_ASSIGN_OR_RETURN(const int64_t completion_index, ParseIntVarAtLeast("JOB_COMPLETION_INDEX", *index, 0));
  std::string diagnostic = "JOB_COMPLETION_INDEX";
  std::string host;
  bool index_is_global = true;
  if (explicit_host) {
    host = *explicit_host;
    absl::StrAppend(&diagnostic, ", TESSERA_K8S_COORDINATOR_HOST");
  } else if (jobset_host) {
    // JobSet names pods <jobset>-<replicated job>-<job index>-<pod index>
    // and puts them in a headless service named after the JobSet by default.
    host = absl::StrCat(*jobset, "-", *replicated, "-0-0.", subdomain ? *subdomain : *jobset);
    absl::StrAppend(&diagnostic, ", JOBSET_NAME, REPLICATED_JOB_NAME");
    out.job_id = *jobset;
    if (const std::string* job_index = FindVar(env, "JOB_INDEX"); job_index && *job_index != "0") {
      index_is_global = false;
      out.notes.push_back(absl::StrCat("kubernetes: JOB_INDEX=", *job_index,
                                       ": JOB_COMPLETION_INDEX numbers pods within one Job only; set "
                                       "TESSERA_PROCESS_INDEX to the global process index"));
    }
  } else {
    // An Indexed Job's pod hostname is "<job>-<index>".
    const std::string suffix = absl::StrCat("-", *index);
    if (!absl::EndsWith(*hostname, suffix) || hostname->size() == suffix.size()) {
      return absl::InvalidArgumentError(absl::StrCat("Environment variable HOSTNAME \"", *hostname,
                                                     "\" does not end with \"-JOB_COMPLETION_INDEX\" (\"", suffix,
                                                     "\"), so the Job's name is unknown; set TESSERA_K8S_COORDINATOR_HOST"));
    }
    const std::string job = hostname->substr(0, hostname->size() - suffix.size());
    host = absl::StrCat(job, "-0.", *subdomain);
    absl::StrAppend(&diagnostic, ", TESSERA_K8S_SUBDOMAIN, HOSTNAME");
    out.job_id = job;
  }
  TESSERA_ASSIGN_OR_RETURN(HostPort coordinator, ParseHostPort(host, "The Kubernetes coordinator host"));
  if (!coordinator.port) {
    coordinator.port = kKubernetesDefaultPort;
    out.port_formula = absl::StrCat(kKubernetesDefaultPort, " (JAX's Kubernetes default)");
  }
  out.coordinator = std::move(coordinator);
  if (index_is_global) out.process_id = completion_index;
  out.notes.push_back("kubernetes: the Job's size is not in a pod's environment; num_processes comes from "
                      "TESSERA_NUM_PROCESSES or the num_processes option");
  return Present(std::move(out), std::move(diagnostic));
}

absl::Span<const Launcher> Launchers() {
  static constexpr Launcher kLaunchers[] = {
      {"torchrun", &DetectTorchrun}, {"openmpi", &DetectOpenMpi},       {"hydra", &DetectHydra},
      {"slurm", &DetectSlurm},       {"gketpu", &DetectGkeTpu},           {"kubernetes", &DetectKubernetes},
  };
  return kLaunchers;
}

}  // namespace tessera::cluster
