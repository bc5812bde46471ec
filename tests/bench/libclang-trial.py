#!/usr/bin/env python3
# tests/bench/libclang-trial.py: issue 22 item 3's libclang trial. What libclang (clang 14, Debian's
# libclang-dev) locates in every .cu of the tree (kernels, __shared__ declarations, launches,
# __syncthreads() calls: libclang-locate.c) against what the emulator's rewrite found (its stored
# outputs, tests/emu/golden; barriers: the source's __syncthreads( outside comments and literals).
#   python3 tests/bench/libclang-trial.py [KIT_ROOT [FILE.cu...]]   (every .cu of the tree, or the files
#       named; two parses at once, ~20 min for the tree on the 2-core machine under load; exit 77
#       without libclang)
# Prints the totals, then per kind the files where the two differ. Results and the decision:
# common/emu/README.md, "Why not libclang". Not part of the build: nothing of the kit links libclang.
import collections, glob, os, re, shutil, subprocess, sys, tempfile, time
from concurrent.futures import ThreadPoolExecutor
here = os.path.dirname(os.path.abspath(__file__))
root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, '..', '..')
os.chdir(root)
llvm = '/usr/lib/llvm-14'
if not os.path.exists(llvm + '/include/clang-c/Index.h'):
    print('SKIP: no libclang headers (apt-get install --no-install-recommends libclang-dev)', file=sys.stderr); sys.exit(77)
tmp = tempfile.mkdtemp(prefix='tl-libclang-')
locate = os.path.join(tmp, 'locate')
subprocess.run(['cc', '-O1', '-I' + llvm + '/include', os.path.join(here, 'libclang-locate.c'), '-o', locate,
                '-L' + llvm + '/lib', '-lclang', '-Wl,-rpath,' + llvm + '/lib'], check=True)
prelude = os.path.join(here, 'libclang-prelude.h')
files = sys.argv[2:] or sorted(f for f in subprocess.run("find labs solutions tests common -name '*.cu' ! -path 'tests/emu/golden/*'", shell=True, capture_output=True, text=True).stdout.split())
def incs(f):
    d = os.path.dirname(f); m = re.search(r'/(0[0-9])[-/]', '/' + f)
    inc = ['-I' + d, '-Icommon', '-Ilabs/02-naive-kernel']
    if m:
        inc += ['-I' + l for l in glob.glob('labs/%s-*' % m.group(1))]
    return inc
def strip(src):   # comments, strings and char literals out (lines kept)
    return re.sub(r'//[^\n]*|/\*.*?\*/|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'', lambda m: re.sub(r'[^\n]', ' ', m.group(0)), src, flags=re.S)
def rewrite_facts(f):
    g = 'tests/emu/golden/' + f + '.emu.cpp'
    if os.path.exists(g + '.err') and 'exit' in open(g + '.err').read(): return None
    o = open(g).read()
    K = collections.Counter(re.findall(r'^// (\w+): (?:region form|fibers)', o, re.M))
    S = collections.Counter(re.findall(r'static const tl_emu::Site (\w+)_tl_site_', o) + re.findall(r'tl_emu::GShared<.*?> (\w+)\{\{"', o))
    L = collections.Counter(re.findall(r'tl_emu_launch\(.*?, "([^"]*)", __FILE__', o))
    src = strip(open(f, errors='replace').read())
    B = collections.Counter(i + 1 for i, l in enumerate(src.split('\n')) for _ in re.findall(r'\b__syncthreads\s*\(', l))
    return dict(K=K, S=S, L=L, B=B)
def clang_facts(f):
    args = ['-x', 'cuda', '-nocudainc', '-nocudalib', '--cuda-host-only', '-std=c++17', '-Icommon/emu/include', '-include', 'tl_emu.h',
            '-include', prelude, '-DTILE_WIDTH=16', '-Wno-unknown-cuda-version', '-w'] + incs(f)
    t = time.time()
    try:   # a student's file names what clang opens: tests/hostile/03/include_own_pipe.cu includes /dev/stdout
        r = subprocess.run([locate, f] + args, capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=120)
    except subprocess.TimeoutExpired:
        r = subprocess.CompletedProcess([], 124, '', 'no answer in 120 s')
    dt = time.time() - t
    F = dict(K=collections.Counter(), S=collections.Counter(), L=collections.Counter(), B=collections.Counter(), E=None, err=r.stderr, dt=dt)
    for l in r.stdout.split('\n'):
        p = l.split(' ', 2)
        if p[0] == 'E': F['E'] = int(p[1])
        elif p[0] in 'KSL' and len(p) == 3 and p[0]: F[p[0]][p[2]] += 1
        elif p[0] == 'B': F['B'][int(p[1])] += 1
    return F
with ThreadPoolExecutor(2) as ex:
    C = dict(zip(files, ex.map(clang_facts, files)))
tot = collections.Counter(); bad = collections.defaultdict(list)
for f in files:
    R = rewrite_facts(f); F = C[f]
    tot['files'] += 1
    if F['E'] is None: tot['parse failed'] += 1; bad['parse'].append(f); continue
    if F['E'] == 0: tot['no error'] += 1
    else: tot['with errors'] += 1; bad['errors'].append('%s: %d errors, first: %s' % (f, F['E'], F['err'].split('\n')[0][:200]))
    if R is None: tot['rewrite refused'] += 1; continue
    for k in 'KSLB':
        tot[k + ' rewrite'] += sum(R[k].values()); tot[k + ' clang'] += sum(F[k].values())
        if R[k] == F[k]: tot[k + ' same'] += 1
        else:
            tot[k + ' differ'] += 1
            bad[k].append('%s: rewrite-only %s clang-only %s%s' % (f, dict(R[k] - F[k]), dict(F[k] - R[k]), ' (E=%d)' % F['E'] if F['E'] else ''))
print(dict(tot))
print('clang time per file: mean %.2f s, max %.2f s (wall, 2 at once)' % (sum(C[f]['dt'] for f in files) / len(files), max(C[f]['dt'] for f in files)))
shutil.rmtree(tmp)
for k, L in bad.items():
    print('== %s (%d)' % (k, len(L)))
    for l in L: print('  ' + l)
