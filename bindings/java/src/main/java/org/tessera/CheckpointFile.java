// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

package org.tessera;

/**
 * A file of a checkpoint (Checkpoint.files).
 *
 * @param path the path as the caller gave it, or the index's directory joined with the name the index gives
 * @param size the file's length in bytes when it was opened
 */
public record CheckpointFile(String path, long size) {}
