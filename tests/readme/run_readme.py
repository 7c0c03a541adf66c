#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 The Tessera Authors
# SPDX-License-Identifier: Apache-2.0
"""Runs README.md's code blocks exactly as written against a real `meson install`
to the build's prefix (/usr/local by default), as a new user following the README
would: no TESSERA_* variables, no LD_LIBRARY_PATH, a fresh HOME.

Every fenced code block in the README carries a marker, an HTML comment that
applies to the next fenced block after it:

  <!-- readme-test: SCENARIO file=PATH -->  the block is written to PATH (relative)
  <!-- readme-test: SCENARIO run -->        the block runs with `bash -e` (set -e)
  <!-- readme-test: SCENARIO output -->     the block is what the scenario's last
                                            run block printed on stdout (lines
                                            compared without trailing blanks)
  <!-- readme-test: skip REASON -->         the block is deliberately not run

Blocks run in the README's order; each scenario has a directory of its own, its
working directory, holding `build`, a link to the build directory under test (the
README's commands say `meson install -C build`). A block without a marker fails
the test, so a new block is either tested or skipped with a reason.

Where the install goes: when run as root and the kernel allows it, everything
happens in a private mount namespace (unshare -m) with overlays over /usr/local,
/etc (the linker cache ldconfig writes) and /tmp, so the machine running the
test sees none of it. Elsewhere the install is real and done only when CI=true;
otherwise the test is skipped (exit 77).

Usage: run_readme.py README BUILDDIR PREFIX
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

SKIP = 77
NO_NAMESPACE = 3  # the child's exit status when the private mounts are refused
OVERLAID = ('/usr/local', '/etc', '/tmp')
MARKER = re.compile(r'^<!-- readme-test: (.*?) -->$')
FENCE = re.compile(r'^```(\S*)$')


class ReadmeError(Exception):
    pass


def parse(readme):
    """The README's blocks as (line, marker words, text), in order."""
    blocks, marker, inside, start, body = [], None, False, 0, []
    for number, line in enumerate(open(readme, encoding='utf-8').read().split('\n'), 1):
        if inside:
            if line == '```':
                blocks.append((start, marker, '\n'.join(body) + '\n'))
                inside, marker, body = False, None, []
            else:
                body.append(line)
            continue
        found = MARKER.match(line)
        if found:
            if marker is not None:
                raise ReadmeError(f'README line {number}: a second marker before line {marker_line}\'s block')
            marker, marker_line = found.group(1).split(), number
        elif FENCE.match(line):
            if marker is None:
                raise ReadmeError(f'README line {number}: a code block without a <!-- readme-test: ... --> marker '
                                  '(test it, or mark it "skip REASON")')
            inside, start = True, number
    if marker is not None:
        raise ReadmeError(f'README line {marker_line}: a marker with no code block after it')
    return blocks


def clean_environment(home):
    """The user's environment without anything that would find Tessera for them."""
    dropped = ('TESSERA_', 'LD_', 'PKG_CONFIG', 'MONO_', 'GO', 'CGO_', 'CLASSPATH', 'JAVA_TOOL_OPTIONS')
    env = {k: v for k, v in os.environ.items() if not k.startswith(dropped)}
    env['HOME'] = home
    return env


def run_blocks(blocks, builddir, root):
    env = clean_environment(os.path.join(root, 'home'))
    os.makedirs(env['HOME'])
    last_stdout = {}
    ran = 0
    for line, marker, text in blocks:
        if marker[0] == 'skip':
            if len(marker) < 2:
                raise ReadmeError(f'README line {line}: "skip" needs a reason')
            continue
        if len(marker) != 2:
            raise ReadmeError(f'README line {line}: marker {" ".join(marker)!r} is not "SCENARIO ACTION"')
        scenario, action = marker
        cwd = os.path.join(root, 'scenarios', scenario)
        if not os.path.isdir(cwd):
            os.makedirs(cwd)
            os.symlink(builddir, os.path.join(cwd, 'build'))
        if action.startswith('file='):
            with open(os.path.join(cwd, action[len('file='):]), 'w', encoding='utf-8') as f:
                f.write(text)
        elif action == 'run':
            print(f'--- {scenario} (README line {line})\n{text}', end='', flush=True)
            run = subprocess.run(['bash', '-e', '-c', text], cwd=cwd, env=env, stdout=subprocess.PIPE,
                                 text=True)
            sys.stdout.write(run.stdout)
            if run.returncode != 0:
                raise ReadmeError(f'README line {line}: scenario {scenario}\'s block exited with {run.returncode}')
            last_stdout[scenario] = run.stdout
            ran += 1
        elif action == 'output':
            if scenario not in last_stdout:
                raise ReadmeError(f'README line {line}: scenario {scenario} has no run block before its output')
            shown = [l.rstrip() for l in text.rstrip('\n').split('\n')]
            printed = [l.rstrip() for l in last_stdout[scenario].rstrip('\n').split('\n')]
            if shown != printed:
                raise ReadmeError(f'README line {line}: scenario {scenario} printed\n' + '\n'.join(printed) +
                                  '\nbut the README shows\n' + '\n'.join(shown))
        else:
            raise ReadmeError(f'README line {line}: unknown action {action!r}')
    return ran


def overlay_mounts(scratch):
    """Inside a fresh mount namespace: a tmpfs for the upper layers, then the overlays."""
    subprocess.run(['mount', '-t', 'tmpfs', 'tmpfs', scratch], check=True)
    for target in OVERLAID:
        name = target.strip('/').replace('/', '_')
        upper, work = os.path.join(scratch, name, 'upper'), os.path.join(scratch, name, 'work')
        os.makedirs(upper)
        os.makedirs(work)
        subprocess.run(['mount', '-t', 'overlay', 'overlay', '-o',
                        f'lowerdir={target},upperdir={upper},workdir={work}', target], check=True)


def run_all(readme, builddir, root):
    ran = run_blocks(parse(readme), builddir, root)
    print(f'{ran} README command blocks ran as written; every block is tested or marked skip')


def main():
    if len(sys.argv) == 5 and sys.argv[1] == '--in-namespace':
        readme, builddir, scratch = sys.argv[2:5]
        try:
            overlay_mounts(scratch)
        except (subprocess.CalledProcessError, OSError) as e:
            print(f'private mounts refused: {e}', file=sys.stderr)
            sys.exit(NO_NAMESPACE)
        os.chdir(scratch)
        run_all(readme, builddir, tempfile.mkdtemp(dir=scratch))
        return
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    readme, builddir, prefix = sys.argv[1:4]
    readme, builddir = os.path.abspath(readme), os.path.abspath(builddir)
    if prefix != '/usr/local':
        print(f'the build\'s prefix is {prefix}; the README\'s commands assume /usr/local')
        sys.exit(SKIP)
    parse(readme)  # an unmarked block fails here, wherever the test may run
    if os.geteuid() == 0 and shutil.which('unshare'):
        scratch = tempfile.mkdtemp(prefix='readme-test-', dir=builddir)
        try:
            status = subprocess.run(['unshare', '--mount', '--propagation', 'private', sys.executable,
                                     os.path.abspath(__file__), '--in-namespace', readme, builddir,
                                     scratch]).returncode
        finally:
            shutil.rmtree(scratch, ignore_errors=True)
        if status != NO_NAMESPACE:
            sys.exit(status)
    if os.environ.get('CI') != 'true':
        print('no private mount namespace here (needs root and overlayfs), and CI is not "true": '
              'skipped rather than install into this machine\'s /usr/local')
        sys.exit(SKIP)
    root = tempfile.mkdtemp(prefix='readme-test-')
    try:
        run_all(readme, builddir, root)
    finally:
        shutil.rmtree(root, ignore_errors=True)


if __name__ == '__main__':
    try:
        main()
    except ReadmeError as e:
        print(f'run_readme: FAIL: {e}', file=sys.stderr)
        sys.exit(1)
