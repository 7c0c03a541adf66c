// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

package org.tessera;

/**
 * A tensor of a checkpoint as its file's header describes it (Checkpoint.tensor).
 *
 * @param name          the tensor's name
 * @param elementType   the element type as the format spells it ("F16", "BF16", "Q4_K")
 * @param blockElements elements per storage block: 1 for plain types; for packed and quantized
 *                      types the consecutive innermost elements stored together
 * @param blockBytes    bytes per storage block (for a plain type, bytes per element)
 * @param shape         outermost dimension first, row-major; empty for a scalar
 * @param fileIndex     the position of the file holding the data (Checkpoint.files)
 * @param offset        the offset of the first byte, absolute in that file
 * @param size          the bytes the tensor occupies there
 */
public record CheckpointTensor(String name, String elementType, long blockElements, long blockBytes,
                               long[] shape, long fileIndex, long offset, long size) {
  @Override
  public String toString() {
    return name + " " + elementType + java.util.Arrays.toString(shape) + " file " + fileIndex + " bytes ["
        + offset + ", " + (offset + size) + ")";
  }
}
