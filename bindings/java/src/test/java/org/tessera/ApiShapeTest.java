// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

package org.tessera;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What the public API does not show: SWIG's internals, and second ways of doing one thing. */
class ApiShapeTest {
  private static List<String> publicMethodsNamed(Class<?> type, String... names) {
    List<String> found = new ArrayList<>();
    for (Method m : type.getDeclaredMethods()) {
      if (!Modifier.isPublic(m.getModifiers())) continue;
      for (String name : names) {
        if (m.getName().equals(name)) found.add(type.getSimpleName() + "." + name);
      }
    }
    return found;
  }

  @Test
  void handlesShowNoDeleteGetCPtrOrIsEqual() {
    List<String> found = new ArrayList<>();
    for (Class<?> type : new Class<?>[] {Mesh.class, Layout.class, LayoutMap.class, Sharding.class,
                                          Distribution.class, Client.class, DeviceList.class,
                                          DTensorLayout.class, DTensorMesh.class, DTensorConfig.class,
                                          Checkpoint.class, ReadOptions.class, ReadPlan.class,
                                          CheckpointPlanOptions.class, CheckpointPlan.class,
                                          CheckpointPlanSearch.class, SaveOptions.class, CheckpointSaver.class,
                                          CheckpointIndex.class, RestoreRequest.class}) {
      found.addAll(publicMethodsNamed(type, "delete", "getCPtr", "isEqual"));
    }
    assertEquals(List.of(), found);
  }

  @Test
  void dtensorLayoutShowsNoFlatArrayHelpers() {
    assertEquals(List.of(), publicMethodsNamed(DTensorLayout.class, "mostShardedOf", "leastShardedOf",
                                               "globalShapeFromLocalFlat"));
  }

  @Test
  void checkpointPlanShowsNoLayoutMapAddresses() {
    assertEquals(List.of(), publicMethodsNamed(CheckpointPlan.class, "searchOf"));
  }

  @Test
  void checkpointSaverShowsNoShardArraysOrNativeStream() {
    // setShard + write hand the shards over; stream takes a ShardFill.
    assertEquals(List.of(), publicMethodsNamed(CheckpointSaver.class, "writeShards", "streamNative"));
  }

  @Test
  void enumsShowNoSwigValueOrSwigToEnum() {
    List<String> found = new ArrayList<>();
    for (Class<?> type : new Class<?>[] {Code.class, ShardMode.class, ShapeCheck.class,
                                          ErrorReason.class, TaskState.class, LogLevel.class,
                                          PlanRecipe.class, PlanTerm.class, PlanVerdict.class}) {
      found.addAll(publicMethodsNamed(type, "swigValue", "swigToEnum"));
    }
    assertEquals(List.of(), found);
  }

  @Test
  void enumConstantsAreTheCSuffixAfterTheEnumsPrefix() {
    assertEquals("STRICT", ShardMode.STRICT.name());  // TESSERA_SHARD_MODE_STRICT
    assertEquals("STRICT", ShapeCheck.STRICT.name());  // TESSERA_SHAPE_CHECK_STRICT
    assertEquals("NEVER_CONNECTED", ErrorReason.NEVER_CONNECTED.name());  // TESSERA_REASON_...
    assertEquals("NEVER_CONNECTED", TaskState.NEVER_CONNECTED.name());  // TESSERA_TASK_...
    assertEquals("DOES_NOT_FIT", PlanVerdict.DOES_NOT_FIT.name());  // TESSERA_PLAN_VERDICT_...
  }

  @Test
  void nullDurationIsRefusedNamingTheArgument() {
    try (ClusterOptions options = new ClusterOptions()) {
      TesseraException e = assertThrows(TesseraException.class, () -> options.setInitTimeout(null));
      assertEquals(Code.INVALID_ARGUMENT, e.code());
      assertEquals("Argument 'timeout_ms' must be a java.time.Duration, got null", e.getMessage());
    }
  }
}
