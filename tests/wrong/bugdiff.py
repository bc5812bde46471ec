#!/usr/bin/env python3
"""tests/wrong/bugdiff.py: every known-wrong file differs from its lab's reference solution only
where it says so. A known-wrong file is a whole copy of the solution (tests/wrong/README.md); this
keeps the copies honest, so that an API change of a solution shows up here, file by file:

- the file's leading comment may replace the solution's and must say "known wrong";
- every other change (a hunk of `diff -U0 SOLUTION WRONG`) must hold, or have within two lines of
  it, a line that says BUG (`/* BUG: ... */`, `// BUG: ...`).

Usage: bugdiff.py SOURCE_ROOT TL_LAB   (meson test 'known-wrong files differ from the solution only at BUG')
Exit:  0 all as marked, 1 a change without a BUG mark (each named, with the hunk), 2 bad usage.
"""
import os
import re
import subprocess
import sys


def main():
    if len(sys.argv) != 3:
        print(__doc__.strip().split('\n\n')[-1], file=sys.stderr)
        return 2
    root, tl_lab = sys.argv[1], sys.argv[2]

    def ask(*args):
        r = subprocess.run([tl_lab, *args], capture_output=True, text=True)
        if r.returncode != 0:
            raise SystemExit(f'bugdiff: {tl_lab} {" ".join(args)} failed: {r.stderr.strip()}')
        return r.stdout.strip()

    rows = fails = 0
    with open(os.path.join(root, 'tests/wrong/manifest.tsv'), encoding='utf-8') as manifest:
        for row in manifest:
            if not row.strip() or row.startswith('#'):
                continue
            file, lab = row.split('\t')[:2]
            ext = os.path.splitext(file)[1]
            student = [f for f in ask('files', lab).split('\n') if f.endswith(ext)]
            if not student:
                print(f'FAIL: {file}: lab {lab} has no student file ending in {ext}')
                fails += 1
                continue
            sol = os.path.join(root, 'solutions', ask('dir', lab), student[0])
            wrong = os.path.join(root, 'tests/wrong', file)
            with open(wrong, encoding='utf-8') as f:
                wl = f.read().split('\n')
            diff = subprocess.run(['diff', '-U0', sol, wrong], capture_output=True, text=True).stdout
            rows += 1
            for hunk in re.split(r'\n(?=@@)', diff)[1:]:
                lines = hunk.split('\n')
                m = re.match(r'@@ -\d+(?:,\d+)? \+(\d+)(?:,(\d+))? @@', lines[0])
                start, count = int(m.group(1)), int(m.group(2) if m.group(2) is not None else 1)
                added = [l[1:] for l in lines[1:] if l.startswith('+')]
                if any('BUG' in l for l in added):
                    continue
                if start <= 1 and any(re.search(r'known[- ]wrong', l, re.I) for l in added):
                    continue
                near = wl[max(0, start - 3):min(len(wl), start - 1 + max(count, 1) + 2)]
                if any('BUG' in l for l in near):
                    continue
                print(f'FAIL: tests/wrong/{file} differs from {os.path.relpath(sol, root)} without a BUG mark '
                      f'near line {start}:')
                print('\n'.join('    ' + l for l in lines[:12]))
                fails += 1
    if rows == 0:
        print('FAIL: tests/wrong/manifest.tsv lists no file')
        return 1
    print(f'bugdiff: {rows} known-wrong files, {fails} unmarked change(s)')
    return 1 if fails else 0


if __name__ == '__main__':
    sys.exit(main())
