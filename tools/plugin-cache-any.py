"""Issue 45's measurement (BENCHMARKS.md "Outputs typed `any` with a plugin cache"):
the share of the corpus's Terraform outputs typed `any`, each module typed only by the
providers `hcl-types schemas` found for it in a plugin cache.

    hcl-types schemas CORPUS --cache-dir OUT > SCHEMAS.txt   (TF_PLUGIN_CACHE_DIR set)
    python3 tools/plugin-cache-any.py SCHEMAS.txt [HCL_TYPES_BIN] [CORPUS]
"""
import json, os, re, subprocess, sys, collections
BIN = sys.argv[2] if len(sys.argv) > 2 else 'target/release/hcl-types'
root = sys.argv[3] if len(sys.argv) > 3 else '../shared/corpus'
BIN = os.path.abspath(BIN)
mods = {}; cur = None
for line in open(sys.argv[1]):
    if line.startswith('./'):
        cur = line.strip(); mods[cur] = set()
    elif cur and ': typed:' in line:
        m = re.search(r'\(cached (.*)\)$', line.strip()); mods[cur].add(m.group(1))
# every module dir with .tf files (also those with no provider at all)
alldirs = set()
for d, _, files in os.walk(root):
    if '/.' in d: continue
    if any(f.endswith('.tf') for f in files):
        alldirs.add('./' + os.path.relpath(d, root) if d != root else '.')
groups = collections.defaultdict(list)
for d in sorted(alldirs):
    groups[frozenset(mods.get(d, set()))].append(d)
def run(dirs, schemas):
    files = []
    for d in dirs:
        files += [os.path.join(d, f) for f in sorted(os.listdir(os.path.join(root, d))) if f.endswith('.tf')]
    args = [BIN, 'types', '--format', 'json', '--no-config'] + sum((['--schema-cache', s] for s in sorted(schemas)), []) + files
    out = subprocess.run(args, cwd=root, capture_output=True, text=True)
    try: rows = json.loads(out.stdout)
    except Exception: print('bad', out.stderr[:300], file=sys.stderr); return (0, 0)
    outs = [r for r in rows if r['address'].startswith('output.')]
    return sum(1 for r in outs if r['type'] == 'any'), len(outs)
tb = ta = tot = 0
for g, dirs in groups.items():
    b, n = run(dirs, [])
    a, n2 = run(dirs, g) if g else (b, n)
    assert n == n2, (n, n2)
    tb += b; ta += a; tot += n
    print(len(dirs), 'modules', sorted(os.path.basename(x).split('-')[0] for x in g), f'any before {b}, after {a} of {n}')
print(f'TOTAL .tf outputs typed any: before {tb} of {tot} ({100*tb/tot:.0f}%), after {ta} ({100*ta/tot:.0f}%)')
