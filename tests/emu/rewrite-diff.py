#!/usr/bin/env python3
# tests/emu/rewrite-diff.py: two builds of the emulator's rewrite (common/emu/tl-emu-rewrite) compared on
# every .cu of the tree and on mutated copies of each, for a change of the front end that must change
# no output (the golden tests cover the tree's files only; a student's file is any text):
#   python3 tests/emu/rewrite-diff.py OLD_REWRITE NEW_REWRITE [PER_KIND [SEED]]
# OLD_REWRITE: e.g. main's build/common/emu/tl-emu-rewrite copied aside before the change. Each file goes
# through both as it is (also --fibers) and PER_KIND times (default 2) per kind of mutation: a comment,
# a newline or a continuation put in place of a blank, a character deleted, duplicated or a NUL
# inserted, the file cut short (1-3 mutations each). Output, stderr and exit status must agree; every
# case that differs is kept under a temporary folder (in.cu, old/new .cpp and .err), named at the
# end. Exit 0 when none differ, 1 otherwise. Not a meson test: it needs the old program.
import collections, glob, os, random, subprocess, sys, tempfile
if len(sys.argv) < 3:
    print("usage: rewrite-diff.py OLD_REWRITE NEW_REWRITE [PER_KIND [SEED]]", file=sys.stderr)
    sys.exit(2)
old, new = sys.argv[1], sys.argv[2]
per = int(sys.argv[3]) if len(sys.argv) > 3 else 2
random.seed(int(sys.argv[4]) if len(sys.argv) > 4 else 1)
root = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..')
files = sorted(f for f in glob.glob(root + '/**/*.cu', recursive=True) if '/tests/emu/golden/' not in f)
tmp = tempfile.mkdtemp(prefix='tl-rewrite-diff-')
def run(exe, src, args):
    inp, out = os.path.join(tmp, 'in.cu'), os.path.join(tmp, 'out.cpp')
    open(inp, 'wb').write(src)
    if os.path.exists(out): os.remove(out)
    r = subprocess.run([exe] + args + [inp, out], capture_output=True)
    return r.returncode, r.stderr, open(out, 'rb').read() if os.path.exists(out) else b''
def at(s, pred):
    ps = [i for i, c in enumerate(s) if pred(c)]
    return random.choice(ps) if ps else None
def blank_to(w):
    return lambda s: s if at(s, lambda c: c == 32) is None else (lambda i: s[:i] + w + s[i + 1:])(at(s, lambda c: c == 32))
kinds = {
    'comment': blank_to(b' /* c */ '), 'newline': blank_to(b'\n'), 'continuation': blank_to(b' \\\n'),
    'cut': lambda s: s[:random.randrange(len(s))] if s else s,
    'delete': lambda s: (lambda i: s[:i] + s[i + 1:])(random.randrange(len(s))) if s else s,
    'duplicate': lambda s: (lambda i, j: s[:j] + s[i:i + 1] + s[j:])(random.randrange(len(s)), random.randrange(len(s))) if s else s,
    'nul': lambda s: (lambda i: s[:i] + b'\0' + s[i:])(random.randrange(len(s))) if s else s,
}
count, differ = collections.Counter(), []
for f in files:
    src = open(f, 'rb').read()
    cases = [('as is', src, []), ('as is', src, ['--fibers'])]
    for k, fn in kinds.items():
        for n in range(per):
            x = src
            for _ in range(1 + n % 3): x = fn(x)
            cases.append((k, x, []))
    for k, x, args in cases:
        count[k] += 1
        a, b = run(old, x, args), run(new, x, args)
        if a != b:
            d = os.path.join(tmp, 'differ-%04d' % len(differ)); os.makedirs(d)
            open(d + '/in.cu', 'wb').write(x)
            open(d + '/what', 'w').write('%s of %s %s\n' % (k, os.path.relpath(f, root), ' '.join(args)))
            for name, r in (('old', a), ('new', b)):
                open(d + '/' + name + '.cpp', 'wb').write(r[2])
                open(d + '/' + name + '.err', 'wb').write(r[1] + b'exit %d\n' % r[0])
            differ.append('%s: %s of %s' % (d, k, os.path.relpath(f, root)))
os.remove(os.path.join(tmp, 'in.cu'))
print('cases: ' + ', '.join('%s %d' % kv for kv in count.items()) + '; %d differ' % len(differ))
for l in differ: print('  ' + l)
if not differ: os.system('rm -rf ' + tmp)
sys.exit(1 if differ else 0)
