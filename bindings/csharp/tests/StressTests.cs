// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// Handles dropped without Dispose(): the garbage collector's finalizer thread
// releases them, and memory stays flat.
using System;
using System.IO;
using System.Linq;

namespace Tessera.Tests {

public static class StressTests {
  const int Handles = 1000000;
  static readonly string[] Devs2 = {"cpu:0", "cpu:1"};

  /* Resident set size in KiB, from /proc/self/status. */
  static long ResidentKiB() {
    foreach (string line in File.ReadAllLines("/proc/self/status")) {
      if (line.StartsWith("VmRSS:")) {
        return long.Parse(line.Split(new[] {' ', '\t'}, StringSplitOptions.RemoveEmptyEntries)[1]);
      }
    }
    throw new InvalidOperationException("no VmRSS in /proc/self/status");
  }

  [System.Runtime.InteropServices.DllImport("libc.so.6")]
  static extern int malloc_trim(UIntPtr pad);

  /* Runs every finalizer, then hands the allocator's free pages back to the
     kernel (before and after alike), so VmRSS measures live memory rather
     than how fragmented glibc's arenas happen to be: a leaked handle stays
     resident either way. */
  static void CollectEverything() {
    for (int i = 0; i < 3; i++) {
      GC.Collect();
      GC.WaitForPendingFinalizers();
    }
    malloc_trim(UIntPtr.Zero);
  }

  /* One handle of a rotating type, dropped at once. */
  static WeakReference Drop(int i, Mesh shared, string[] axes) {
    object handle;
    switch (i % 4) {
      case 0: handle = new Mesh(new long[] {2}, axes, Devs2); break;
      case 1: handle = new Layout(axes, shared); break;
      case 2: handle = new LayoutMap(shared, KeyMatch.Full); break;
      default: handle = new DistributionOptions(); break;
    }
    return i % 100000 == 0 ? new WeakReference(handle) : null;
  }

  [Test]
  public static void MillionDroppedHandlesLeaveResidentMemoryFlat() {
    string[] axes = {"batch"};
    using (var shared = new Mesh(new long[] {2}, axes, Devs2)) {
      // Warm-up: JIT, allocator pools and the GC's heap reach their steady size.
      for (int i = 0; i < Handles / 2; i++) Drop(i, shared, axes);
      CollectEverything();
      long before = ResidentKiB();

      var watched = new System.Collections.Generic.List<WeakReference>();
      for (int i = 0; i < Handles; i++) {
        WeakReference w = Drop(i, shared, axes);
        if (w != null) watched.Add(w);
      }
      CollectEverything();
      long after = ResidentKiB();
      Console.WriteLine("  stress: " + Handles + " handles dropped; VmRSS " + before + " KiB before, " + after +
                        " KiB after (" + ((after - before) * 100.0 / before).ToString("+0.0;-0.0") + "%)");
      Assert.Equal(0, watched.Count(w => w.IsAlive), "dropped handles still alive after collection");
      Assert.True(after <= before * 1.10, "VmRSS after (" + after + " KiB) within 10% of before (" + before + " KiB)");
      Assert.Equal(1L, shared.NumAxes, "the shared mesh survives the layouts and maps that held it");
    }
  }

  [Test]
  public static void FinalizerReleasesWhileOtherThreadsCreate() {
    string[] axes = {"batch"};
    using (var shared = new Mesh(new long[] {2}, axes, Devs2)) {
      var threads = Enumerable.Range(0, 2).Select(t => new System.Threading.Thread(() => {
        for (int i = 0; i < 50000; i++) Drop(i + t, shared, axes);
      })).ToList();
      threads.ForEach(th => th.Start());
      for (int i = 0; i < 20; i++) {
        GC.Collect();
        System.Threading.Thread.Sleep(1);
      }
      threads.ForEach(th => th.Join());
      CollectEverything();
      Assert.Equal("batch", shared.AxisName(0), "shared mesh intact");
    }
  }
}

}
