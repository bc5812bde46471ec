#!/usr/bin/env python3
"""cpu-diag-client.py: the CPU one lab program's process tree costs, request by request, for
tests/gpu/cpu-diag.sh (issue 29, session 13). The program (or compute-sanitizer and the program: the
command after --) is started in a cgroup of its own (v2 cpu.stat, else v1 cpuacct) with fds 3 and 4
as pipes, as the grader starts it (CONTRACTS.md section 2), sent REQS one after another, each answer
read whole, then `quit`. The inputs are made before the program starts and outside its cgroup, so
the figures are the program tree's alone (its start, CUDA's context, each request, its end).

Usage: cpu-diag-client.py LABEL REQS -- COMMAND... --serve
       REQS: `-` (none: start and quit) or VARIANT:SIZE[:t],... (t: a timed request)
       cpu-diag-client.py LABEL --plain -- COMMAND...   (any command, e.g. a build step: its CPU alone,
       its output appended to $CLIENT_LOG)
Prints one line: LABEL, CPU seconds (user + sys) in all, the start (to the first answer, less the
request's own part is not separable: see the `quit`-only line), each request's CPU and wall, the end.
Exit 0 every answer ok and the program exited 0 (or 99 under the sanitizer), 1 not, 2 bad usage.
"""
import importlib.util
import os
import subprocess
import sys
import time

here = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("serve_client", os.path.join(here, "serve-client.py"))
sc = importlib.util.module_from_spec(spec)
spec.loader.exec_module(sc)


def make_cgroup():
    for base in ("/sys/fs/cgroup", "/sys/fs/cgroup/cpuacct"):
        d = os.path.join(base, "tl-cpudiag-%d-%d" % (os.getpid(), int(time.time() * 1000) % 100000))
        try:
            os.mkdir(d)
        except OSError:
            continue
        if os.path.exists(os.path.join(d, "cpu.stat")) or os.path.exists(os.path.join(d, "cpuacct.usage")):
            return d
        os.rmdir(d)
    return None


def cg_cpu(d):
    """(user, sys) seconds of the cgroup so far."""
    if d is None:
        return (0.0, 0.0)
    st = os.path.join(d, "cpu.stat")
    kv = dict(l.split() for l in open(st) if len(l.split()) == 2) if os.path.exists(st) else {}
    if "user_usec" in kv:
        return (int(kv["user_usec"]) / 1e6, int(kv.get("system_usec", 0)) / 1e6)
    kv = dict(l.split() for l in open(os.path.join(d, "cpuacct.stat")))
    hz = os.sysconf("SC_CLK_TCK")
    return (int(kv["user"]) / hz, int(kv["system"]) / hz)


def plain(label, cmd):
    """A command (a build step) in a cgroup of its own: one table line, its output to CLIENT_LOG."""
    cg = make_cgroup()

    def child():
        if cg:
            with open(os.path.join(cg, "cgroup.procs"), "w") as f:
                f.write(str(os.getpid()))
    log = open(os.environ.get("CLIENT_LOG", os.devnull), "ab")
    t0 = time.time()
    rc = subprocess.call(cmd, preexec_fn=child, stdout=log, stderr=log)
    wall = time.time() - t0
    time.sleep(0.05)
    u, s_ = cg_cpu(cg)
    if cg:
        try:
            os.rmdir(cg)
        except OSError:
            pass
    print("%-52s %6.2f CPU-s (user %5.2f sys %5.2f) %6.2f s wall rc %d%s" % (
        label, u + s_, u, s_, wall, rc, "" if cg else " (no cgroup: figures 0)"))
    return rc


def main(argv):
    if "--" not in argv or len(argv) < 4:
        print(__doc__, file=sys.stderr)
        return 2
    label, reqs, cmd = argv[0], argv[1], argv[argv.index("--") + 1:]
    if reqs == "--plain":
        return plain(label, cmd)
    todo = []
    if reqs != "-":
        for r in reqs.split(","):
            f = r.split(":")
            todo.append((f[0], int(f[1]), len(f) > 2 and f[2] == "t"))
    mats = {}
    for _, s, _ in todo:
        if s not in mats:
            mats[s] = (sc.matrix_file(s, s, 1)[0], sc.matrix_file(s, s, 2)[0])
    cg = make_cgroup()
    req_r, req_w = os.pipe()
    ans_r, ans_w = os.pipe()

    def child():
        if cg:
            with open(os.path.join(cg, "cgroup.procs"), "w") as f:
                f.write(str(os.getpid()))
        import fcntl
        a = fcntl.fcntl(req_r, fcntl.F_DUPFD, 10)
        b = fcntl.fcntl(ans_w, fcntl.F_DUPFD, 10)
        os.dup2(a, 3)
        os.dup2(b, 4)

    t0 = time.time()
    p = subprocess.Popen(cmd, close_fds=False, preexec_fn=child, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    os.close(req_r)
    os.close(ans_w)
    ok, parts = True, []
    last = cg_cpu(cg)
    for v, s, timed in todo:
        t = time.time()
        try:
            os.write(req_w, ("case %s %d %d %d %d\n" % (v, s, s, s, 1 if timed else 0)).encode())
            os.write(req_w, mats[s][0])
            os.write(req_w, mats[s][1])
        except OSError as e:
            parts.append("%s@%d: write failed (%s)" % (v, s, e))
            ok = False
            break
        line = sc.read_line(ans_r)
        if line.startswith("ok"):
            sc.read_exact(ans_r, sc.HEADER + s * s * 4)
        else:
            ok = False
        now = cg_cpu(cg)
        parts.append("%s@%d%s %.2f CPU-s %.2f s%s" % (v, s, "t" if timed else "", sum(now) - sum(last), time.time() - t,
                                                        "" if line.startswith("ok") else " [" + line.strip()[:120] + "]"))
        last = now
        if not line.startswith("ok"):
            break
    t_end = time.time()
    try:
        os.write(req_w, b"quit\n")
    except OSError:
        pass
    os.close(req_w)
    try:
        _, err = p.communicate(timeout=300)
    except subprocess.TimeoutExpired:
        p.kill()
        _, err = p.communicate()
        ok = False
    time.sleep(0.1)
    end = cg_cpu(cg)
    if cg:
        try:
            os.rmdir(cg)
        except OSError:
            pass
    u, s_ = end
    rc = p.returncode
    print("%-46s %6.2f CPU-s (user %.2f sys %.2f) %6.2f s wall; %s; end %.2f CPU-s %.2f s; exit %d%s" % (
        label, u + s_, u, s_, time.time() - t0, "; ".join(parts) if parts else "no request",
        sum(end) - sum(last), time.time() - t_end, rc, "" if cg else " (no cgroup: figures 0)"))
    lines = err.decode("utf-8", "replace").strip().splitlines()
    if rc not in (0, 99) or not ok:
        for l in lines[-6:]:
            print("    | " + l[:200])
    elif rc == 99:   # the sanitizer's first error and its summary (as the grader reads them: oob.c)
        first = next((l for l in lines if l.startswith("========= ") and not l.startswith("========= COMPUTE")
                      and not l.startswith("=========  ") and "ERROR SUMMARY" not in l), "")
        summ = next((l for l in lines if "ERROR SUMMARY" in l), "")
        print("    | first: %s | %s" % (first[10:170], summ[10:]))
    sys.stdout.flush()
    return 0 if ok and rc in (0, 99) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
