# compares two Chrome traces bar for bar: flow numbers renamed by first appearance in the X bars' order
# compares two Chrome traces bar for bar (usage: flowcmp.py A.json B.json [sorted])
import json, sys
def canon(path):
    d = json.load(open(path)); ev = d['traceEvents']
    m = {}
    for e in ev:
        f = e.get('args', {}).get('flow_id')
        if e.get('ph') == 'X' and f: m.setdefault(f, len(m) + 1)
    out = []
    for e in ev:
        e = dict(e)
        if e.get('ph') == 'X' and e.get('args', {}).get('flow_id'):
            e['args'] = dict(e['args']); e['args']['flow_id'] = m[e['args']['flow_id']]
        if e.get('ph') in ('s', 'f'): e['id'] = m.get(e['id'], -e['id'])
        out.append(json.dumps(e, sort_keys=True))
    if all(e.get('ph') not in ('s','f') for e in ev): pass
    return sorted(out) if len(sys.argv) > 3 else out, {k: v for k, v in d.items() if k != 'traceEvents'}
a, ma = canon(sys.argv[1]); b, mb = canon(sys.argv[2])
print('SAME-BARS' if a == b and ma == mb else 'DIFFER %d %d' % (len(a), len(b)))
if a != b:
    for x, y in zip(a, b):
        if x != y: print(x); print(y); break
