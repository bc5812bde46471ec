#!/bin/sh
# supplement.sh: write a dataset supplement (plots/data/extra/) from the records a device script
# measured, without retyping a number: the rows of one lab (and, if given, only some variants) of
# one run, with that run's own metadata lines, copied byte for byte.
#
#   sh plots/supplement.sh [--tag TAG] --lab NN [--variants V1,V2,...] IN.csv OUT.csv
#   sh plots/supplement.sh --all [--check]     every supplement listed in plots/data/extra/SOURCES
#
# IN is a records file (CONTRACTS.md section 4), or with --tag a file whose lines each start with a
# run tag, "TAG,"; several runs, each with its metadata, header and rows (tests/gpu/lab07-on-device.sh
# writes its *-speed.csv so). The run must hold exactly one metadata block. --variants keeps only
# the variants named (each must have a row, else exit 2): a device script's sweep builds (the
# reference compiled with other tunables) are not the shipped kernels and stay out. Two keys are
# added to the metadata (CONTRACTS allows writers to add keys): supplement_of (the source, the run,
# the lab, the variants) and supplement_command (this command, to measure it again).
# OUT is written to OUT.tmp first and renamed once complete.
#
# --all reads plots/data/extra/SOURCES (one supplement a line: OUT|IN|TAG|LAB|VARIANTS, paths from
# the kit's top folder, TAG empty for a plain records file) and writes each; with --check it writes
# them to a temporary folder and exits 1 if a shipped supplement differs (tests/plots runs this).
# Exit codes: 0 ok, 1 --check found a difference, 2 bad usage or input (the message names the fix).
set -u
here=$(cd "$(dirname "$0")" && pwd) || exit 2
TL_ROOT=${TL_ROOT:-$(dirname "$here")}
HEADER="kind,lab,variant,m,k,n,tile,regs,smem_bytes,occ_calc,occ_api,status,reps,median_ms,min_ms,max_ms,gflops,gbps,traffic,dram_bytes,l2_bytes,l1_bytes,shared_bytes,limit"

die() { printf 'supplement: %s\n' "$*" >&2; exit 2; }
usage() {
    sed -n '2,/^set -u/p' "$0" | sed '$d; s/^# \{0,1\}//'
}

# extract TAG LAB VARIANTS IN OUT CMD: the one supplement
extract() {
    tag=$1 lab=$2 variants=$3 in=$4 outf=$5 cmd=$6
    { [ -f "$in" ] && [ -r "$in" ]; } || die "cannot read '$in' (a records file, or a device script's tagged *-speed.csv)"
    case $lab in [0-9][0-9]) ;; *) die "--lab '$lab': give a lab number of two digits, e.g. 07" ;; esac
    case $variants in *[!A-Za-z0-9_,]*) die "--variants '$variants': variant names separated by commas, no spaces" ;; esac
    tmp=$outf.tmp
    # awk: take the run (strip "TAG," when tagged), check it, print metadata + keys + header + rows
    awk -F, -v tag="$tag" -v lab="$lab" -v want="$variants" -v src="$in" -v cmd="$cmd" -v header="$HEADER" '
        BEGIN { nv = split(want, wl, ","); for (i = 1; i <= nv; i++) keep[wl[i]] = 1 }
        {
            line = $0
            if (tag != "") {
                if (index(line, tag ",") != 1) next
                line = substr(line, length(tag) + 2)
            }
            if (line ~ /^# /) {
                if (hdr) { err = "holds a second metadata block after its rows: pass one run (--tag TAG)"; exit 2 }
                if (line ~ /^# tilelab_records: /) nblocks++
                meta[++nm] = line
                next
            }
            if (!hdr) {
                if (line != header && nm == 0 && tag == "") { err = "line " NR ": neither metadata nor the records header; a device script\047s tagged file? pass --tag TAG (what each line starts with)"; exit 2 }
                if (line != header) { err = "line " NR ": not the records header (CONTRACTS.md section 4; format version 3)"; exit 2 }
                hdr = 1
                next
            }
            n = split(line, f, ",")
            if (n != 24) { err = "line " NR ": " n " fields, not 24"; exit 2 }
            if (f[2] != lab) next
            if (nv && !(f[3] in keep)) next
            rows[++nr] = line
            seen[f[3]] = 1
        }
        END {
            if (err != "") { print src ": " err > "/dev/stderr"; exit 2 }
            if (nblocks != 1) {
                print src ": " (tag != "" ? "run \"" tag "\"" : "the file") " holds " nblocks + 0 " metadata blocks, not 1" \
                    (tag == "" ? " (a tagged file? pass --tag TAG)" : " (is the tag right? the tag is what each line starts with)") > "/dev/stderr"
                exit 2
            }
            if (!hdr) { print src ": no records header after the metadata" > "/dev/stderr"; exit 2 }
            for (i = 1; i <= nv; i++)
                if (!(wl[i] in seen)) { print src ": no lab " lab " row of variant \"" wl[i] "\" in " (tag != "" ? "run \"" tag "\"" : "the file") "; drop it from --variants or pick the run that measured it" > "/dev/stderr"; exit 2 }
            if (nr == 0) { print src ": no row of lab " lab (tag != "" ? " in run \"" tag "\"" : "") > "/dev/stderr"; exit 2 }
            for (i = 1; i <= nm; i++) print meta[i]
            print "# supplement_of: " src (tag != "" ? " (run " tag ")" : "") ", lab " lab (nv ? ", variants " want : "")
            print "# supplement_command: " cmd
            print header
            for (i = 1; i <= nr; i++) print rows[i]
        }' "$in" > "$tmp" || { rm -f "$tmp"; exit 2; }
    mv -f "$tmp" "$outf" || die "cannot rename '$tmp' to '$outf'"
}

command_of() {   # TAG LAB VARIANTS IN OUT: the command line that writes OUT, as the metadata records it
    printf 'sh plots/supplement.sh%s --lab %s%s %s %s' "${1:+ --tag $1}" "$2" "${3:+ --variants $3}" "$4" "$5"
}

if [ "${1:-}" = "--all" ]; then
    check=0
    [ "${2:-}" = "--check" ] && check=1
    sources=$TL_ROOT/plots/data/extra/SOURCES
    [ -r "$sources" ] || die "cannot read $sources"
    cd "$TL_ROOT" || exit 2
    work=$(mktemp -d "${TMPDIR:-/tmp}/tl-supplement.XXXXXX") || exit 2
    trap 'rm -rf "$work"' EXIT
    status=0 count=0
    while IFS='|' read -r out in tag lab variants; do
        case $out in ''|'#'*) continue ;; esac
        target=$out
        [ $check -eq 1 ] && target=$work/$(basename "$out")
        extract "$tag" "$lab" "$variants" "$in" "$target" "$(command_of "$tag" "$lab" "$variants" "$in" "$out")"
        count=$((count + 1))
        if [ $check -eq 1 ]; then
            if ! cmp -s "$target" "$out"; then
                echo "supplement: $out differs from what its source gives (run: sh plots/supplement.sh --all):"
                diff "$out" "$target" | head -n 10
                status=1
            fi
        else
            echo "supplement: wrote $out"
        fi
    done < "$sources"
    [ $count -gt 0 ] || die "$sources lists no supplement"
    [ $status -eq 0 ] && [ $check -eq 1 ] && echo "supplement: $count supplements match their sources"
    exit $status
fi

tag="" lab="" variants=""
while [ $# -gt 0 ]; do
    case $1 in
        -h|--help) usage; exit 0 ;;
        --tag) [ $# -ge 2 ] || die "--tag needs a value"; tag=$2; shift 2 ;;
        --lab) [ $# -ge 2 ] || die "--lab needs a value"; lab=$2; shift 2 ;;
        --variants) [ $# -ge 2 ] || die "--variants needs a value"; variants=$2; shift 2 ;;
        -*) die "unknown option '$1' (try --help)" ;;
        *) break ;;
    esac
done
[ $# -eq 2 ] || die "give IN.csv and OUT.csv (try --help)"
[ -n "$lab" ] || die "give --lab NN (the lab whose rows the supplement holds)"
case $tag in *[!A-Za-z0-9_-]*) die "--tag '$tag': letters, digits, '_' and '-' only" ;; esac
extract "$tag" "$lab" "$variants" "$1" "$2" "$(command_of "$tag" "$lab" "$variants" "$1" "$2")"
echo "supplement: wrote $2"
