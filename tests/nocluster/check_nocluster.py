#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 The Tessera Authors
# SPDX-License-Identifier: Apache-2.0
"""The build without the multi-host part (-Dcluster=disabled), end to end.

Configures a second build dir from the same sources with the cluster API off
and the bindings at their default (`auto`, which must resolve to off), builds
it (library and command only: tests and benchmarks off), and checks that
  1. -Dbindings_go=enabled with -Dcluster=disabled is a configure error
     naming the reason;
  2. libtessera.so.0 needs no gRPC, OpenSSL or c-ares library (readelf -d),
     nor loads one through its dependencies (ldd), and exports exactly the
     functions of its effective version script;
  3. the install holds tessera/features.h saying TESSERA_HAS_CLUSTER 0 and
     none of the cluster API's headers;
  4. pkgconfig/consumer.c builds with pkg-config alone against the staged
     install and prints what it prints for the full build
     (pkgconfig/check_consumer.sh).
Prints the NEEDED list. Build output goes to BUILDDIR's logs; on failure the
log's tail is printed.

Usage: check_nocluster.py SOURCE_ROOT BUILDDIR PREFIX LIBDIR CONSUMER_C README VERSION
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

# NEEDED entries the library must not have: gRPC (with its gpr, upb and
# address_sorting), OpenSSL and c-ares.
FORBIDDEN = re.compile(r"^lib(grpc|gpr|upb|address_sorting|ssl|crypto|cares)\b")
CLUSTER_HEADERS = ("tessera/cluster.h", "tessera/client.h", "tessera/coordinator.h")
# The defaults every configure here shares: nothing but the library and command.
COMMON_OPTIONS = ["-Dcluster=disabled", "-Dtests=disabled", "-Dbenchmarks=disabled", "-Ddocs=disabled",
                  "-Dbuildtype=debugoptimized"]


def fail(message):
    sys.exit(f"check_nocluster: FAIL: {message}")


def run(command, log_path, what):
    """Runs `command` with its output in `log_path`; fails with the log's tail."""
    with open(log_path, "w") as log:
        status = subprocess.run(command, stdout=log, stderr=subprocess.STDOUT).returncode
    if status != 0:
        with open(log_path) as log:
            tail = log.readlines()[-60:]
        sys.stderr.writelines(tail)
        fail(f"{what} failed (status {status}; log {log_path}, last lines above)")


def check_bindings_enabled_is_an_error(source_root, scratch):
    builddir = os.path.join(scratch, "bindings-enabled")
    result = subprocess.run(["meson", "setup", builddir, source_root, *COMMON_OPTIONS,
                             "-Dbindings_go=enabled"],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if result.returncode == 0:
        fail("meson setup -Dcluster=disabled -Dbindings_go=enabled succeeded; expected a configure error")
    if "the bindings wrap the cluster API" not in result.stdout:
        sys.stderr.write(result.stdout[-3000:])
        fail("-Dbindings_go=enabled with -Dcluster=disabled failed without naming the reason "
             "('the bindings wrap the cluster API'; output above)")
    print("-Dbindings_go=enabled with -Dcluster=disabled: configure error, reason named")


def configure_and_build(source_root, builddir, logs):
    # --reconfigure runs meson.build again on a dir from an earlier run, so
    # its messages are checked every time.
    again = ["--reconfigure"] if os.path.isfile(os.path.join(builddir, "meson-private",
                                                              "coredata.dat")) else []
    run(["meson", "setup", *again, builddir, source_root, *COMMON_OPTIONS],
        os.path.join(logs, "configure.log"), "meson setup")
    with open(os.path.join(logs, "configure.log")) as log:
        text = log.read()
    for lang in ("go", "java", "csharp"):
        if f"bindings_{lang}: off, the bindings wrap the cluster API" not in text:
            fail(f"configure did not say why bindings_{lang} (auto) is off")
    run(["ninja", "-C", builddir], os.path.join(logs, "build.log"), "ninja")


def library_path(builddir):
    targets = json.loads(subprocess.run(["meson", "introspect", "--targets", builddir],
                                        check=True, stdout=subprocess.PIPE).stdout)
    for target in targets:
        if target["type"] == "shared library" and target["name"] == "tessera":
            return target["filename"][0]
    fail("no shared library 'tessera' among the build's targets")


def check_needed(library):
    dynamic = subprocess.run(["readelf", "-d", library], check=True, stdout=subprocess.PIPE,
                             text=True).stdout
    needed = re.findall(r"\(NEEDED\)\s+Shared library: \[([^\]]+)\]", dynamic)
    print("NEEDED of libtessera.so.0 without the cluster API: " + " ".join(needed))
    if not needed:
        fail(f"readelf -d {library} shows no NEEDED entry; expected the C++ runtime at least")
    forbidden = [name for name in needed if FORBIDDEN.match(name)]
    if forbidden:
        fail(f"libtessera.so.0 built with -Dcluster=disabled needs {', '.join(forbidden)}; "
             "expected no gRPC, OpenSSL or c-ares library")
    # Nor through another library (protobuf, Abseil, RE2): what the loader maps.
    loaded = subprocess.run(["ldd", library], check=True, stdout=subprocess.PIPE, text=True).stdout
    loaded_names = [line.split()[0] for line in loaded.splitlines() if line.split()]
    forbidden = [name for name in loaded_names if FORBIDDEN.match(name)]
    if forbidden:
        fail(f"loading libtessera.so.0 built with -Dcluster=disabled maps {', '.join(forbidden)} "
             "through its dependencies; expected no gRPC, OpenSSL or c-ares library")


def check_exports(library, builddir):
    with open(os.path.join(builddir, "capi", "tessera.map")) as f:
        in_map = set(re.findall(r"^\s+(tessera_\w+);", f.read(), re.M))
    symbols = subprocess.run(["nm", "-D", "--defined-only", library], check=True,
                             stdout=subprocess.PIPE, text=True).stdout
    exported = {line.split()[-1].split("@")[0] for line in symbols.splitlines()
                if line.split() and line.split()[-1].startswith("tessera_")}
    if exported != in_map:
        fail(f"exported functions differ from the effective map: only exported "
             f"{sorted(exported - in_map)}, only in the map {sorted(in_map - exported)}")
    print(f"{len(exported)} functions exported, exactly the effective map's")


def check_installed_headers(builddir):
    installed = json.loads(subprocess.run(["meson", "introspect", "--installed", builddir],
                                          check=True, stdout=subprocess.PIPE).stdout)
    paths = {os.path.normpath(p) for p in installed.values()}
    present = [h for h in CLUSTER_HEADERS if any(p.endswith(os.sep + h) for p in paths)]
    if present:
        fail(f"the install holds the cluster API's headers {', '.join(present)}; expected none")
    features = [src for src, dst in installed.items() if dst.endswith(os.sep + "tessera/features.h")]
    if len(features) != 1:
        fail(f"the install holds {len(features)} tessera/features.h; expected one")
    with open(features[0]) as f:
        if not re.search(r"^#define TESSERA_HAS_CLUSTER 0$", f.read(), re.M):
            fail(f"{features[0]} does not define TESSERA_HAS_CLUSTER 0")
    print("installed headers: features.h with TESSERA_HAS_CLUSTER 0, no cluster headers")


def main():
    if len(sys.argv) != 9:
        sys.exit(__doc__)
    source_root, builddir, prefix, libdir, datadir, consumer, readme, version = sys.argv[1:]
    logs = builddir + "-logs"
    os.makedirs(logs, exist_ok=True)
    with tempfile.TemporaryDirectory() as scratch:
        check_bindings_enabled_is_an_error(source_root, scratch)
    configure_and_build(source_root, builddir, logs)
    library = library_path(builddir)
    check_needed(library)
    check_exports(library, builddir)
    check_installed_headers(builddir)
    check_consumer = os.path.join(source_root, "pkgconfig", "check_consumer.sh")
    status = subprocess.run([check_consumer, builddir, prefix, libdir, datadir, consumer, readme,
                             version]).returncode
    if status != 0:
        fail("the pkg-config consumer check failed against the build without the cluster API")


if __name__ == "__main__":
    main()
