// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// A small test runner: every public static method marked [Test] in this
// assembly runs once, in name order; each prints one line, then the summary
// "N passed, N failed", and the exit code is non-zero when any failed.
// `TesseraTests.exe child <role> ...` runs a child process of a cluster test,
// `TesseraTests.exe child-callbacks <mode>` one of an exit test.
using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.Linq;
using System.Reflection;

namespace Tessera.Tests {

[AttributeUsage(AttributeTargets.Method)]
public sealed class TestAttribute : Attribute {}

public sealed class AssertionException : Exception {
  public AssertionException(string message) : base(message) {}
}

public static class Assert {
  public static void True(bool condition, string what) {
    if (!condition) throw new AssertionException("expected true: " + what);
  }

  public static void Equal<T>(T expected, T actual, string what = "") {
    if (!EqualityComparer<T>.Default.Equals(expected, actual)) {
      throw new AssertionException(what + (what == "" ? "" : ": ") + "expected <" + expected + ">, got <" + actual + ">");
    }
  }

  public static void Equal<T>(T[] expected, T[] actual, string what = "") {
    if (actual == null || !expected.SequenceEqual(actual)) {
      throw new AssertionException(what + ": expected [" + string.Join(", ", expected) + "], got " +
                                   (actual == null ? "null" : "[" + string.Join(", ", actual) + "]"));
    }
  }

  public static void Null(object value, string what) {
    if (value != null) throw new AssertionException("expected null: " + what + ", got " + value);
  }

  public static void Contains(string needle, string haystack) {
    if (haystack == null || !haystack.Contains(needle)) {
      throw new AssertionException("expected <" + haystack + "> to contain <" + needle + ">");
    }
  }

  /* Runs `action`, which must throw a TesseraException with `code` and a
     message containing `needle`; returns it for further checks. */
  public static TesseraException Throws(Code code, string needle, Action action) {
    try {
      action();
    } catch (TesseraException e) {
      if (e.Code != code) throw new AssertionException("expected " + code + ", got " + e.Code + ": " + e.Message);
      Contains(needle, e.Message);
      return e;
    }
    throw new AssertionException("expected TesseraException " + code + " containing <" + needle + ">, nothing thrown");
  }
}

public static class TestRunner {
  public static int Main(string[] args) {
    if (args.Length > 0 && args[0] == "child") return ClusterTests.ChildMain(args.Skip(1).ToArray());
    if (args.Length > 0 && args[0] == "child-callbacks") return CallbackTests.ChildMain(args.Skip(1).ToArray());
    // "Name" runs the tests whose Class.Method contains it; "-Name" skips them.
    string filter = args.Length > 0 ? args[0] : null;
    bool exclude = filter != null && filter.StartsWith("-");
    if (exclude) filter = filter.Substring(1);

    var tests = typeof(TestRunner).Assembly.GetTypes()
        .SelectMany(t => t.GetMethods(BindingFlags.Public | BindingFlags.Static))
        .Where(m => m.GetCustomAttributes(typeof(TestAttribute), false).Length > 0)
        .Where(m => filter == null || (m.DeclaringType.Name + "." + m.Name).Contains(filter) != exclude)
        .OrderBy(m => m.DeclaringType.Name + "." + m.Name, StringComparer.Ordinal)
        .ToList();

    int passed = 0, failed = 0;
    foreach (var test in tests) {
      string name = test.DeclaringType.Name + "." + test.Name;
      var watch = Stopwatch.StartNew();
      try {
        test.Invoke(null, null);
        passed++;
        Console.WriteLine("PASS " + name + " (" + watch.ElapsedMilliseconds + " ms)");
      } catch (TargetInvocationException e) {
        failed++;
        Exception inner = e.InnerException ?? e;
        Console.WriteLine("FAIL " + name + ": " + inner.GetType().Name + ": " + inner.Message);
        if (!(inner is AssertionException)) Console.WriteLine(inner.StackTrace);
      }
      Console.Out.Flush();
    }
    Console.WriteLine(passed + " passed, " + failed + " failed");
    return failed == 0 && passed > 0 ? 0 : 1;
  }
}

}
