#!/usr/bin/env python3
"""Summarize build-cost.sh's lines: per project, what each variant adds to the build with no package ("none"),
as the median over rounds of (variant - none) / none within the same round, for wall time and (where the line has
it) for CPU time, with a distribution-free interval for that median (order statistics: it holds the true median with
at least 90 % probability whatever the noise's shape, given independent rounds) and the load during the rounds. Lines with different labels (build-cost.sh's COST_LABEL) are
different runs and are summarized apart; lines written before the CPU and label columns existed still read.
A build that exits non-zero counts only with --failed-too (for a package whose default-error rules fail the
build after the compiler ran every analyzer: its time is still the whole build's); it is marked either way.
usage: cost-summary.py COST.tsv [--failed-too] [--label LABEL]"""
import math, statistics, sys
from collections import defaultdict
from typing import NamedTuple


class Build(NamedTuple):
    wall: float
    rc: int
    load0: float
    load1: float
    cpu: float | None


def parse(line):
    """project, round, variant, wall, rc, load0, load1, then the CPU seconds and the label, either one optional."""
    project, rnd, variant, wall, rc, l0, l1, *rest = line.rstrip('\n').split('\t')
    cpu, label = None, ''
    for field in rest:
        try:
            cpu = float(field)
        except ValueError:
            label = field
    return label, project, int(rnd), variant, Build(float(wall), int(rc), float(l0), float(l1), cpu)


def median_interval(values, coverage=0.90):
    """The narrowest pair of order statistics (k-th smallest, k-th largest) that covers the median with the coverage;
    empty when there are too few rounds for it (fewer than 5 at 90 %)."""
    xs, n = sorted(values), len(values)
    below = 0.0  # P(fewer than k of n rounds fall under the median) = P(Binomial(n, 1/2) < k)
    best = None
    for k in range(1, n // 2 + 1):
        below += math.comb(n, k - 1) / 2 ** n
        if 1 - 2 * below < coverage:
            break
        best = k
    return f'{xs[best - 1]:+.0f} … {xs[n - best]:+.0f} %' if best else ''


def percent(values):
    return ', '.join(f'{a:+.0f}' for a in values)


args = sys.argv[1:]
failed_too = '--failed-too' in args
only = args[args.index('--label') + 1] if '--label' in args else None
runs = defaultdict(lambda: defaultdict(dict))  # (label, project) -> round -> variant -> Build
for line in open(args[0]):
    if line.strip():
        label, project, rnd, variant, build = parse(line)
        if only is None or label == only:
            runs[(label, project)][rnd][variant] = build

print('| project | variant | rounds | wall, median (s) | CPU, median (s) | wall added, median of rounds (90 % interval) '
      '| CPU added, median of rounds (90 % interval) | CPU added, median (s) | wall, each round (%) '
      '| CPU, each round (%) | load (1 min) |')
print('|---|---|--:|--:|--:|--:|--:|--:|---|---|---|')
for (label, project), rounds in runs.items():
    name = f'{project} ({label})' if label and only is None else project
    variants = sorted({v for r in rounds.values() for v in r}, key=lambda v: (v != 'none', v != 'asynccost', v))
    for v in variants:
        good = lambda r, x: x in r and (r[x].rc == 0 or failed_too)
        ok = [r for r in rounds.values() if good(r, v) and good(r, 'none')]
        failed = sum(1 for r in rounds.values() if v in r and r[v].rc != 0)
        if not ok:
            print(f'| {name} | {v} | 0 ({failed} exit ≠ 0) | | | | | | | | |')
            continue
        timed = [r for r in ok if r[v].cpu is not None and r['none'].cpu is not None]
        loads = [x for r in ok for x in (r[v].load0, r[v].load1)]
        wall_added = [100 * (r[v].wall - r['none'].wall) / r['none'].wall for r in ok]
        cpu_added = [100 * (r[v].cpu - r['none'].cpu) / r['none'].cpu for r in timed]
        cpu_added_s = [r[v].cpu - r['none'].cpu for r in timed]
        median = lambda xs, f: f.format(statistics.median(xs)) if xs else ''
        spread = lambda xs: f' ({median_interval(xs)})' if median_interval(xs) else ''
        peer = v != 'none'
        print(f"| {name} | {v} | {len(ok)}{f' ({failed} exit ≠ 0)' if failed else ''} "
              f"| {median([r[v].wall for r in ok], '{:.2f}')} | {median([r[v].cpu for r in timed], '{:.2f}')} "
              f"| {median(wall_added, '{:+.1f} %') + spread(wall_added) if peer else ''} "
              f"| {median(cpu_added, '{:+.1f} %') + spread(cpu_added) if peer else ''} "
              f"| {median(cpu_added_s, '{:+.2f}') if peer else ''} "
              f"| {percent(wall_added) if peer else ''} | {percent(cpu_added) if peer else ''} "
              f"| {min(loads):.1f}–{max(loads):.1f} |")
