# SPDX-FileCopyrightText: 2026 The Tessera Authors
# SPDX-License-Identifier: Apache-2.0

"""The case runner of the `tessera` command's specifications (check_show.py,
check_devices.py, check_cli.py, check_load.py): a registry of cases, one behaviour each, and the command
line meson runs them with."""
import sys

CASES = {}


def case(fn):
    CASES[fn.__name__] = fn
    return fn


class Failure(Exception):
    pass


class Skip(Exception):
    """The case cannot run on this machine (meson counts exit 77 as skipped)."""


def expect(actual, expected, what):
    if actual == expected:
        return
    if isinstance(expected, str) and "\n" in expected:  # a picture or a report: shown as printed
        raise Failure(f"{what}:\n  expected:\n{expected}\n  actual:\n{actual}")
    raise Failure(f"{what}:\n  expected: {expected!r}\n  actual:   {actual!r}")


def main(argv, usage, make_ctx):
    """`--list` prints the case names; `ARGS... CASE` runs one case with
    make_ctx(*ARGS): exit 0 when it passes, 1 when it fails, 77 when skipped."""
    if argv[1:] == ["--list"]:
        print("\n".join(CASES))
        return 0
    if len(argv) < 3 or argv[-1] not in CASES:
        print(usage, file=sys.stderr)
        return 2
    name = argv[-1]
    try:
        CASES[name](make_ctx(*argv[1:-1]))
    except Failure as e:
        print(f"FAIL {name}: {e}", file=sys.stderr)
        return 1
    except Skip as e:
        print(f"SKIP {name}: {e}")
        return 77
    print(f"ok {name}")
    return 0
