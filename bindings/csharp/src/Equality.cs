// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

namespace Tessera {

/// <summary>Meshes compare by value: the same shape, axis names and devices (tessera_mesh_equal).</summary>
public partial class Mesh : global::System.IEquatable<Mesh> {
  /// <summary>Whether <paramref name="other"/> is a mesh with the same shape, axis names and devices.</summary>
  public bool Equals(Mesh other) => !ReferenceEquals(other, null) && IsEqual(other);

  /// <summary>Whether <paramref name="other"/> is an equal <see cref="Mesh"/>.</summary>
  public override bool Equals(object other) => Equals(other as Mesh);

  /// <summary>A hash that equal meshes share (their device and axis counts).</summary>
  public override int GetHashCode() => (NumDevices * 31 + NumAxes).GetHashCode();

  /// <summary>Value equality; two nulls are equal.</summary>
  public static bool operator ==(Mesh a, Mesh b) => ReferenceEquals(a, null) ? ReferenceEquals(b, null) : a.Equals(b);

  /// <summary>The negation of ==.</summary>
  public static bool operator !=(Mesh a, Mesh b) => !(a == b);
}

/// <summary>Layouts compare by value: the same axes per dimension and an equal mesh (tessera_layout_equal).</summary>
public partial class Layout : global::System.IEquatable<Layout> {
  /// <summary>Whether <paramref name="other"/> is a layout with the same axes and an equal mesh.</summary>
  public bool Equals(Layout other) => !ReferenceEquals(other, null) && IsEqual(other);

  /// <summary>Whether <paramref name="other"/> is an equal <see cref="Layout"/>.</summary>
  public override bool Equals(object other) => Equals(other as Layout);

  /// <summary>A hash that equal layouts share (their number of dimensions).</summary>
  public override int GetHashCode() => NumDims.GetHashCode();

  /// <summary>Value equality; two nulls are equal.</summary>
  public static bool operator ==(Layout a, Layout b) => ReferenceEquals(a, null) ? ReferenceEquals(b, null) : a.Equals(b);

  /// <summary>The negation of ==.</summary>
  public static bool operator !=(Layout a, Layout b) => !(a == b);
}

}
