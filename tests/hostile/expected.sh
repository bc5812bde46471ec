# shellcheck shell=sh
# tests/hostile/expected.sh: sourced (sh, bash): the grade tests/hostile/expected.txt gives a file
# at a place. Used by grader/selftest.sh and tests/gpu/hostile-on-device.sh; the C tests read the
# file through grader_test_util.c's tg_expected_grade (the same rule).
#
#   hostile_expected FILE LAB NAME PLACE   prints full or less; nothing (and status 1) when the
#                                          file has no row for LAB NAME (then it must score less)
# PLACE: emulated, gpu (a GPU whose counters ncu reads for every submission: TL_GRADE_NCU=1), or any
# other word (a GPU graded by the default policy, whose counting twin counts the work, or without
# ncu): the row's PLACE:WORD for that place, else its bare word.
hostile_expected() {
    awk -v lab="$2" -v name="$3" -v place="$4" '
        $1 == lab && $2 == name {
            n = split($3, part, ",")
            word = ""; here = ""
            for (i = 1; i <= n; ++i) {
                if (part[i] ~ /:/) { split(part[i], kv, ":"); if (kv[1] == place) here = kv[2] }
                else word = part[i]
            }
            if (here != "") word = here
            print word; found = 1; exit
        }
        END { exit found ? 0 : 1 }' "$1"
}

# hostile_place TL_GRADE_ARGS: the place a run on this machine grades at: emulated where the
# arguments say --emulate or there is no NVIDIA GPU, gpu where ncu reads the counters of every
# submission (TL_GRADE_NCU=1 in the environment, and an ncu), else gpu-no-counters (the grader's
# default on a GPU, or no ncu: the counting build counts the work, the bare word applies).
hostile_place() {
    case " $1 " in *" --emulate "*) echo emulated; return ;; esac
    if ! ls /dev/nvidia0 >/dev/null 2>&1; then echo emulated; return; fi
    if [ "${TL_GRADE_NCU:-}" = 1 ] && { command -v ncu >/dev/null 2>&1 || [ -x /usr/local/cuda/bin/ncu ]; }; then
        echo gpu
    else
        echo gpu-no-counters
    fi
}
