#!/usr/bin/env python3
"""Summarize build-cost.sh's lines: per project, what each variant adds to the build with no package ("none"),
as the median over rounds of (variant - none) / none within the same round, with the load during the rounds.
A build that exits non-zero counts only with --failed-too (for a package whose default-error rules fail the
build after the compiler ran every analyzer: its time is still the whole build's); it is marked either way.
usage: cost-summary.py COST.tsv [--failed-too]"""
import statistics, sys
from collections import defaultdict
failed_too = '--failed-too' in sys.argv
runs = defaultdict(lambda: defaultdict(dict))  # project -> round -> variant -> (seconds, rc, load0, load1)
for line in open(sys.argv[1]):
    project, rnd, variant, sec, rc, l0, l1 = line.rstrip('\n').split('\t')
    runs[project][int(rnd)][variant] = (float(sec), int(rc), float(l0), float(l1))
print('| project | variant | rounds | median build (s) | added vs none, median of rounds | each round | load (1 min) |')
print('|---|---|--:|--:|--:|---|---|')
for project, rounds in runs.items():
    variants = sorted({v for r in rounds.values() for v in r}, key=lambda v: (v != 'none', v != 'asynccost', v))
    for v in variants:
        good = lambda r, x: x in r and (r[x][1] == 0 or failed_too)
        ok = [r for r in rounds.values() if good(r, v) and good(r, 'none')]
        secs = [r[v][0] for r in ok]
        loads = [x for r in ok for x in (r[v][2], r[v][3])]
        added = [100 * (r[v][0] - r['none'][0]) / r['none'][0] for r in ok]
        failed = sum(1 for r in rounds.values() if v in r and r[v][1] != 0)
        if not ok:
            print(f'| {project} | {v} | 0 ({failed} exit ≠ 0) | | | | |'); continue
        print(f"| {project} | {v} | {len(ok)}{f' ({failed} exit ≠ 0)' if failed else ''} | {statistics.median(secs):.2f} | "
              + (f"{statistics.median(added):+.1f} %" if v != 'none' and added else '') + ' | '
              + (', '.join(f'{a:+.0f}' for a in added) if v != 'none' else '') + ' | '
              + (f'{min(loads):.1f}–{max(loads):.1f}' if loads else '') + ' |')
