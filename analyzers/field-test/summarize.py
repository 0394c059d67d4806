#!/usr/bin/env python3
"""Summarize a field run: findings per repo x rule (SARIF), AD0001s, AsyncCost's share of analyzer time (ReportAnalyzer)."""
import csv, glob, json, os, re, sys
from collections import Counter, defaultdict
from urllib.parse import unquote

out = sys.argv[1]
here = os.path.dirname(os.path.abspath(__file__))
src = os.environ['FIELD_SRC']  # the clones (run.sh exports it)

# projects of interest: (name, tf) -> repo; a line with "all" counts every compilation its build log names
wanted = {}
for line in open(os.path.join(here, 'projects.txt')):
    if line.startswith('#') or not line.strip():
        continue
    repo, proj, tf, *scope = line.split()
    name = os.path.splitext(os.path.basename(proj))[0]
    wanted[(name, tf)] = repo
    log = os.path.join(out, 'logs', f'{repo}.{name}.{tf}.log')
    if scope == ['all'] and os.path.exists(log):
        for m in re.finditer(r'/errorlog:"?[^ "]*/sarif/([^ ",]+)\.(net(?:standard)?\d+\.\d+)\.sarif', open(log, errors='replace').read()):
            wanted.setdefault((m.group(1), m.group(2)), repo)

def rel(uri):
    path = unquote(uri.replace('file://', ''))
    for repo in os.listdir(src):
        root = os.path.join(src, repo) + '/'
        if path.startswith(root):
            return path[len(root):]
    return path

# The peers' async rules reported beside AsyncCost (peers-warning.globalconfig)
PEER_RULES = ['VSTHRD002', 'VSTHRD003', 'VSTHRD103', 'VSTHRD111', 'CA2007', 'CA1849', 'CA2012', 'MA0004', 'MA0042',
              'MA0045'] + [f'AsyncFixer0{i}' for i in range(1, 6)]
findings, peers, suppressed, ad0001 = [], [], Counter(), []
seen = set()
for f in sorted(glob.glob(os.path.join(out, 'sarif', '*.sarif'))):
    base = os.path.basename(f)[:-len('.sarif')]
    name, tf = base.rsplit('.', 1) if not re.search(r'\.net(standard)?\d+\.\d+$', base) else re.match(r'(.*)\.(net(?:standard)?\d+\.\d+)$', base).groups()
    try:
        runs = json.load(open(f))['runs']
    except Exception as e:  # a build that failed before csc wrote the log
        print(f'unreadable {f}: {e}', file=sys.stderr); continue
    for run in runs:
        for r in run.get('results', []):
            rule = r.get('ruleId', '')
            loc = (r.get('locations') or [{}])[0].get('physicalLocation', {})
            file = rel(loc.get('artifactLocation', {}).get('uri', ''))
            line = loc.get('region', {}).get('startLine', 0)
            msg = r.get('message', {}).get('text', '')
            if rule == 'AD0001':
                ad0001.append((name, tf, msg)); continue
            if (name, tf) not in wanted:
                continue
            repo = wanted[(name, tf)]
            if rule in PEER_RULES:  # the oracle (FIELD_PEERS in run.sh); a line the team suppressed is no finding of it
                if r.get('suppressions'):
                    continue
                key = (repo, rule, file, line, loc.get('region', {}).get('startColumn', 0))
                if key not in seen:
                    seen.add(key)
                    peers.append(dict(repo=repo, project=name, tf=tf, rule=rule, file=file, line=line, message=msg))
                continue
            if not rule.startswith('AC'):
                continue
            if r.get('suppressions'):
                suppressed[(repo, rule)] += 1; continue
            key = (repo, rule, file, line, loc.get('region', {}).get('startColumn', 0))
            if key in seen:  # the same source compiled into two projects of interest (shared files)
                continue
            seen.add(key)
            findings.append(dict(repo=repo, project=name, tf=tf, rule=rule, file=file, line=line, message=msg))

with open(os.path.join(out, 'findings.csv'), 'w', newline='') as fh:
    w = csv.writer(fh)
    w.writerow(['repo', 'project', 'rule', 'location', 'message'])
    for x in sorted(findings, key=lambda x: (x['repo'], x['rule'], x['file'], x['line'])):
        w.writerow([x['repo'], x['project'], x['rule'], f"{x['file']}:{x['line']}", x['message']])

with open(os.path.join(out, 'peer-findings.csv'), 'w', newline='') as fh:
    w = csv.writer(fh)
    w.writerow(['repo', 'project', 'rule', 'location', 'message'])
    for x in sorted(peers, key=lambda x: (x['repo'], x['rule'], x['file'], x['line'])):
        w.writerow([x['repo'], x['project'], x['rule'], f"{x['file']}:{x['line']}", x['message']])

# Analyzer time per compilation, from the ReportAnalyzer table in each detailed build log.
row = re.compile(r'^\s*(<?[\d.]+)\s+(<?\d+)\s+(\S.*?)\s*(\(TaskId:\d+\))?\s*$')
times = {}  # (name, tf) -> dict
for log in sorted(glob.glob(os.path.join(out, 'logs', '*.log'))):
    cur, block = None, None
    for line in open(log, errors='replace'):
        m = re.search(r'/errorlog:"?[^ "]*/sarif/([^ ",]+)\.sarif', line)
        if m:
            cur = m.group(1)
            continue
        if 'Total analyzer execution time:' in line and cur:
            total = float(re.search(r'time: ([\d.]+)', line).group(1))
            block = times[cur] = dict(total=total, asm={}, rules={})
            continue
        if 'Total generator execution time' in line or 'All analyzers' in line or 'Done executing task "Csc"' in line:
            block = None
            continue
        if block is not None:
            m = row.match(line)
            if not m:
                continue
            t = m.group(1); sec = 0.0005 if t.startswith('<') else float(t)
            label = m.group(3)
            if ', Version=' in label:
                block['asm'][label.split(',')[0]] = sec
            else:
                mm = re.search(r'\((AC\d{4})\)', label)
                if mm and 'AsyncCost' in label:
                    block['rules'][mm.group(1)] = sec

builds = [l.rstrip('\n').split('\t') for l in open(os.path.join(out, 'builds.tsv'))] if os.path.exists(os.path.join(out, 'builds.tsv')) else []
repos = sorted({v for v in wanted.values()})
rules = [f'AC{i:04d}' for i in range(1, 11)]
counts = Counter((x['repo'], x['rule']) for x in findings)

md = [f'# Field run: {os.path.basename(out.rstrip("/"))}', '']
md += ['## Builds', '', '| repo | project | TF | exit | wall |', '|---|---|---|---|---|']
md += [f'| {b[0]} | {b[1]} | {b[2]} | {b[3]} | {b[4]} |' for b in builds]
md += ['', '## Findings (repo x rule; deduplicated across projects/TFs; suppressed in source not counted)', '']
md += ['| repo | ' + ' | '.join(rules) + ' | total |', '|---' * (len(rules) + 2) + '|']
for repo in repos:
    md.append(f'| {repo} | ' + ' | '.join(str(counts[(repo, r)] or '') for r in rules) + f' | {sum(counts[(repo, r)] for r in rules)} |')
md.append('| **all** | ' + ' | '.join(str(sum(counts[(p, r)] for p in repos) or '') for r in rules) + f' | {len(findings)} |')
peer_counts = Counter((x['repo'], x['rule']) for x in peers)
if peers:
    prules = [r for r in PEER_RULES if any(k[1] == r for k in peer_counts)]
    md += ['', '## Peer findings (the same builds; deduplicated like the AC ones)', '']
    md += ['| repo | ' + ' | '.join(prules) + ' |', '|---' * (len(prules) + 1) + '|']
    for repo in repos:
        if any(peer_counts[(repo, r)] for r in prules):
            md.append(f'| {repo} | ' + ' | '.join(str(peer_counts[(repo, r)] or '') for r in prules) + ' |')
if suppressed:
    md += ['', 'Suppressed in source: ' + ', '.join(f'{k[0]} {k[1]}: {v}' for k, v in sorted(suppressed.items()))]
md += ['', f'## AD0001: {len(ad0001)}', '']
md += [f'- {n} {t}: {m[:300]}' for n, t, m in ad0001]
md += ['', '## Analyzer time (ReportAnalyzer, per compilation of a project of interest)', '',
       '| project | TF | all analyzers (s) | AsyncCost (s) | share | slowest AC rules | biggest other analyzer assemblies |', '|---|---|---|---|---|---|---|']
for key in sorted(times):
    name, tf = re.match(r'(.*)\.(net(?:standard)?\d+\.\d+)$', key).groups()
    if (name, tf) not in wanted:
        continue
    b = times[key]
    ac = b['asm'].get('AsyncCost.Analyzers', 0.0)
    top = ', '.join(f'{r} {s:.3f}' for r, s in sorted(b['rules'].items(), key=lambda kv: -kv[1])[:3])
    others = ', '.join(f'{a} {s:.2f}' for a, s in sorted(b['asm'].items(), key=lambda kv: -kv[1]) if a != 'AsyncCost.Analyzers')
    others = ', '.join(others.split(', ')[:3])
    md.append(f"| {name} | {tf} | {b['total']:.3f} | {ac:.3f} | {100 * ac / b['total'] if b['total'] else 0:.1f} % | {top} | {others} |")
open(os.path.join(out, 'summary.md'), 'w').write('\n'.join(md) + '\n')
json.dump(times, open(os.path.join(out, 'analyzer-times.json'), 'w'), indent=1)
print('\n'.join(md))
