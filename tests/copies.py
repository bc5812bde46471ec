#!/usr/bin/env python3
"""tests/copies.py: the style and corpus files are small, or marked copies (issue 22 item 4).

A file of tests/styles/NN/ or tests/corpus/ (an honest style the work rule must count, a student's
kernel with its expected verdict) is either small, at most SMALL non-blank lines, or a copy listed
in tests/copies.tsv with the file it copies (the lab's solution, or another corpus file). A listed
copy differs from its base only where it says so, by the known-wrong files' rule
(tests/wrong/bugdiff.py): its leading comment, and hunks with BUG or STYLE on a changed line (or,
for a deletion, on the line before or after it). So a 400-line file is read as its base and a few
marked places, and a change of the base that the copy does not follow fails here, file by file.
A file not listed must not be a copy: it shares less than WHOLE of its non-blank lines (difflib's
matching blocks, in order) with every solution (a solution's change would be its to follow), and,
when large, less than half with every solution and every other large unlisted file. Smaller near
copies of other corpus files may be listed too (04-wrong-leimao-lda.cu, the interior/tail and
double-buffer pairs): then they are held to the rule.

Usage: copies.py SOURCE_ROOT   (meson test 'style and corpus files are small or marked copies')
Exit:  0 as the rule says, 1 a file that is not (each named), 2 bad usage.
"""
import difflib
import glob
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), 'wrong'))
from bugdiff import leading_comment_end, unmarked_hunks  # noqa: E402  (the known-wrong files' rule)

SMALL = 150          # non-blank lines: a larger file is a copy of something, or shares little
SHARED = 0.5         # the part of a large unlisted file's lines it may share with another
WHOLE = 0.92         # ... of any unlisted file's lines with a solution (lab 04's corpus files that are
                     # the solution but for a line: 0.94-0.97; the next unlisted: 0.90)


def code_lines(path):
    with open(path, encoding='utf-8', errors='replace') as f:
        return [l.strip() for l in f if l.strip()]


def shared(a, b):
    """The part of a's non-blank lines that b holds in the same order."""
    sm = difflib.SequenceMatcher(None, a, b, autojunk=False)
    return sum(block.size for block in sm.get_matching_blocks()) / max(len(a), 1)


def in_leading_comment(added, start, lines):
    return start + len(added) - 1 <= leading_comment_end(lines)


def main():
    if len(sys.argv) != 2:
        print(__doc__.strip().split('\n\n')[-1], file=sys.stderr)
        return 2
    root = sys.argv[1]
    files = sorted(os.path.relpath(p, root) for p in glob.glob(os.path.join(root, 'tests/styles/*/*.cu')) +
                   glob.glob(os.path.join(root, 'tests/corpus/*.cu')))
    listed, fails = {}, 0
    table_path = os.path.join(root, 'tests/copies.tsv')
    if not os.path.isfile(table_path):
        print(f'copies: no {table_path}: give the kit\'s top folder (copies.py SOURCE_ROOT)', file=sys.stderr)
        return 2
    with open(table_path, encoding='utf-8') as table:
        for number, row in enumerate(table, 1):
            if not row.strip() or row.startswith('#'):
                continue
            fields = row.rstrip('\n').split('\t')
            if len(fields) != 2:
                print(f'FAIL: tests/copies.tsv:{number}: {len(fields)} field(s); a row is FILE<TAB>THE FILE IT COPIES')
                fails += 1
                continue
            copy, base = fields
            for p in (copy, base):
                if not os.path.isfile(os.path.join(root, p)):
                    print(f'FAIL: tests/copies.tsv names {p}, which is not there')
                    fails += 1
            listed[copy] = base
    for copy, base in sorted(listed.items()):
        if not (os.path.isfile(os.path.join(root, copy)) and os.path.isfile(os.path.join(root, base))):
            continue
        for start, lines in unmarked_hunks(os.path.join(root, base), os.path.join(root, copy), ('BUG', 'STYLE'),
                                           in_leading_comment):
            print(f'FAIL: {copy} differs from {base} at line {start} without a BUG or STYLE mark on a changed '
                  f'line (or, for a deletion, on the line before or after it):')
            print('\n'.join('    ' + l for l in lines[:12]))
            fails += 1
    text = {p: code_lines(os.path.join(root, p)) for p in files}
    large = [p for p in files if len(text[p]) > SMALL and p not in listed]
    sols = sorted(os.path.relpath(p, root) for p in glob.glob(os.path.join(root, 'solutions/*/*.cu')))
    for s in sols:
        text[s] = code_lines(os.path.join(root, s))
    for p in (p for p in files if p not in listed and p not in large):
        for s in sols:
            part = shared(text[p], text[s])
            if part >= WHOLE:
                print(f'FAIL: {p} shares {part:.0%} of its non-blank lines with {s}: a whole copy of it; list it in '
                      f'tests/copies.tsv as a copy of {s} and mark where it differs (BUG or STYLE)')
                fails += 1
    for p in large:
        for other in sols + [q for q in large if q != p]:
            part = shared(text[p], text[other])
            if part >= SHARED:
                print(f'FAIL: {p} ({len(text[p])} non-blank lines) shares {part:.0%} of them with {other}: list it '
                      f'in tests/copies.tsv as a copy of {other} and mark where it differs (BUG or STYLE), or write '
                      f'it as a kernel of its own of at most {SMALL} lines')
                fails += 1
    print(f'copies: {len(files)} style and corpus files, {len(listed)} listed copies, {len(large)} large files of '
          f'their own, {fails} problem(s)')
    return 1 if fails else 0


if __name__ == '__main__':
    sys.exit(main())
