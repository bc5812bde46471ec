#!/usr/bin/env python3
"""tests/wrong/bugdiff.py: every known-wrong file differs from its lab's reference solution only
where it says so. A known-wrong file is a whole copy of the solution (tests/wrong/README.md); this
keeps the copies honest, so that an API change of a solution shows up here, file by file.

Which files: every file in tests/wrong/NN/ for each lab NN of the lab table (`tl-lab list`), listed
in manifest.tsv or not, and every row of manifest.tsv (a row whose file is missing fails). Its
solution: solutions/DIR/STUDENT_FILE, the lab's student file with the same extension (`tl-lab dir`,
`tl-lab files`); in a lab of several student files (08) STEM-BUG.cu is a copy of STEM.cu.

The rule, on the hunks of `diff -U0 SOLUTION WRONG` (a hunk: a run of consecutive changed lines,
the solution's removed, the wrong file's added). A hunk is marked when
  1. it is the file's leading comment: it starts at line 1 and an added line says "known wrong"; or
  2. one of its added lines holds BUG (`/* BUG: ... */`, `// BUG: ...`; a trailing comment moves no
     line, and the diagnostics cite line numbers); or
  3. it only removes lines (the mistake is a deletion): the wrong file's line just before or just
     after the place of the removed lines holds BUG.
Any other hunk fails, named with its first lines: a change without its own mark (a line two lines
away from a BUG no longer covers it), or a copy that drifted from its solution.

The same hunk rule, with BUG or STYLE marks, holds the style and corpus files that copy another file
(tests/copies.py, tests/copies.tsv).

Usage: bugdiff.py SOURCE_ROOT TL_LAB   (meson test 'known-wrong files differ from the solution only at BUG')
Exit:  0 all as marked, 1 an unmarked change (each named, with the hunk), 2 bad usage.
"""
import os
import re
import subprocess
import sys


def leading_comment_end(lines):
    """The last line (1-based) of the comment a file opens with (0: it opens with none)."""
    if not lines or not lines[0].lstrip().startswith('/*'):
        return 0
    for i, l in enumerate(lines):
        if '*/' in l:
            return i + 1
    return 0


def unmarked_hunks(sol, wrong, marks=('BUG',), leading=None):
    """The hunks of diff -U0 sol wrong that the rule above does not accept: (start, lines). marks: the
    words that mark a hunk (rules 2 and 3); leading: the rule-1 test of the leading comment's hunk (default:
    an added line says "known wrong"), given the hunk's added lines, their first line number and the file."""
    with open(wrong, encoding='utf-8') as f:
        wl = f.read().split('\n')
    if leading is None:
        def leading(added, start, wl):
            return any(re.search(r'known[- ]wrong', l, re.I) for l in added)
    diff = subprocess.run(['diff', '-U0', sol, wrong], capture_output=True, text=True).stdout
    bad = []
    for hunk in re.split(r'\n(?=@@)', diff)[1:]:
        lines = hunk.split('\n')
        m = re.match(r'@@ -\d+(?:,\d+)? \+(\d+)(?:,(\d+))? @@', lines[0])
        start, count = int(m.group(1)), int(m.group(2) if m.group(2) is not None else 1)
        added = [l[1:] for l in lines[1:] if l.startswith('+')]
        if start <= 1 and leading(added, start, wl):
            continue                                   # 1. the leading comment
        if any(w in l for l in added for w in marks):
            continue                                   # 2. a mark on a changed line
        if count == 0:                                 # 3. a deletion after line `start`: its neighbours
            if any(w in wl[i - 1] for i in (start, start + 1) if 1 <= i <= len(wl) for w in marks):
                continue
        bad.append((start, lines))
    return bad


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

    wrong_dir = os.path.join(root, 'tests/wrong')
    files, fails = set(), 0
    for lab in ask('list').split('\n'):                # every lab's known-wrong set, listed or not
        d = os.path.join(wrong_dir, lab)
        if os.path.isdir(d):
            files |= {f'{lab}/{n}' for n in os.listdir(d) if os.path.isfile(os.path.join(d, n))}
    with open(os.path.join(wrong_dir, 'manifest.tsv'), encoding='utf-8') as manifest:
        for row in manifest:
            if not row.strip() or row.startswith('#'):
                continue
            file = row.split('\t')[0]
            if not os.path.isfile(os.path.join(wrong_dir, file)):
                print(f'FAIL: tests/wrong/manifest.tsv lists {file}, which is not there')
                fails += 1
            else:
                files.add(file)
    for file in sorted(files):
        lab = file.split('/')[0]
        ext = os.path.splitext(file)[1]
        student = [f for f in ask('files', lab).split('\n') if f.endswith(ext)]
        if not student:
            print(f'FAIL: {file}: lab {lab} has no student file ending in {ext}')
            fails += 1
            continue
        named = [f for f in student if os.path.basename(file).startswith(os.path.splitext(f)[0] + '-')]
        if named:
            student = sorted(named, key=len, reverse=True)
        sol = os.path.join(root, 'solutions', ask('dir', lab), student[0])
        for start, lines in unmarked_hunks(sol, os.path.join(wrong_dir, file)):
            print(f'FAIL: tests/wrong/{file} differs from {os.path.relpath(sol, root)} at line {start} without '
                  f'a BUG mark on a changed line (or, for a deletion, on the line before or after it):')
            print('\n'.join('    ' + l for l in lines[:12]))
            fails += 1
    if not files:
        print('FAIL: no known-wrong file found in tests/wrong/NN/')
        return 1
    print(f'bugdiff: {len(files)} known-wrong files, {fails} unmarked change(s)')
    return 1 if fails else 0


if __name__ == '__main__':
    sys.exit(main())
