#!/usr/bin/env python3
"""serve-client.py: a lab program's --serve channel driven as the grader drives it (CONTRACTS.md
section 2), for the device diagnostics (tests/gpu/ncu-session-diag.sh, window-diag.sh): the program
(or ncu and the program, the command after --) is started with fds 3 and 4 as pipes, sent one case
per VARIANT at M x K x N with seeded inputs (untimed; --timed: timed, as a speed test's last
request), the list --repeat R times, each answer read whole and checked against numpy's product
when numpy is there (else only its shape), then `quit`. Prints one line: the wall seconds of the
whole, of each request, and of the end after `quit`; with --split also a line per request: the
milliseconds to send it (until the inputs' last bytes were in the pipe), then to its answer's first
line (the program's work: buffers, copies, the runs), then to the answer's last byte. --same: every
request after the first says "same" and sends no matrices (the program keeps its last inputs, as a
speed test's window asks: CONTRACTS.md section 2). Exit 0 every answer ok, 1 not, 2 bad usage.

Usage: serve-client.py --size M,K,N --variants tiled16,tiled32 [--check] [--timed] [--repeat R]
       [--split] [--same] -- COMMAND... --serve
"""
import fcntl
import os
import struct
import subprocess
import sys
import tempfile
import time

HEADER = 32
MAGIC = b"TLMATRIX"


def matrix_file(rows, cols, seed):
    """A tilelab matrix file (common/matfile.c): magic, version 1, type 1 (F32), rows, cols, floats."""
    import random
    rnd = random.Random(seed)
    n = rows * cols
    try:
        import numpy as np
        data = np.random.default_rng(seed).uniform(-1, 1, n).astype("<f4")
        body = data.tobytes()
    except ImportError:   # (a block of 4096 seeded values repeated: quick at 2048^2, and not checked)
        data = None
        block = struct.pack("<4096f", *(rnd.uniform(-1, 1) for _ in range(4096)))
        body = (block * (n // 4096 + 1))[:4 * n]
    return MAGIC + struct.pack("<IIQQ", 1, 1, rows, cols) + body, data


def read_exact(fd, n):
    out = bytearray()
    while len(out) < n:
        b = os.read(fd, min(1 << 20, n - len(out)))
        if not b:
            break
        out += b
    return bytes(out)


def read_line(fd):
    out = bytearray()
    while not out.endswith(b"\n"):
        b = os.read(fd, 1)
        if not b:
            break
        out += b
    return out.decode("utf-8", "replace")


def main(argv):
    if "--" not in argv:
        print("usage: serve-client.py --size M,K,N --variants A,B [--check] -- COMMAND...", file=sys.stderr)
        return 2
    opts, cmd = argv[:argv.index("--")], argv[argv.index("--") + 1:]
    size, variants, check = None, [], "--check" in opts
    timed, split, repeat, same = "--timed" in opts, "--split" in opts, 1, "--same" in opts
    for i, o in enumerate(opts):
        if o == "--size" and i + 1 < len(opts):
            size = [int(x) for x in opts[i + 1].split(",")]
        if o == "--variants" and i + 1 < len(opts):
            variants = opts[i + 1].split(",")
        if o == "--repeat" and i + 1 < len(opts):
            repeat = int(opts[i + 1]) if opts[i + 1].isdigit() and int(opts[i + 1]) > 0 else 0
    if repeat < 1:
        print("serve-client.py: --repeat needs a count of 1 or more", file=sys.stderr)
        return 2
    if not size or len(size) != 3 or not variants or not cmd:
        print("serve-client.py: give --size M,K,N, --variants and the command after --", file=sys.stderr)
        return 2
    m, k, n = size
    Mf, Md = matrix_file(m, k, 1)
    Nf, Nd = matrix_file(k, n, 2)
    # fds 3 (requests, the program reads) and 4 (answers, the program writes), as the grader passes them
    req_r, req_w = os.pipe()
    ans_r, ans_w = os.pipe()

    def fds_3_and_4():
        a = fcntl.fcntl(req_r, fcntl.F_DUPFD, 10)   # (out of the way of 3 and 4 first)
        b = fcntl.fcntl(ans_w, fcntl.F_DUPFD, 10)
        os.dup2(a, 3)
        os.dup2(b, 4)

    t0 = time.time()
    errf = tempfile.TemporaryFile()   # (not a pipe: a chatty program cannot block on it)
    # (close_fds off: the pipes are not inheritable (PEP 446), the dup2s onto 3 and 4 are)
    p = subprocess.Popen(cmd, close_fds=False, preexec_fn=fds_3_and_4, stdout=subprocess.DEVNULL, stderr=errf)
    os.close(req_r)
    os.close(ans_w)
    ok, times, parts = True, [], []
    for i, v in enumerate(variants * repeat):
        t = time.time()
        again = same and i > 0
        try:
            os.write(req_w, ("case %s %d %d %d %d%s\n" % (v, m, k, n, 1 if timed else 0, " same" if again else "")).encode())
            if not again:
                os.write(req_w, Mf)
                os.write(req_w, Nf)
        except OSError as e:
            print("%s: the program does not read its requests (%s)" % (v, e))
            ok = False
            break
        t_sent = time.time()
        line = read_line(ans_r)
        t_line = time.time()
        if not line.startswith("ok"):
            print("%s: %s" % (v, line.strip()[:300]))
            ok = False
            times.append(time.time() - t)
            break
        P = read_exact(ans_r, HEADER + m * n * 4)
        times.append(time.time() - t)
        parts.append((v, 1000 * (t_sent - t), 1000 * (t_line - t_sent), 1000 * (time.time() - t_line),
                      line.split()[1] if len(line.split()) > 1 else "-"))
        if len(P) != HEADER + m * n * 4 or P[:8] != MAGIC or struct.unpack("<QQ", P[16:32]) != (m, n):
            print("%s: answer cut short or not %dx%d" % (v, m, n))
            ok = False
            break
        if check and Md is not None:
            import numpy as np
            got = np.frombuffer(P[HEADER:], dtype="<f4").reshape(m, n)
            want = Md.reshape(m, k).astype("f8") @ Nd.reshape(k, n).astype("f8")
            err = float(np.max(np.abs(got - want)))
            if not err < 1e-3 * k:
                print("%s: wrong product (largest error %.3g)" % (v, err))
                ok = False
    t_end = time.time()
    try:
        os.write(req_w, b"quit\n")
    except OSError:
        pass
    os.close(req_w)
    try:
        p.wait(timeout=60)
    except subprocess.TimeoutExpired:
        p.kill()
        p.wait()
        ok = False
    os.close(ans_r)
    errf.seek(0)
    err = errf.read()
    for i, (v, a, b, c, med) in enumerate(parts if split else []):
        print("request %d %s %s%s %dx%dx%d: send %.1f ms, answer line after %.1f ms, answer's %d bytes %.1f ms; "
              "reported median %s ms" % (i + 1, v, "timed" if timed else "untimed", " same" if same and i else "", m, k, n, a, b,
                                         HEADER + m * n * 4, c, med))
    print("whole %.2f s; requests %s s; end %.2f s; exit %d%s" % (
        time.time() - t0, " ".join("%.2f" % x for x in times), time.time() - t_end, p.returncode,
        "" if ok else "; FAILED: " + err.decode("utf-8", "replace").strip().replace("\n", " / ")[-300:]))
    return 0 if ok and p.returncode == 0 else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
