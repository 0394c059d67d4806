#!/usr/bin/env python3
"""Print each finding of OUT/findings.csv with its source context: context.py OUT [repo-regex] [rule-regex] [before] [after]
(FIELD_CSV=peer-findings.csv prints the peers' findings instead.)"""
import csv, os, re, sys
out = sys.argv[1]; repo_re = sys.argv[2] if len(sys.argv) > 2 else '.'; rule_re = sys.argv[3] if len(sys.argv) > 3 else '.'
before = int(sys.argv[4]) if len(sys.argv) > 4 else 6; after = int(sys.argv[5]) if len(sys.argv) > 5 else 3
src = os.environ['FIELD_SRC']  # the clones
for i, r in enumerate(csv.DictReader(open(os.path.join(out, os.environ.get('FIELD_CSV', 'findings.csv'))))):
    if not re.search(repo_re, r['repo']) or not re.search(rule_re, r['rule']):
        continue
    file, line = r['location'].rsplit(':', 1); line = int(line)
    print(f"=== #{i} {r['repo']} {r['rule']} {r['location']}\n    {r['message'][:400]}")
    try:
        lines = open(os.path.join(src, r['repo'], file), errors='replace').read().splitlines()
    except OSError:
        print('    (source not found)'); continue
    for n in range(max(1, line - before), min(len(lines), line + after) + 1):
        print(f"{'>' if n == line else ' '}{n:5} {lines[n - 1]}")
