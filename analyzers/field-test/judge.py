#!/usr/bin/env python3
"""Join OUT/findings.csv with hand labels (labels.tsv beside this script, or $FIELD_LABELS: repo rule location label reason) -> OUT/judged.md."""
import csv, os, sys
from collections import defaultdict
out = sys.argv[1]
labels = {}
for row in csv.reader(open(os.environ.get('FIELD_LABELS', os.path.join(os.path.dirname(os.path.abspath(__file__)), 'labels.tsv'))), delimiter='\t'):
    if row and not row[0].startswith('#'):
        labels[(row[0], row[1], row[2])] = (row[3], row[4] if len(row) > 4 else '')
rows = list(csv.DictReader(open(os.path.join(out, 'findings.csv'))))
cells = defaultdict(lambda: dict(n=0, TP=0, FP=0, debatable=0, unjudged=0))
detail = []
for r in rows:
    c = cells[(r['repo'], r['rule'])]; c['n'] += 1
    lab = labels.get((r['repo'], r['rule'], r['location']))
    if lab:
        c[lab[0]] += 1; detail.append((r['repo'], r['rule'], r['location'], lab[0], lab[1]))
    else:
        c['unjudged'] += 1; detail.append((r['repo'], r['rule'], r['location'], '?', ''))
md = [f'# Judged findings: {os.path.basename(out.rstrip("/"))}', '',
      'TP only when a competent maintainer would change the code because of the finding. '
      'Precision = TP / judged; "TP+debatable" counts debatable as right.', '',
      '| repo | rule | findings | judged | TP | FP | debatable | precision | TP+debatable |', '|---|---|---|---|---|---|---|---|---|']
tot = defaultdict(lambda: dict(n=0, TP=0, FP=0, debatable=0, unjudged=0))
for (repo, rule), c in sorted(cells.items()):
    j = c['TP'] + c['FP'] + c['debatable']
    md.append(f"| {repo} | {rule} | {c['n']} | {j} | {c['TP']} | {c['FP']} | {c['debatable']} | {c['TP']/j:.2f} | {(c['TP']+c['debatable'])/j:.2f} |" if j else f"| {repo} | {rule} | {c['n']} | 0 | | | | | |")
    for k in c: tot[rule][k] += c[k]
md += ['', '## Per rule (all repos)', '', '| rule | findings | judged | TP | FP | debatable | precision | TP+debatable |', '|---|---|---|---|---|---|---|---|']
for rule, c in sorted(tot.items()):
    j = c['TP'] + c['FP'] + c['debatable']
    md.append(f"| {rule} | {c['n']} | {j} | {c['TP']} | {c['FP']} | {c['debatable']} | {c['TP']/j:.2f} | {(c['TP']+c['debatable'])/j:.2f} |" if j else f"| {rule} | {c['n']} | 0 | | | | | |")
md += ['', '## Each finding', '', '| repo | rule | location | label | reason |', '|---|---|---|---|---|']
md += [f'| {a} | {b} | {c} | {d} | {e} |' for a, b, c, d, e in sorted(detail)]
open(os.path.join(out, 'judged.md'), 'w').write('\n'.join(md) + '\n')
print('\n'.join(md[:60]))
