# measured.awk: read tilelab records (CONTRACTS section 4) and print LaTeX macros for the deck.
#
#   awk -f slides/measured.awk RECORDS... > measured.tex
#
# Every number the deck shows in its text comes from here, never from the deck itself:
#   \tldevice \tldate           GPU name(s) and measurement date(s) from '# device:' / '# date:'
#   \tlmaindevice               the first GPU (the scalar macros below are for it)
#   \tlbw \tlpeak               copy bandwidth (GB/s) and FP32 FMA peak (GFLOP/s), the 'ceiling' rows
#   \tlsize                     the largest size all kernels were measured at (PASS rows)
#   \tlnaive \tltiledA \tltiledB \tlcublas   GFLOP/s of naive, tiled16, tiled32, cublas at that size
#   \tlnaivebound \tltiledAbound \tltiledBbound   the lecture's model on this GPU: BW/4 x reuse
#   \tlnaiveratio               measured naive / its model bound (above 1: caches)
#   \tlcublasratio              cublas / tiled32
#   \tlkeytable                 a tabular of the key figures, one column per GPU
# A figure the records lack prints as "n/a". Only PASS rows count.

function trim(s) { gsub(/^[ \t\r]+|[ \t\r]+$/, "", s); return s }
function tex(s,    r, c, i) {
    r = ""
    for (i = 1; i <= length(s); i++) {
        c = substr(s, i, 1)
        if (c == "\\") c = "\\textbackslash{}"
        else if (c == "~") c = "\\textasciitilde{}"
        else if (c == "^") c = "\\textasciicircum{}"
        else if (index("&%$#_{}", c)) c = "\\" c
        r = r c
    }
    return r
}
# 51234.5 -> 51\,235 ; 37.5 -> 37.5 ; missing -> n/a
function num(x,    s, out) {
    if (x == "" || x < 0) return "n/a"
    if (x < 100) return sprintf("%.1f", x)
    s = sprintf("%.0f", x); out = ""
    while (length(s) > 3) { out = "\\," substr(s, length(s) - 2) out; s = substr(s, 1, length(s) - 3) }
    return s out
}
function ratio(a, b) { return (a == "" || b == "" || b <= 0) ? "n/a" : sprintf("%.1f", a / b) }
function minpos(a, b) { return (a == "") ? "" : (b == "" || a < b) ? a : b }
function sizestr(key,    p) { split(key, p, SUBSEP); return (p[1] == p[2] && p[2] == p[3]) ? p[1] : p[1] "x" p[2] "x" p[3] }

FNR == 1 { dev = "unknown"; date = ""; hdr = 0 }
/^#/ {
    line = substr($0, 2); k = index(line, ":")
    if (k) {
        key = trim(substr(line, 1, k - 1)); mval = trim(substr(line, k + 1))
        if (key == "device") dev = mval
        if (key == "date") date = substr(mval, 1, 10)
        if (key == "device" && !(mval in seen)) { seen[mval] = 1; devs[++ndev] = mval }
        if (key == "date" && date != "unknown") {
            if (!(dev in dmin) || date < dmin[dev]) dmin[dev] = date
            if (!(dev in dmax) || date > dmax[dev]) dmax[dev] = date
        }
    }
    next
}
!hdr {
    n = split($0, h, ","); for (i = 1; i <= n; i++) col[trim(h[i])] = i
    if (!("kind" in col) || !("gflops" in col) || !("status" in col)) {
        printf "measured.awk: %s: header lacks kind/status/gflops columns\n", FILENAME > "/dev/stderr"; bad = 1; exit 2
    }
    hdr = 1; next
}
{
    split($0, f, ",")
    if (trim(f[col["status"]]) != "PASS") next
    kind = f[col["kind"]]; v = f[col["variant"]]; g = f[col["gflops"]]; b = f[col["gbps"]]
    if (kind == "ceiling" && v == "copy_bandwidth" && b != "" && (!((dev, "bw") in best) || b + 0 > best[dev, "bw"])) best[dev, "bw"] = b + 0
    if (kind == "ceiling" && v == "fma_peak" && g != "" && (!((dev, "peak") in best) || g + 0 > best[dev, "peak"])) best[dev, "peak"] = g + 0
    if (kind == "gemm" && (v == "naive" || v == "tiled16" || v == "tiled32" || v == "cublas") && g != "") {
        sz = f[col["m"]] SUBSEP f[col["k"]] SUBSEP f[col["n"]]
        if (!((dev, v, sz) in gf) || g + 0 > gf[dev, v, sz]) gf[dev, v, sz] = g + 0
        has[dev, v] = 1
        sizes[dev, sz] = f[col["m"]] * f[col["k"]] * f[col["n"]]
    }
}
END {
    if (bad) exit 2
    nv = split("naive tiled16 tiled32 cublas", vs, " ")
    for (d = 1; d <= ndev; d++) {
        D = devs[d]
        # the largest size measured for every variant this GPU has; else each variant's own largest
        common = ""; cvol = -1
        for (k in sizes) {
            split(k, p, SUBSEP); if (p[1] != D) continue
            sz = p[2] SUBSEP p[3] SUBSEP p[4]; ok = 1
            for (i = 1; i <= nv; i++) if (((D, vs[i]) in has) && !((D, vs[i], sz) in gf)) ok = 0
            if (ok && sizes[k] > cvol) { cvol = sizes[k]; common = sz }
        }
        for (i = 1; i <= nv; i++) {
            v = vs[i]; at[D, v] = ""; val[D, v] = ""
            if (!((D, v) in has)) continue
            if (common != "") { at[D, v] = common; val[D, v] = gf[D, v, common]; continue }
            bvol = -1
            for (k in gf) {
                split(k, p, SUBSEP); if (p[1] != D || p[2] != v) continue
                sz = p[3] SUBSEP p[4] SUBSEP p[5]
                if (sizes[D, sz] > bvol) { bvol = sizes[D, sz]; at[D, v] = sz; val[D, v] = gf[k] }
            }
        }
        csize[D] = common
    }

    devtxt = ""; datetxt = ""
    for (d = 1; d <= ndev; d++) {
        D = devs[d]
        devtxt = devtxt (d > 1 ? (d == ndev ? " and " : ", ") : "") tex(D)
        dt = !(D in dmin) ? "date unknown" : (dmin[D] == dmax[D]) ? dmin[D] : dmin[D] " to " dmax[D]
        datetxt = datetxt (d > 1 ? "; " : "") dt
    }
    if (ndev == 0) { devtxt = "an unknown GPU"; datetxt = "date unknown" }
    print "% generated by slides/measured.awk from the records; do not edit"
    printf "\\newcommand{\\tldevice}{%s}\n", devtxt
    printf "\\newcommand{\\tldate}{%s}\n", datetxt
    M = devs[1]
    bw = best[M, "bw"]; peak = best[M, "peak"]
    printf "\\newcommand{\\tlmaindevice}{%s}\n", ndev ? tex(M) : "an unknown GPU"
    printf "\\newcommand{\\tlbw}{%s}\n", num(bw)
    printf "\\newcommand{\\tlpeak}{%s}\n", num(peak)
    printf "\\newcommand{\\tlsize}{%s}\n", csize[M] != "" ? sizestr(csize[M]) : "its largest size"
    printf "\\newcommand{\\tlnaive}{%s}\n", num(val[M, "naive"])
    printf "\\newcommand{\\tltiledA}{%s}\n", num(val[M, "tiled16"])
    printf "\\newcommand{\\tltiledB}{%s}\n", num(val[M, "tiled32"])
    printf "\\newcommand{\\tlcublas}{%s}\n", num(val[M, "cublas"])
    nb = (bw == "") ? "" : bw / 4
    printf "\\newcommand{\\tlnaivebound}{%s}\n", num(nb)
    printf "\\newcommand{\\tltiledAbound}{%s}\n", num(nb == "" ? "" : minpos(nb * 16, peak))
    printf "\\newcommand{\\tltiledBbound}{%s}\n", num(nb == "" ? "" : minpos(nb * 32, peak))
    printf "\\newcommand{\\tlnaiveratio}{%s}\n", ratio(val[M, "naive"], nb)
    printf "\\newcommand{\\tlcublasratio}{%s}\n", ratio(val[M, "cublas"], val[M, "tiled32"])

    # the table: one row per figure, one column per GPU
    cols = ndev ? ndev : 1
    printf "\\newcommand{\\tlkeytable}{%%\n\\begin{tabular}{l"
    for (d = 1; d <= cols; d++) printf "r"
    printf "}\n\\toprule\nmeasured"
    for (d = 1; d <= ndev; d++) printf " & \\parbox[b]{3.6cm}{\\raggedleft\\textbf{%s}}", tex(devs[d])
    printf " \\\\\n\\midrule\n"
    printf "copy bandwidth (GB/s)"; for (d = 1; d <= ndev; d++) printf " & %s", num(best[devs[d], "bw"]); print " \\\\"
    printf "FP32 FMA peak (GFLOP/s)"; for (d = 1; d <= ndev; d++) printf " & %s", num(best[devs[d], "peak"]); print " \\\\"
    split("naive (lab 02)|tiled, TILE\\_WIDTH 16 (lab 03)|tiled, TILE\\_WIDTH 32 (lab 03)|cuBLAS SGEMM", names, "|")
    for (i = 1; i <= nv; i++) {
        printf "%s (GFLOP/s)", names[i]
        for (d = 1; d <= ndev; d++) {
            D = devs[d]; v = vs[i]
            s = num(val[D, v])
            if (s != "n/a" && csize[D] == "") s = s " {\\scriptsize(" sizestr(at[D, v]) ")}"
            printf " & %s", s
        }
        print " \\\\"
    }
    printf "\\midrule\nmatrix size $n$ (or $m \\times k \\times n$)"
    for (d = 1; d <= ndev; d++) printf " & %s", csize[devs[d]] != "" ? sizestr(csize[devs[d]]) : "largest each"
    print " \\\\"
    printf "date"; for (d = 1; d <= ndev; d++) printf " & %s", (devs[d] in dmin) ? dmax[devs[d]] : "unknown"; print " \\\\"
    print "\\bottomrule\n\\end{tabular}}"
}
