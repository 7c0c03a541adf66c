# SPDX-FileCopyrightText: 2026 The Tessera Authors
# SPDX-License-Identifier: Apache-2.0

"""Layout-map rules against CPython's own `re`, through the public C ABI (ctypes).

Random patterns from a grammar of the constructs in the table of
core/python_regex.h (valid, invalid and unsupported ones) and random paths.
For each pattern, in both match modes (re.search, re.fullmatch):
  - Python refuses it: Tessera must refuse it with Python's message
    ("... is not a valid Python regular expression: <re.error text>");
  - Python accepts it and Tessera refuses it: only as "a Python regular
    expression RE2 cannot run" (counted per construct);
  - both accept it: for every path, the rule matches in Tessera exactly when
    Python's re.search / re.fullmatch matches.
Paths equal to the key are skipped (an exact key wins before any pattern, in
Keras too), and so is the empty path for patterns with \\B (the table's row:
Python 3.11-3.13 do not match \\B in an empty string, RE2 and Python 3.14 do).
Exits 1 on any difference. Needs only the standard library.

Usage: compare_with_python_re.py --lib path/to/libtessera.so.0 [--count N] [--seed S]
"""
import argparse
import collections
import ctypes as C
import random
import re
import sys
import warnings

NO_INDEX = C.c_size_t(-1).value

# Characters chosen for the rows of the table: ASCII, case-folding specials
# (Kelvin sign, dotted/dotless i, long s), Unicode digits/numbers/letters and
# whitespace Python's \d \w \s see and RE2's ASCII classes do not.
ALPHABET = ["a", "b", "k", "s", "i", "K", "S", "I", "_", "/", "0", "7", "-", ".", " ", "\n",
            "\u0663", "\u00e9", "\u212a", "\u0130", "\u0131", "\u017f", "\u00bd", "\u216b",
            "\u00a0", "\u2028", "\x0b", "\x1c", "\u4e00", "[", "]", ":", "{", "}", ","]


class Tessera:
    def __init__(self, path):
        lib = C.CDLL(path)
        sig = {
            "tessera_error_message": (C.c_char_p, [C.c_void_p]),
            "tessera_error_destroy": (None, [C.c_void_p]),
            "tessera_layout_create": (C.c_void_p, [C.c_void_p, C.c_size_t, C.c_void_p,
                                                   C.POINTER(C.c_void_p)]),
            "tessera_layout_destroy": (None, [C.c_void_p]),
            "tessera_layout_map_create": (C.c_void_p, [C.c_void_p, C.c_int, C.POINTER(C.c_void_p)]),
            "tessera_layout_map_destroy": (None, [C.c_void_p]),
            "tessera_layout_map_set": (C.c_bool, [C.c_void_p, C.c_char_p, C.c_void_p,
                                                  C.POINTER(C.c_void_p)]),
            "tessera_layout_map_lookup_rule": (C.c_bool, [C.c_void_p, C.c_char_p,
                                                          C.POINTER(C.c_size_t),
                                                          C.POINTER(C.c_void_p)]),
        }
        for name, (res, args) in sig.items():
            fn = getattr(lib, name)
            fn.restype, fn.argtypes = res, args
        self.lib = lib
        self.layout = self.call("tessera_layout_create", None, 0, None)

    def call(self, name, *args):
        """(result, error message or None)."""
        err = C.c_void_p()
        out = getattr(self.lib, name)(*args, C.byref(err))
        if err.value:
            message = self.lib.tessera_error_message(err).decode()
            self.lib.tessera_error_destroy(err)
            raise TesseraError(message)
        return out

    def rule_map(self, key, match):
        """A map holding only `key`, or TesseraError."""
        m = self.call("tessera_layout_map_create", None, match)
        try:
            self.call("tessera_layout_map_set", m, key.encode(), self.layout)
        except TesseraError:
            self.lib.tessera_layout_map_destroy(m)
            raise
        return m

    def matches(self, m, path):
        index = C.c_size_t()
        self.call("tessera_layout_map_lookup_rule", m, path.encode(), C.byref(index))
        return index.value != NO_INDEX


class TesseraError(Exception):
    pass


class Grammar:
    """Random patterns: mostly valid, some invalid, some that RE2 cannot run."""

    def __init__(self, rng):
        self.r = rng
        self.groups = 0

    def char(self):
        c = self.r.choice(ALPHABET)
        return re.escape(c) if self.r.random() < 0.7 else c

    def escape(self):
        return self.r.choice([
            r"\d", r"\D", r"\w", r"\W", r"\s", r"\S", r"\n", r"\t", r"\.", r"\-", r"\\", r"\$",
            r"\x61", r"\u0663", r"\U0001F600", r"\0", r"\012", r"\101", r"\a", r"\v",
            r"\A", r"\Z", r"\b", r"\B",
            r"\z", r"\pL", r"\Q", r"\E", r"\C", r"\x{61}", r"\q", r"\N{DIGIT ONE}", r"\u12",
        ])

    def set_item(self):
        k = self.r.random()
        if k < 0.45:
            return self.r.choice(["a", "b", "k", "s", "I", "_", "0", "7", "\u00e9", "\u0663", " ",
                                  "\\n", "\\]", "\\-", "\\\\", ":", "."])
        if k < 0.7:
            lo, hi = sorted(self.r.sample("09afkzAKZ_", 2))
            if self.r.random() < 0.05:
                lo, hi = hi, lo
            return f"{lo}-{hi}"
        if k < 0.92:
            return self.r.choice([r"\d", r"\D", r"\w", r"\W", r"\s", r"\S"])
        return self.r.choice([r"\b", r"\x41", r"\u00e9", r"\101", "[:alpha:]", "--", "&&",
                              r"\A", r"\d-z", "\u0131-\u0131"])

    def char_set(self):
        items = "".join(self.set_item() for _ in range(self.r.randint(1, 3)))
        neg = "^" if self.r.random() < 0.35 else ""
        first = "]" if self.r.random() < 0.05 else ""
        return f"[{neg}{first}{items}]"

    def quantifier(self):
        q = self.r.choices(["*", "+", "?", "{2}", "{0,2}", "{,2}", "{1,}", "{,}", "{", "{1,2",
                            "{3,1}", "{1001}", "{}"], [5, 5, 5, 2, 2, 2, 2, 1, 1, 1, 1, 1, 1])[0]
        suffix = self.r.choices(["", "?", "+"], [0.8, 0.15, 0.05])[0]
        return q + suffix

    def group(self, depth):
        body = self.alternation(depth + 1)
        k = self.r.random()
        if k < 0.35:
            self.groups += 1
            return f"({body})"
        if k < 0.6:
            return f"(?:{body})"
        if k < 0.7:
            self.groups += 1
            return f"(?P<g{self.groups}>{body})"
        if k < 0.82:
            flags = self.r.choice(["i", "m", "s", "x", "a", "i-s", "-i", "ai", "u", "au", "L"])
            return f"(?{flags}:{body})"
        return self.r.choice([f"(?={body})", f"(?!{body})", f"(?<=a)", f"(?>{body})",
                              f"(?#{body.replace(')', '')})", f"(?<n>{body})"])

    def atom(self, depth):
        k = self.r.random()
        if k < 0.45:
            return self.char()
        if k < 0.52:
            return "."
        if k < 0.64:
            return self.escape()
        if k < 0.78:
            return self.char_set()
        if k < 0.88 and depth < 3:
            return self.group(depth)
        if k < 0.94:
            return self.r.choice(["^", "$"])
        if k < 0.97 and self.groups:
            return self.r.choice([f"\\{self.r.randint(1, self.groups)}", "(?P=g1)", "(?(1)a|b)"])
        return self.r.choice(["*", ")", "(", "\\", " ", "#c\n", "{2}"])

    def sequence(self, depth):
        out = ""
        for _ in range(self.r.randint(0 if depth else 1, 4)):
            out += self.atom(depth)
            if self.r.random() < 0.3:
                out += self.quantifier()
        return out

    def alternation(self, depth):
        branches = [self.sequence(depth)]
        while self.r.random() < 0.2:
            branches.append(self.sequence(depth))
        return "|".join(branches)

    def pattern(self):
        self.groups = 0
        flags = ""
        if self.r.random() < 0.25:
            flags = "(?" + "".join(self.r.sample("imsxau", self.r.randint(1, 2))) + ")"
        body = self.alternation(0)
        if self.r.random() < 0.3:
            body += "$"
        if flags and self.r.random() < 0.05:
            return body + flags  # global flags not at the start
        return flags + body


def path(rng, pattern):
    """Half of the paths use the pattern's own characters, so that many match."""
    pool = ALPHABET if rng.random() < 0.5 else [c for c in pattern if c not in "\\()[]?*+|^$"] or ALPHABET
    p = "".join(rng.choice(pool) for _ in range(rng.randint(0, 6)))
    return p + "\n" if rng.random() < 0.15 else p


def python_error(pattern):
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            re.compile(pattern)
    except (re.error, OverflowError, ValueError, RecursionError) as e:
        return str(e)
    return None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--lib", required=True)
    ap.add_argument("--count", type=int, default=20000)
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--paths", type=int, default=12)
    args = ap.parse_args()
    t = Tessera(args.lib)
    rng = random.Random(args.seed)
    grammar = Grammar(rng)
    counts = collections.Counter()
    refusals = collections.Counter()
    failures = []
    modes = [(0, "search", re.search), (1, "fullmatch", re.fullmatch)]
    for _ in range(args.count):
        pattern = grammar.pattern()
        if sys.version_info >= (3, 14) and "\\z" in pattern:
            continue  # 3.14 accepts \z; Tessera follows 3.11-3.13 (docs/python-regex.md)
        py_err = python_error(pattern)
        paths = [path(rng, pattern) for _ in range(args.paths)]
        for match, mode, py_match in modes:
            try:
                m = t.rule_map(pattern, match)
                ours = None
            except TesseraError as e:
                m, ours = None, str(e)
            if py_err is not None:
                counts["rules (pattern, mode) Python refuses"] += 1
                # Python's repr escapes unprintable non-ASCII characters in
                # names, Tessera's does not: there only the kind of refusal is compared.
                prefix = "is not a valid Python regular expression: " + (py_err if pattern.isascii() else "")
                if ours is None or prefix not in ours:
                    failures.append(f"{pattern!r} ({mode}): Python refuses ({py_err}); Tessera: {ours}")
                continue
            if ours is not None:
                if "RE2 cannot run: " not in ours:
                    failures.append(f"{pattern!r} ({mode}): Python accepts; Tessera: {ours}")
                else:
                    refusals[ours.split("RE2 cannot run: ")[1].split(" at byte")[0]] += 1
                    counts["rules (pattern, mode) Python accepts, refused as beyond RE2"] += 1
                continue
            counts["rules (pattern, mode) both accept"] += 1
            try:
                for p in paths:
                    if p == pattern or (p == "" and "\\B" in pattern):
                        continue
                    with warnings.catch_warnings():
                        warnings.simplefilter("ignore")
                        expected = py_match(pattern, p) is not None
                    got = t.matches(m, p)
                    counts["lookups compared"] += 1
                    counts["lookups that match"] += expected
                    if got != expected:
                        failures.append(f"{pattern!r} ({mode}) on {p!r}: Python {expected}, Tessera {got}")
            finally:
                t.lib.tessera_layout_map_destroy(m)
    print(f"patterns: {args.count}, each in both match modes")
    for name, n in sorted(counts.items()):
        print(f"{name}: {n}")
    print("refused as beyond RE2, by construct:")
    for name, n in refusals.most_common():
        print(f"  {name}: {n}")
    print(f"differences: {len(failures)}")
    for f in failures[:40]:
        print("  " + f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
