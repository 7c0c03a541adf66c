// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// Call overhead of the C# binding: a layout-map lookup (K31's map, a regex
// match; the result disposed) through the binding versus the same loop in C
// (bench_native.c, loaded from libtessera_csharp_bench.so). Prints ns/call
// medians over repeated batches and their ratio.
using System;
using System.Diagnostics;
using System.Linq;
using System.Runtime.InteropServices;
using Tessera;

public static class LayoutMapBench {
  const string Native = "tessera_csharp_bench";
  [DllImport(Native)] static extern IntPtr bench_build_map();
  [DllImport(Native)] static extern void bench_destroy_map(IntPtr map);
  [DllImport(Native)] static extern long bench_lookup_ns(IntPtr map, string path, long iterations);

  const int Batches = 15;
  const long PerBatch = 100000;
  const string Path = "dense_2/kernel";

  static double Median(double[] values) {
    var sorted = values.OrderBy(v => v).ToArray();
    return sorted[sorted.Length / 2];
  }

  public static int Main() {
    string[] devices = Enumerable.Range(0, 8).Select(i => "cpu:" + i).ToArray();
    using (var mesh = new Mesh(new long[] {4, 2}, new[] {"data", "model"}, devices))
    using (var map = new LayoutMap(mesh, KeyMatch.Search)) {
      map.Set("dense/kernel", new Layout(new[] {null, "model"}, null));
      map.Set("dense/bias", new Layout(new[] {"model"}, null));
      map.Set(".*dense.*kernel", new Layout(new string[] {null, null}, null));
      map.Set(".*dense.*bias", new Layout(new string[] {null}, null));
      map.Set(".*bias", new Layout(new[] {"model"}, null));

      var binding = new double[Batches];
      for (int b = -2; b < Batches; b++) {  // two warm-up batches (JIT)
        var watch = Stopwatch.StartNew();
        for (long i = 0; i < PerBatch; i++) {
          using (Layout layout = map.Get(Path)) {}
        }
        watch.Stop();
        if (b >= 0) binding[b] = watch.Elapsed.TotalMilliseconds * 1e6 / PerBatch;
      }

      IntPtr cmap = bench_build_map();
      var c = new double[Batches];
      for (int b = -2; b < Batches; b++) {
        long ns = bench_lookup_ns(cmap, Path, PerBatch);
        if (ns < 0) throw new InvalidOperationException("C lookup failed");
        if (b >= 0) c[b] = (double)ns / PerBatch;
      }
      bench_destroy_map(cmap);

      double cs = Median(binding), native = Median(c);
      Console.WriteLine("layout-map lookup '" + Path + "' (" + Batches + " batches of " + PerBatch + ", medians)");
      Console.WriteLine("  C:              " + native.ToString("0.0") + " ns/call");
      Console.WriteLine("  C# binding:     " + cs.ToString("0.0") + " ns/call");
      Console.WriteLine("  overhead:       " + (cs - native).ToString("0.0") + " ns/call, ratio " + (cs / native).ToString("0.00"));
    }
    return 0;
  }
}
