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
peer_csv = os.path.join(out, 'peer-findings.csv')  # the peers' findings of the same builds (run.sh FIELD_PEERS)
peers = list(csv.DictReader(open(peer_csv))) if os.path.exists(peer_csv) else []
cells = defaultdict(lambda: dict(n=0, TP=0, FP=0, debatable=0, unjudged=0))
detail = []
for r in rows:
    c = cells[(r['repo'], r['rule'])]; c['n'] += 1
    lab = labels.get((r['repo'], r['rule'], r['location']))
    if lab and lab[0] == 'missed':  # a place judged a miss before, now reported: right
        lab = ('TP', lab[1])
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
# AC0010 and AC0011 are AC0006 split by contract and by test project: a place AC0006 missed is found by either.
SPLIT = {'AC0010': 'AC0006', 'AC0011': 'AC0006'}
# Misses: a label "missed" names a place the rule should have flagged (found by hand or by a peer) and did not.
missed = defaultdict(list)
for (repo, rule, loc), (lab, why) in labels.items():
    if lab == 'missed' and not any(r['repo'] == repo and SPLIT.get(r['rule'], r['rule']) == rule and r['location'] == loc for r in rows):
        missed[(repo, rule)].append((loc, why))
if peers:
    # AC0006's recall against VSTHRD002: each VSTHRD002 finding judged TP, and whether AC0006 reports the same line.
    ac6 = {(r['repo'], r['location']) for r in rows if SPLIT.get(r['rule'], r['rule']) == 'AC0006'}
    md += ['', '## Peers in the same builds, and AC0006 against VSTHRD002', '',
           'VSTHRD002 TP: its findings judged true (the thread blocks on an incomplete task); found by AC0006: the same '
           'line has an AC0006 finding. Peer findings without a label count as unjudged.', '',
           '| repo | VSTHRD002 findings | VSTHRD002 TP | found by AC0006 | CA2007 findings | AC0004 findings | other misses by AC rules |',
           '|---|---|---|---|---|---|---|']
    for repo in sorted({r['repo'] for r in peers} | {r['repo'] for r in rows}):
        v2 = [r for r in peers if r['repo'] == repo and r['rule'] == 'VSTHRD002']
        tp = [r for r in v2 if labels.get((repo, 'VSTHRD002', r['location']), ('',))[0] == 'TP']
        found = [r for r in tp if (repo, r['location']) in ac6]
        ca = sum(1 for r in peers if r['repo'] == repo and r['rule'] == 'CA2007')
        ac4 = sum(1 for r in rows if r['repo'] == repo and r['rule'] == 'AC0004')
        other = ', '.join(f'{rule} {len(v)}' for (rp, rule), v in sorted(missed.items()) if rp == repo)
        md.append(f'| {repo} | {len(v2)} | {len(tp)} | {len(found)} | {ca} | {ac4} | {other} |')
    md += ['', '## Each miss', '', '| repo | rule | location | why it should be flagged |', '|---|---|---|---|']
    md += [f'| {repo} | {rule} | {loc} | {why} |' for (repo, rule), v in sorted(missed.items()) for loc, why in v]
open(os.path.join(out, 'judged.md'), 'w').write('\n'.join(md) + '\n')
print('\n'.join(md[:60]))
