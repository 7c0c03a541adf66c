#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 The Tessera Authors
# SPDX-License-Identifier: Apache-2.0
"""The layout of `tessera plan --html` as a browser draws it (suite 'cli').

Usage:
  check_report.py TESSERA FIXTURE DATA_DIR OUT_DIR

Writes the report of a small plan (data/report_rules.txt, data/report_vars.txt
on a data=2,model=4 mesh, uneven chunks allowed) to OUT_DIR/plan-report.html,
renders it with headless Chromium into OUT_DIR/plan-report.png (kept: the
picture of the report), and checks the picture, not the HTML text: the memory
bars' pixel lengths are in the ratio of the devices' bytes, each variable's
grid has one box per distinct shard sized in proportion to it, and nothing
runs off the page. FIXTURE (html_report_fixture) writes the report of a
handmade plan whose devices have capacities, one over it
(OUT_DIR/plan-report-capacity.png): its bars are drawn against capacity.
Each check prints 'ok NAME' or 'FAIL NAME: why'.

Exit status: 0 when every check passes, 1 when one fails, 77 (skipped) when
this machine has no Chromium: scripts/install-deps.sh installs Debian's
`chromium` and only skips it where it cannot be installed.
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

import png

WINDOW = (1024, 1400)
BAR_WIDTH = 600      # kBarWidthPx in cli/html_report.h: the largest device's bar
GRID_WIDTH = 360     # kGridWidthPx
BAR_HEIGHT = 14      # a bar's height in the page's CSS
BAR_COLOUR = (0x4E, 0x79, 0xA7)
PEAK_COLOUR = (0xA0, 0xCB, 0xE8)
CAPACITY_COLOUR = (0xE6, 0xE6, 0xE6)
OVER_COLOUR = (0xE1, 0x57, 0x59)
WHITE = (0xFF, 0xFF, 0xFF)
# matplotlib's tab20b: the boxes' colours (white borders keep neighbours apart).
TAB20B = {(0x39, 0x3B, 0x79), (0x52, 0x54, 0xA3), (0x6B, 0x6E, 0xCF), (0x9C, 0x9E, 0xDE),
          (0x63, 0x79, 0x39), (0x8C, 0xA2, 0x52), (0xB5, 0xCF, 0x6B), (0xCE, 0xDB, 0x9C),
          (0x8C, 0x6D, 0x31), (0xBD, 0x9E, 0x39), (0xE7, 0xBA, 0x52), (0xE7, 0xCB, 0x94),
          (0x84, 0x3C, 0x39), (0xAD, 0x49, 0x4A), (0xD6, 0x61, 0x6B), (0xE7, 0x96, 0x9C),
          (0x7B, 0x41, 0x73), (0xA5, 0x51, 0x94), (0xCE, 0x6D, 0xBD), (0xDE, 0x9E, 0xD6)}
# Boxes are far larger; text strokes and the holes of letters far smaller.
MIN_BOX_AREA = 150


class Failure(Exception):
    pass


def expect(actual, expected, what):
    if actual != expected:
        raise Failure(f"{what}: expected {expected!r}, got {actual!r}")


def device_bytes(stdout):
    """{"cpu:0": 16468, ...} from the plan's per-device totals table."""
    totals = {}
    for line in stdout.splitlines():
        match = re.match(r"\s+(cpu:\d+)\s{2,}\S.*?\s{2,}([\d,]+)\s{2,}", line)
        if match:
            totals[match.group(1)] = int(match.group(2).replace(",", ""))
    return totals


def render(html, image):
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        print("SKIP: chromium is not installed (scripts/install-deps.sh installs Debian's "
              "chromium; this machine could not)")
        sys.exit(77)
    with tempfile.TemporaryDirectory() as profile:
        # --no-sandbox: the test may run as root; a fresh profile keeps parallel
        # runs apart; a scale factor of 1 makes a CSS pixel one image pixel.
        done = subprocess.run(
            [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
             "--force-device-scale-factor=1", f"--user-data-dir={profile}",
             f"--window-size={WINDOW[0]},{WINDOW[1]}", f"--screenshot={image}",
             "file://" + os.path.abspath(html)],
            capture_output=True, text=True, timeout=180)
    if done.returncode != 0 or not os.path.exists(image):
        raise Failure(f"chromium exited {done.returncode}: {done.stderr[-2000:]}")


def bands(rows_with_pixels):
    """Runs of consecutive y values: [(first, last), ...]."""
    out = []
    for y in sorted(rows_with_pixels):
        if out and y == out[-1][1] + 1:
            out[-1] = (out[-1][0], y)
        else:
            out.append((y, y))
    return out


def bar_rows(image):
    """The middle pixel row of each memory bar, top to bottom. A bar is a band
    of rows BAR_HEIGHT tall holding BAR_COLOUR (the legend's swatch is smaller)."""
    hits = [y for y in range(image.height) if BAR_COLOUR in image.rows[y]]
    return [image.rows[(first + last) // 2] for first, last in bands(hits)
            if last - first + 1 == BAR_HEIGHT]


def bars(image):
    """Per memory bar, top to bottom: its length in pixels."""
    lengths = []
    for row in bar_rows(image):
        xs = [x for x, colour in enumerate(row) if colour == BAR_COLOUR]
        lengths.append(xs[-1] - xs[0] + 1)
    return lengths


def boxes(image):
    """The grids' boxes: connected regions of one tab20b colour, as
    (left, top, width, height), grouped per grid (regions whose rows overlap
    or touch), top to bottom."""
    seen = [[False] * image.width for _ in range(image.height)]
    regions = []
    for y in range(image.height):
        for x in range(image.width):
            colour = image.rows[y][x]
            if seen[y][x] or colour not in TAB20B:
                continue
            stack, area = [(x, y)], 0
            seen[y][x] = True
            left, top, right, bottom = x, y, x, y
            while stack:
                px, py = stack.pop()
                area += 1
                left, right = min(left, px), max(right, px)
                top, bottom = min(top, py), max(bottom, py)
                for nx, ny in ((px + 1, py), (px - 1, py), (px, py + 1), (px, py - 1)):
                    if (0 <= nx < image.width and 0 <= ny < image.height and not seen[ny][nx]
                            and image.rows[ny][nx] == colour):
                        seen[ny][nx] = True
                        stack.append((nx, ny))
            if area >= MIN_BOX_AREA:
                regions.append((left, top, right - left + 1, bottom - top + 1))
    regions.sort(key=lambda r: (r[1], r[0]))
    grids = []
    for region in regions:
        # Boxes of one grid are 2 pixels apart (their white borders).
        if grids and region[1] <= max(r[1] + r[3] for r in grids[-1]) + 2:
            grids[-1].append(region)
        else:
            grids.append([region])
    return grids


def proportional(total, sizes):
    """round(total * size / sum), each less its 2 pixels of white border."""
    whole = sum(sizes)
    return [round(total * size / whole) - 2 for size in sizes]


def close(actual, expected, what, slack=1):
    """Pixel lengths equal within `slack` (the page rounds each box separately)."""
    if len(actual) != len(expected) or any(abs(a - e) > slack for a, e in zip(actual, expected)):
        raise Failure(f"{what}: expected {expected} (within {slack} px), got {actual}")


def main(argv):
    if len(argv) != 5:
        print(__doc__, file=sys.stderr)
        return 2
    tessera, fixture, data_dir, out_dir = argv[1:]
    os.makedirs(out_dir, exist_ok=True)
    html = os.path.join(out_dir, "plan-report.html")
    image_path = os.path.join(out_dir, "plan-report.png")
    done = subprocess.run(
        [tessera, "plan", "--mesh", "data=2,model=4", "--check", "chunk",
         "--rules", os.path.join(data_dir, "report_rules.txt"),
         "--vars", os.path.join(data_dir, "report_vars.txt"), "--html", html],
        capture_output=True, text=True, timeout=60)
    # Exit 1: 'norm' is flagged (its rule's rank is wrong), which the report shows.
    if done.returncode != 1 or done.stderr:
        print(f"FAIL: tessera plan exited {done.returncode}: {done.stderr}", file=sys.stderr)
        return 1
    totals = device_bytes(done.stdout)
    with open(html, encoding="utf-8") as f:
        text = f.read()
    render(html, image_path)
    print(f"screenshot: {image_path}")
    image = png.read(image_path)
    capacity_html = os.path.join(out_dir, "plan-report-capacity.html")
    capacity_path = os.path.join(out_dir, "plan-report-capacity.png")
    subprocess.run([fixture, capacity_html], check=True, timeout=60)
    render(capacity_html, capacity_path)
    print(f"screenshot: {capacity_path}")
    capacity_image = png.read(capacity_path)

    def self_contained():
        for needle in ("<script", "http:", "https:", "src=", "url(", "@import", "<link"):
            if needle in text:
                raise Failure(f"the page has {needle!r}: it must need nothing from elsewhere")

    def screenshot_is_the_window():
        expect((image.width, image.height), WINDOW, "image size")

    def bars_are_in_the_ratio_of_the_device_bytes():
        expect(sorted(totals), [f"cpu:{i}" for i in range(8)], "devices in the plan")
        largest = max(totals.values())
        expected = [round(BAR_WIDTH * totals[f"cpu:{i}"] / largest) for i in range(8)]
        expect(expected, [600, 600, 600, 301, 600, 600, 600, 301], "bar lengths from the plan")
        close(bars(image), expected, "bar lengths in pixels")

    grids = boxes(image)

    def each_grid_has_a_box_per_distinct_shard():
        # embed and dense: 4 shards over 'model', each on 2 devices; bias: 4;
        # scale replicated: 1; norm is not placeable: no grid.
        expect([len(grid) for grid in grids], [4, 4, 4, 1], "boxes per grid")

    def uneven_rows_are_as_tall_as_their_shards():
        # embed (10, 1024) over model=4 in chunks of 3: rows 3, 3, 3, 1; the grid
        # is 180 px tall so that the 1-row chunk is one 18 px label tall.
        close([r[3] for r in grids[0]], proportional(180, [3, 3, 3, 1]), "embed box heights")
        close([r[2] for r in grids[0]], [GRID_WIDTH - 2] * 4, "embed box widths")

    def uneven_columns_are_as_wide_as_their_shards():
        # bias (7,) over model=4 in chunks of 2: 2, 2, 2, 1.
        close([r[2] for r in grids[2]], proportional(GRID_WIDTH, [2, 2, 2, 1]), "bias box widths")

    def square_tensor_keeps_its_aspect():
        # dense (64, 64): 240 px tall (the most), so 240 px wide, in 4 columns.
        close([r[2] for r in grids[1]], proportional(240, [16, 16, 16, 16]), "dense widths")
        close([r[3] for r in grids[1]], [240 - 2] * 4, "dense heights")

    def bars_are_drawn_against_capacity():
        # On a scale of the largest of uses and capacities (100 MiB = 600 px),
        # per device the pixels of weights, peak beyond them, free capacity
        # and use over capacity (html_report_fixture.cc):
        expected = [(240, 0, 240, 0),    # 40 of 80 MiB
                    (240, 120, 120, 0),  # 40 MiB, peak 60, of 80 MiB
                    (480, 0, 0, 120),    # 100 of 80 MiB: the last 20 MiB red
                    (120, 0, 120, 0)]    # 20 of 40 MiB
        actual = [tuple(row.count(colour) for colour in
                        (BAR_COLOUR, PEAK_COLOUR, CAPACITY_COLOUR, OVER_COLOUR))
                  for row in bar_rows(capacity_image)]
        if len(actual) != len(expected) or any(
                abs(a - e) > 1 for got, want in zip(actual, expected) for a, e in zip(got, want)):
            raise Failure(f"bar segments: expected {expected} (within 1 px), got {actual}")

    def nothing_runs_off_the_page():
        margin = 16  # the body's margin: content ends before it
        for picture in (image, capacity_image):
            for y in range(picture.height):
                row = picture.rows[y]
                for x in range(picture.width - margin, picture.width):
                    if row[x] != WHITE:
                        raise Failure(f"pixel ({x}, {y}) is {row[x]} within the right margin")
            for x in range(picture.width):
                if picture.rows[picture.height - 1][x] != WHITE:
                    raise Failure(f"the page is taller than the {WINDOW[1]} px window")

    failed = 0
    for check in (self_contained, screenshot_is_the_window,
                  bars_are_in_the_ratio_of_the_device_bytes,
                  each_grid_has_a_box_per_distinct_shard, uneven_rows_are_as_tall_as_their_shards,
                  uneven_columns_are_as_wide_as_their_shards, square_tensor_keeps_its_aspect,
                  bars_are_drawn_against_capacity, nothing_runs_off_the_page):
        try:
            check()
            print(f"ok {check.__name__}")
        except (Failure, IndexError) as e:
            failed += 1
            print(f"FAIL {check.__name__}: {e!r}", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
