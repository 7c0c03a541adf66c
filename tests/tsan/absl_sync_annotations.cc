// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// Makes Debian's Abseil synchronization (and absl::Status's reference count)
// visible to ThreadSanitizer
// (scripts/tsan.sh preloads this library into every test it runs).
//
// Why: libabsl_synchronization.so is not built with -fsanitize=thread, and
// absl::Mutex takes and releases its lock with atomics and futexes, not with
// the pthread calls TSan intercepts. Without this every access guarded by an
// absl::Mutex (most of Tessera's shared state, and gRPC's, whose mutexes are
// absl::Mutex too) is reported as a race: a two-thread counter under
// absl::MutexLock is one. Abseil's own TSan annotations exist only in an
// instrumented build of it.
//
// How: each entry point below interposes the library's (same mangled name,
// found first because this library is preloaded), calls the real one
// (dlsym RTLD_NEXT) and tells TSan the happens-before edge it makes:
// a release on the object's address before unlocking, signalling or
// notifying, an acquire on it after locking or waking. Reader and writer
// locks are treated alike (more ordering than there is: it can hide a race,
// never invent one). The names are of Abseil 20220623 as Debian 12 builds it
// (inline namespace debian3); the script checks that they resolve.
#include <absl/status/internal/status_internal.h>
#include <dlfcn.h>
#include <grpc/grpc.h>
#include <sanitizer/tsan_interface.h>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <type_traits>

namespace {

// absl::Duration and absl::Time by value: trivially copyable, two words.
struct Duration {
  int64_t hi;
  uint32_t lo;
};
struct Time {
  Duration since_epoch;
};

// absl::Notification's layout: its mutex, then the flag HasBeenNotified reads.
struct NotificationLayout {
  void* mutex;
  std::atomic<bool> notified_yet;
};

template <typename F>
F Real(const char* name) {
  void* f = dlsym(RTLD_NEXT, name);
  if (f == nullptr) {
    std::fprintf(stderr, "tsan annotations: %s not found in Debian's Abseil or gRPC\n", name);
    std::abort();
  }
  return reinterpret_cast<F>(f);
}

// The acquire after a call that returns holding `mu` (or woken by it).
void Acquired(const void* mu) { __tsan_acquire(const_cast<void*>(mu)); }
// The release before a call that lets `mu` go (or wakes its waiters).
void Releasing(const void* mu) { __tsan_release(const_cast<void*>(mu)); }

}  // namespace

#define TESSERA_ABSL(mangled) __asm__(mangled)

extern "C" {

// ---- absl::Mutex --------------------------------------------------------

void MutexLock(void* mu) TESSERA_ABSL("_ZN4absl7debian35Mutex4LockEv");
void MutexLock(void* mu) {
  static auto real = Real<void (*)(void*)>("_ZN4absl7debian35Mutex4LockEv");
  real(mu);
  Acquired(mu);
}

void MutexReaderLock(void* mu) TESSERA_ABSL("_ZN4absl7debian35Mutex10ReaderLockEv");
void MutexReaderLock(void* mu) {
  static auto real = Real<void (*)(void*)>("_ZN4absl7debian35Mutex10ReaderLockEv");
  real(mu);
  Acquired(mu);
}

bool MutexTryLock(void* mu) TESSERA_ABSL("_ZN4absl7debian35Mutex7TryLockEv");
bool MutexTryLock(void* mu) {
  static auto real = Real<bool (*)(void*)>("_ZN4absl7debian35Mutex7TryLockEv");
  const bool locked = real(mu);
  if (locked) Acquired(mu);
  return locked;
}

bool MutexReaderTryLock(void* mu) TESSERA_ABSL("_ZN4absl7debian35Mutex13ReaderTryLockEv");
bool MutexReaderTryLock(void* mu) {
  static auto real = Real<bool (*)(void*)>("_ZN4absl7debian35Mutex13ReaderTryLockEv");
  const bool locked = real(mu);
  if (locked) Acquired(mu);
  return locked;
}

void MutexUnlock(void* mu) TESSERA_ABSL("_ZN4absl7debian35Mutex6UnlockEv");
void MutexUnlock(void* mu) {
  static auto real = Real<void (*)(void*)>("_ZN4absl7debian35Mutex6UnlockEv");
  Releasing(mu);
  real(mu);
}

void MutexReaderUnlock(void* mu) TESSERA_ABSL("_ZN4absl7debian35Mutex12ReaderUnlockEv");
void MutexReaderUnlock(void* mu) {
  static auto real = Real<void (*)(void*)>("_ZN4absl7debian35Mutex12ReaderUnlockEv");
  Releasing(mu);
  real(mu);
}

void MutexLockWhen(void* mu, const void* cond) TESSERA_ABSL("_ZN4absl7debian35Mutex8LockWhenERKNS0_9ConditionE");
void MutexLockWhen(void* mu, const void* cond) {
  static auto real = Real<void (*)(void*, const void*)>("_ZN4absl7debian35Mutex8LockWhenERKNS0_9ConditionE");
  real(mu, cond);
  Acquired(mu);
}

void MutexReaderLockWhen(void* mu, const void* cond)
    TESSERA_ABSL("_ZN4absl7debian35Mutex14ReaderLockWhenERKNS0_9ConditionE");
void MutexReaderLockWhen(void* mu, const void* cond) {
  static auto real = Real<void (*)(void*, const void*)>("_ZN4absl7debian35Mutex14ReaderLockWhenERKNS0_9ConditionE");
  real(mu, cond);
  Acquired(mu);
}

bool MutexLockWhenWithTimeout(void* mu, const void* cond, Duration timeout)
    TESSERA_ABSL("_ZN4absl7debian35Mutex19LockWhenWithTimeoutERKNS0_9ConditionENS0_8DurationE");
bool MutexLockWhenWithTimeout(void* mu, const void* cond, Duration timeout) {
  static auto real = Real<bool (*)(void*, const void*, Duration)>(
      "_ZN4absl7debian35Mutex19LockWhenWithTimeoutERKNS0_9ConditionENS0_8DurationE");
  const bool met = real(mu, cond, timeout);
  Acquired(mu);  // held either way
  return met;
}

bool MutexLockWhenWithDeadline(void* mu, const void* cond, Time deadline)
    TESSERA_ABSL("_ZN4absl7debian35Mutex20LockWhenWithDeadlineERKNS0_9ConditionENS0_4TimeE");
bool MutexLockWhenWithDeadline(void* mu, const void* cond, Time deadline) {
  static auto real = Real<bool (*)(void*, const void*, Time)>(
      "_ZN4absl7debian35Mutex20LockWhenWithDeadlineERKNS0_9ConditionENS0_4TimeE");
  const bool met = real(mu, cond, deadline);
  Acquired(mu);
  return met;
}

bool MutexReaderLockWhenWithTimeout(void* mu, const void* cond, Duration timeout)
    TESSERA_ABSL("_ZN4absl7debian35Mutex25ReaderLockWhenWithTimeoutERKNS0_9ConditionENS0_8DurationE");
bool MutexReaderLockWhenWithTimeout(void* mu, const void* cond, Duration timeout) {
  static auto real = Real<bool (*)(void*, const void*, Duration)>(
      "_ZN4absl7debian35Mutex25ReaderLockWhenWithTimeoutERKNS0_9ConditionENS0_8DurationE");
  const bool met = real(mu, cond, timeout);
  Acquired(mu);
  return met;
}

bool MutexReaderLockWhenWithDeadline(void* mu, const void* cond, Time deadline)
    TESSERA_ABSL("_ZN4absl7debian35Mutex26ReaderLockWhenWithDeadlineERKNS0_9ConditionENS0_4TimeE");
bool MutexReaderLockWhenWithDeadline(void* mu, const void* cond, Time deadline) {
  static auto real = Real<bool (*)(void*, const void*, Time)>(
      "_ZN4absl7debian35Mutex26ReaderLockWhenWithDeadlineERKNS0_9ConditionENS0_4TimeE");
  const bool met = real(mu, cond, deadline);
  Acquired(mu);
  return met;
}

// Await lets the lock go while it waits and takes it again.
void MutexAwait(void* mu, const void* cond) TESSERA_ABSL("_ZN4absl7debian35Mutex5AwaitERKNS0_9ConditionE");
void MutexAwait(void* mu, const void* cond) {
  static auto real = Real<void (*)(void*, const void*)>("_ZN4absl7debian35Mutex5AwaitERKNS0_9ConditionE");
  Releasing(mu);
  real(mu, cond);
  Acquired(mu);
}

bool MutexAwaitWithTimeout(void* mu, const void* cond, Duration timeout)
    TESSERA_ABSL("_ZN4absl7debian35Mutex16AwaitWithTimeoutERKNS0_9ConditionENS0_8DurationE");
bool MutexAwaitWithTimeout(void* mu, const void* cond, Duration timeout) {
  static auto real = Real<bool (*)(void*, const void*, Duration)>(
      "_ZN4absl7debian35Mutex16AwaitWithTimeoutERKNS0_9ConditionENS0_8DurationE");
  Releasing(mu);
  const bool met = real(mu, cond, timeout);
  Acquired(mu);
  return met;
}

bool MutexAwaitWithDeadline(void* mu, const void* cond, Time deadline)
    TESSERA_ABSL("_ZN4absl7debian35Mutex17AwaitWithDeadlineERKNS0_9ConditionENS0_4TimeE");
bool MutexAwaitWithDeadline(void* mu, const void* cond, Time deadline) {
  static auto real = Real<bool (*)(void*, const void*, Time)>(
      "_ZN4absl7debian35Mutex17AwaitWithDeadlineERKNS0_9ConditionENS0_4TimeE");
  Releasing(mu);
  const bool met = real(mu, cond, deadline);
  Acquired(mu);
  return met;
}

// Await and LockWhen evaluate their condition inside the library, on the
// waiting thread, after it woke in Block and took the lock again: an acquire
// when it wakes orders the evaluation after the unlock that woke it. (A
// thread that takes the lock between that wake-up and the evaluation is not
// ordered: tests/tsan.supp says what that leaves.)
void MutexBlock(void* mu, void* thread) TESSERA_ABSL("_ZN4absl7debian35Mutex5BlockEPNS0_13base_internal14PerThreadSynchE");
void MutexBlock(void* mu, void* thread) {
  static auto real =
      Real<void (*)(void*, void*)>("_ZN4absl7debian35Mutex5BlockEPNS0_13base_internal14PerThreadSynchE");
  real(mu, thread);
  Acquired(mu);
}

// ---- absl::CondVar: waiting lets `mu` go and takes it again ---------------

void CondVarWait(void* cv, void* mu) TESSERA_ABSL("_ZN4absl7debian37CondVar4WaitEPNS0_5MutexE");
void CondVarWait(void* cv, void* mu) {
  static auto real = Real<void (*)(void*, void*)>("_ZN4absl7debian37CondVar4WaitEPNS0_5MutexE");
  Releasing(mu);
  real(cv, mu);
  Acquired(mu);
}

bool CondVarWaitWithTimeout(void* cv, void* mu, Duration timeout)
    TESSERA_ABSL("_ZN4absl7debian37CondVar15WaitWithTimeoutEPNS0_5MutexENS0_8DurationE");
bool CondVarWaitWithTimeout(void* cv, void* mu, Duration timeout) {
  static auto real = Real<bool (*)(void*, void*, Duration)>(
      "_ZN4absl7debian37CondVar15WaitWithTimeoutEPNS0_5MutexENS0_8DurationE");
  Releasing(mu);
  const bool timed_out = real(cv, mu, timeout);
  Acquired(mu);
  return timed_out;
}

bool CondVarWaitWithDeadline(void* cv, void* mu, Time deadline)
    TESSERA_ABSL("_ZN4absl7debian37CondVar16WaitWithDeadlineEPNS0_5MutexENS0_4TimeE");
bool CondVarWaitWithDeadline(void* cv, void* mu, Time deadline) {
  static auto real = Real<bool (*)(void*, void*, Time)>(
      "_ZN4absl7debian37CondVar16WaitWithDeadlineEPNS0_5MutexENS0_4TimeE");
  Releasing(mu);
  const bool timed_out = real(cv, mu, deadline);
  Acquired(mu);
  return timed_out;
}

// ---- absl::Notification: keyed by its flag, which HasBeenNotified reads ---

void NotificationNotify(void* n) TESSERA_ABSL("_ZN4absl7debian312Notification6NotifyEv");
void NotificationNotify(void* n) {
  static auto real = Real<void (*)(void*)>("_ZN4absl7debian312Notification6NotifyEv");
  Releasing(&static_cast<NotificationLayout*>(n)->notified_yet);
  real(n);
}

bool NotificationHasBeenNotified(const std::atomic<bool>* flag)
    TESSERA_ABSL("_ZN4absl7debian312Notification23HasBeenNotifiedInternalEPKSt6atomicIbE");
bool NotificationHasBeenNotified(const std::atomic<bool>* flag) {
  static auto real = Real<bool (*)(const std::atomic<bool>*)>(
      "_ZN4absl7debian312Notification23HasBeenNotifiedInternalEPKSt6atomicIbE");
  const bool notified = real(flag);
  if (notified) Acquired(flag);
  return notified;
}

void NotificationWait(const void* n) TESSERA_ABSL("_ZNK4absl7debian312Notification19WaitForNotificationEv");
void NotificationWait(const void* n) {
  static auto real = Real<void (*)(const void*)>("_ZNK4absl7debian312Notification19WaitForNotificationEv");
  real(n);
  Acquired(&static_cast<const NotificationLayout*>(n)->notified_yet);
}

bool NotificationWaitWithTimeout(const void* n, Duration timeout)
    TESSERA_ABSL("_ZNK4absl7debian312Notification30WaitForNotificationWithTimeoutENS0_8DurationE");
bool NotificationWaitWithTimeout(const void* n, Duration timeout) {
  static auto real = Real<bool (*)(const void*, Duration)>(
      "_ZNK4absl7debian312Notification30WaitForNotificationWithTimeoutENS0_8DurationE");
  const bool notified = real(n, timeout);
  if (notified) Acquired(&static_cast<const NotificationLayout*>(n)->notified_yet);
  return notified;
}

bool NotificationWaitWithDeadline(const void* n, Time deadline)
    TESSERA_ABSL("_ZNK4absl7debian312Notification31WaitForNotificationWithDeadlineENS0_4TimeE");
bool NotificationWaitWithDeadline(const void* n, Time deadline) {
  static auto real = Real<bool (*)(const void*, Time)>(
      "_ZNK4absl7debian312Notification31WaitForNotificationWithDeadlineENS0_4TimeE");
  const bool notified = real(n, deadline);
  if (notified) Acquired(&static_cast<const NotificationLayout*>(n)->notified_yet);
  return notified;
}

// ---- absl::BlockingCounter and absl::Barrier -------------------------------

bool BlockingCounterDecrement(void* counter) TESSERA_ABSL("_ZN4absl7debian315BlockingCounter14DecrementCountEv");
bool BlockingCounterDecrement(void* counter) {
  static auto real = Real<bool (*)(void*)>("_ZN4absl7debian315BlockingCounter14DecrementCountEv");
  Releasing(counter);
  return real(counter);
}

void BlockingCounterWait(void* counter) TESSERA_ABSL("_ZN4absl7debian315BlockingCounter4WaitEv");
void BlockingCounterWait(void* counter) {
  static auto real = Real<void (*)(void*)>("_ZN4absl7debian315BlockingCounter4WaitEv");
  real(counter);
  Acquired(counter);
}

bool BarrierBlock(void* barrier) TESSERA_ABSL("_ZN4absl7debian37Barrier5BlockEv");
bool BarrierBlock(void* barrier) {
  static auto real = Real<bool (*)(void*)>("_ZN4absl7debian37Barrier5BlockEv");
  Releasing(barrier);
  const bool last = real(barrier);
  Acquired(barrier);
  return last;
}

// ---- absl::Status: the reference count of a non-inlined status ------------

// A copied absl::Status shares one reference-counted representation (code,
// message, payloads); the copy's increment is inline (instrumented, relaxed),
// but the decrement and the free are in UnrefNonInlined in uninstrumented
// libabsl_status: the thread that frees the representation is not ordered,
// for TSan, after another thread's last read of the message through its own
// copy. The count is the representation's first member, an atomic int32
// (status_internal::StatusRep); this decrements it here, instrumented, by
// the library's own protocol (the last holder sees 1, or takes it to 0),
// and lets the library free it through its fast path: the count set back to
// 1 by its only holder.
static_assert(std::is_same_v<decltype(absl::status_internal::StatusRep::ref), std::atomic<int32_t>>,
              "StatusRep's count is not the atomic int32 this decrements");
void StatusUnrefNonInlined(uintptr_t rep) TESSERA_ABSL("_ZN4absl7debian36Status15UnrefNonInlinedEm");
void StatusUnrefNonInlined(uintptr_t rep) {
  static auto real = Real<void (*)(uintptr_t)>("_ZN4absl7debian36Status15UnrefNonInlinedEm");
  auto* ref = reinterpret_cast<std::atomic<int32_t>*>(rep - 1);  // the pointer is tagged with 1
  if (ref->load(std::memory_order_acquire) == 1 || ref->fetch_sub(1, std::memory_order_acq_rel) == 1) {
    ref->store(1, std::memory_order_relaxed);
    real(rep);
  }
}

// ---- gRPC: an operation's start, then its completion ----------------------

// gRPC's callback API (every asynchronous call and reactor in Tessera) hands
// a batch of operations to libgrpc with a tag, a grpc_completion_queue_functor
// (header code, instrumented), and later runs the tag's function on one of
// libgrpc++'s threads, which take it from a completion queue (Debian's build
// has no background poller, so callbacks go through a plain queue that
// those threads drain with grpc_completion_queue_next); the blocking API
// takes its tags with grpc_completion_queue_pluck. The hand-over is through
// libgrpc's own queues and atomics (uninstrumented). What the starting
// thread wrote (the request, the callback's captures, a reactor it created)
// is read by the completion: a release on the tag when its batch starts and
// an acquire on it when a queue hands it out tell TSan that order.

void* GrpcStartBatch(grpc_call* call, const grpc_op* ops, size_t nops, void* tag, void* reserved)
    TESSERA_ABSL("grpc_call_start_batch");
void* GrpcStartBatch(grpc_call* call, const grpc_op* ops, size_t nops, void* tag, void* reserved) {
  static auto real = Real<void* (*)(grpc_call*, const grpc_op*, size_t, void*, void*)>("grpc_call_start_batch");
  Releasing(tag);
  return real(call, ops, nops, tag, reserved);
}

grpc_event GrpcQueueNext(grpc_completion_queue* cq, gpr_timespec deadline, void* reserved)
    TESSERA_ABSL("grpc_completion_queue_next");
grpc_event GrpcQueueNext(grpc_completion_queue* cq, gpr_timespec deadline, void* reserved) {
  static auto real = Real<grpc_event (*)(grpc_completion_queue*, gpr_timespec, void*)>("grpc_completion_queue_next");
  const grpc_event event = real(cq, deadline, reserved);
  if (event.type == GRPC_OP_COMPLETE) Acquired(event.tag);
  return event;
}

grpc_event GrpcQueuePluck(grpc_completion_queue* cq, void* tag, gpr_timespec deadline, void* reserved)
    TESSERA_ABSL("grpc_completion_queue_pluck");
grpc_event GrpcQueuePluck(grpc_completion_queue* cq, void* tag, gpr_timespec deadline, void* reserved) {
  static auto real =
      Real<grpc_event (*)(grpc_completion_queue*, void*, gpr_timespec, void*)>("grpc_completion_queue_pluck");
  const grpc_event event = real(cq, tag, deadline, reserved);
  if (event.type == GRPC_OP_COMPLETE) Acquired(event.tag);
  return event;
}

}  // extern "C"
