#!/usr/bin/env bash
# speed-labs-on-device.sh: every GPU lab's speed test through the grader, on the GPU machine: the
# solution of labs 02, 03, 04, 06, 07 and 08 graded alone (`./kit grade`, sandbox and all), and each
# speed test's first lines and every test below full marks printed. A check that a change to the
# speed test's requests (session 19: "same" inputs, CONTRACTS.md section 2) holds on every lab's
# variant, not only lab 03's (tests/gpu/class-on-device.sh).
# Run:  bash tests/gpu/speed-labs-on-device.sh     (logs in $OUT, else ./gpu-out). Exit 0.
set -u
OUT=${OUT:-./gpu-out}
mkdir -p "$OUT"
for nn in 02 03 04 06 07 08; do
  d=$(ls -d solutions/${nn}-*); mkdir -p /tmp/subs$nn/solution; cp $d/*.cu /tmp/subs$nn/solution/
  t=$SECONDS; timeout 200 ./kit grade --lab $nn --out /tmp/g$nn /tmp/subs$nn/solution > $OUT/grade$nn.log 2>&1; echo "lab $nn: exit $? in $((SECONDS-t)) s"
  python3 - /tmp/g$nn <<'PY'
import glob, json, sys
for f in glob.glob(sys.argv[1] + "/**/results.json", recursive=True):
    js = json.load(open(f))
    print("  score", js.get("score"))
    for t in js.get("tests", []):
        if t.get("name", "").startswith("speed against") or t.get("score", 0) < t.get("max_score", 0):
            print("  %s %s/%s: %s" % (t["name"], t.get("score"), t.get("max_score"), " | ".join((t.get("output") or "").splitlines()[:3])[:400]))
PY
done
