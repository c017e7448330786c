# bench/lib.sh: what bench/compare.sh and bench/multihost.sh share, sourced
# by both: option checks, CPU settling before a run, building the OSU-style
# benchmarks for one library, and the markdown tables that set rdmpi against
# the best of MPICH and Open MPI.
#
# The caller sets, before using the functions that read them:
#   bench_prog   its own name, for messages ("compare.sh")
#   only         the --only list (rdmpi,mpich,openmpi)
#   settle       the --settle seconds
#   stat         the --stat choice: best or median (of the runs, per size)
#   settle_short_after_busy  1: after one wait in vain, take only a short
#                look before the next runs (compare.sh), 0: wait --settle
#                every time (multihost.sh)
#   raw          the directory of the raw outputs, KEY-LIB-RUN.txt
#   bench_list   the benchmarks to build (latency, bw, ...)
#   work         the scratch directory (builds go to work/build/LIB)
# and declares the associative arrays status and note (per library),
# run_failed (per LIB.KEY) and run_unsupported (per LIB.KEY: the first error
# line of a run the library could not do, MPI_ERR_UNSUPPORTED_OPERATION).

# Those are the caller's, and status/note are associative there:
# shellcheck shell=bash disable=SC2154,SC2034,SC2004

bench_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

# die MESSAGE: a usage or setup error.
die() { echo "$bench_prog: $*" >&2; exit 2; }

selected() { case ",$only," in *",$1,"*) return 0 ;; esac; return 1; }

# The one-sided benchmarks: built with bench_rma.c and bench_rma_run.c, run
# with -s and -w.
rma_benches="put_latency get_latency put_bw get_bw acc_latency fop_latency cas_latency"
is_rma() { case " $rma_benches " in *" $1 "*) return 0 ;; esac; return 1; }

# unsupported_line <stderr file> <exit status>: the line in which a
# benchmark said its library lacks a call it needs (bench_rma.c prints it
# and exits 3), or nothing, when the run failed otherwise.
unsupported_line() {
    local line
    line=$(grep -m1 'not supported by this MPI library' "$1" 2>/dev/null)
    if [ -n "$line" ]; then echo "$line"
    elif [ "$2" -eq 3 ]; then echo "exit status 3 (unsupported operation)"
    fi
}

# err_summary <stderr file>: what a failed run said: the benchmark's own
# error line when it printed one (the launchers' closing words follow it),
# and the last lines.
err_summary() {
    local own
    own=$(grep -m1 -E '^osu_[a-z_]+: rank [0-9]+: ' "$1" 2>/dev/null)
    { [ -n "$own" ] && echo "$own; ..."; tail -n 3 "$1"; } | tr '\n' ' '
}

lib_title() { case "$1" in rdmpi) echo rdmpi ;; mpich) echo MPICH ;; openmpi) echo "Open MPI" ;; esac; }

# check_repeat_settle: --repeat and --settle are numbers, --stat is known.
check_repeat_settle() {
    case "$repeat" in ''|*[!0-9]*|0) die "--repeat wants a positive number" ;; esac
    case "$settle" in ''|*[!0-9]*) die "--settle wants seconds" ;; esac
    case "$stat" in best|median) ;; *) die "--stat wants best or median" ;; esac
}

# stat_mode <min|max>: the table mode of a column whose best value is the
# given extreme: that extreme with --stat best, else median.
stat_mode() { if [ "$stat" = median ]; then echo median; else echo "$1"; fi; }

# stat_words: how the tables' values are taken from the runs, for titles.
stat_words() {
    if [ "$stat" = median ]; then echo "median of $repeat runs"; else echo "best of $repeat runs"; fi
}

# default_timeout: --timeout, when not given: 600 s, 120 s with --quick.
default_timeout() {
    if [ -z "$timeout_s" ]; then
        timeout_s=600
        [ "$quick" = 1 ] && timeout_s=120
    fi
    return 0
}

# parse_libs: the libraries of --only into the array libs.
parse_libs() {
    local l
    libs=()
    for l in ${only//,/ }; do
        case "$l" in
        rdmpi|mpich|openmpi) libs+=("$l") ;;
        *) die "unknown library '$l' (rdmpi, mpich, openmpi)" ;;
        esac
    done
}

# --- settling ----------------------------------------------------------------
# cpu_busy: percent of all CPUs busy (not idle/iowait) over the next 0.5 s.
cpu_busy() {
    local a b i total=0 idle
    read -r -a a </proc/stat
    sleep 0.5
    read -r -a b </proc/stat
    for i in 1 2 3 4 5 6 7 8; do total=$(( total + b[i] - a[i] )); done
    idle=$(( b[4] - a[4] + b[5] - a[5] ))
    [ $total -gt 0 ] || { echo 0; return; }
    echo $(( 100 * (total - idle) / total ))
}
# settle_cpus: waits (at most --settle seconds) until other processes leave
# the CPUs mostly idle; counts in busy_starts the runs that had to start
# anyway. With settle_short_after_busy=1, after a wait in vain the next runs
# only take one short look until the CPUs were seen idle again, so a machine
# that stays busy does not cost --settle per run.
busy_starts=0
still_busy=0
settle_cpus() {
    if [ "$settle" -eq 0 ] || [ ! -r /proc/stat ]; then
        return 0
    fi
    local limit=$settle
    [ "$settle_short_after_busy" = 1 ] && [ $still_busy = 1 ] && limit=1
    local deadline=$(( $(date +%s) + limit ))
    while [ "$(cpu_busy)" -gt 15 ]; do
        if [ "$(date +%s)" -ge $deadline ]; then
            busy_starts=$(( busy_starts + 1 ))
            still_busy=1
            return 0
        fi
        sleep 1
    done
    still_busy=0
}

# --- build -------------------------------------------------------------------
# build_benches LIB CC: compiles bench/osu_B.c for every B of bench_list with
# CC into work/build/LIB. On a failure, marks LIB failed with the reason in
# note[LIB] and returns 1.
build_benches() {
    local l=$1 cc=$2 b log srcs
    mkdir -p "$work/build/$l"
    for b in "${bench_list[@]}"; do
        log=$work/build/$l/osu_$b.log
        srcs=("$bench_dir/osu_$b.c" "$bench_dir/bench_util.c")
        is_rma "$b" && srcs+=("$bench_dir/bench_rma.c" "$bench_dir/bench_rma_run.c")
        if ! "$cc" -O2 -Wall -Wextra -o "$work/build/$l/osu_$b" "${srcs[@]}" \
                >"$log" 2>&1; then
            status[$l]=failed
            note[$l]="build of osu_$b.c with $cc failed: $(tail -n 3 "$log" | tr '\n' ' ')"
            return 1
        fi
    done
    return 0
}

# --- tables ------------------------------------------------------------------
# best <key> <lib> <fields> <column> <min|max|median>: "size value" lines,
# the best value of the column over the kept runs, or their median.
best() {
    local files=("$raw/$1-$2-"*.txt)
    [ -e "${files[0]}" ] || return 0
    awk -v mode="$5" -v nf="$3" -v col="$4" '$1 ~ /^[0-9]+$/ && NF == nf {
            x = $col + 0
            if (mode == "median") {
                k = n[$1]++
                all[$1, k] = x
                for (; k > 0 && all[$1, k-1] > x; k--) {   # insertion sort
                    all[$1, k] = all[$1, k-1]; all[$1, k-1] = x
                }
                v[$1] = 1
            } else if (!($1 in v) || (mode == "min" ? x < v[$1] : x > v[$1])) v[$1] = x
        }
        END {
            for (s in v) {
                if (mode == "median") {
                    m = n[s]
                    v[s] = m % 2 ? all[s, (m-1)/2] : (all[s, m/2-1] + all[s, m/2]) / 2
                }
                print s, v[s]
            }
        }' "${files[@]}" | sort -n
}

# paired <key> <fields> <column> <lower|higher> <libs...>: "size ratio
# ahead rounds" lines: over the rounds where rdmpi and another of libs ran,
# the median of rdmpi's value / the best other value of the same round,
# and in how many of those rounds rdmpi was ahead. Rounds run the
# libraries back to back, so a slow spell of the machine, which can move
# every library's values by tens of percent for minutes, cancels out.
paired() {
    local key=$1 nf=$2 col=$3 sense=$4 l f files=()
    shift 4
    for l in "$@"; do
        for f in "$raw/$key-$l-"*.txt; do [ -e "$f" ] && files+=("$f"); done
    done
    [ ${#files[@]} -gt 0 ] || return 0
    # File names are <key>-<lib>-<round>.txt; library names have no "-".
    awk -v pre="$raw/$key-" -v nf="$nf" -v col="$col" -v sense="$sense" '
        FNR == 1 { split(substr(FILENAME, length(pre) + 1), p, "-"); lib = p[1]; r = p[2] + 0 }
        $1 ~ /^[0-9]+$/ && NF == nf { v[lib, r, $1] = $col + 0; rounds[r] = 1; sizes[$1] = 1 }
        END {
            for (s in sizes) {
                n = 0; ahead = 0
                for (r in rounds) {
                    if (!(("rdmpi", r, s) in v)) continue
                    other = ""
                    for (k = 1; k <= 2; k++) {
                        l = k == 1 ? "mpich" : "openmpi"
                        if (!((l, r, s) in v)) continue
                        o = v[l, r, s]
                        if (other == "" || (sense == "lower" ? o < other : o > other)) other = o
                    }
                    if (other == "" || other <= 0) continue
                    x = v["rdmpi", r, s] / other
                    for (k = n++; k > 0 && q[k-1] > x; k--) q[k] = q[k-1]   # insertion sort
                    q[k] = x
                    if (sense == "lower" ? x < 1 : x > 1) ahead++
                }
                if (n) printf "%d %.3f %d %d\n", s, n % 2 ? q[(n-1)/2] : (q[n/2-1] + q[n/2]) / 2, ahead, n
            }
        }' "${files[@]}" | sort -n
}

# lib_version <lib>: the "# library:" line of the lib's first raw output.
lib_version() {
    grep -h -m1 '^# library:' "$raw"/*-"$1"-*.txt 2>/dev/null | head -n 1 |
        sed 's/^# library: //; s/\t/ /g'
}

# table <title> <key> <fields> <column> <min|max|median> <lower|higher>
#       <decimals> <ratio|diff> <width> <last width>:
# one markdown table: a row per size, a column per library (the value, "-"
# where it has none, FAIL where it failed, n/a where it does not support an
# operation the benchmark needs, "-" for all of a library left out) and a
# last column comparing rdmpi with the best of the others, as their ratio or
# (diff) their difference. Columns are width wide, the last one last-width.
table() {
    local title=$1 key=$2 nf=$3 col=$4 mode=$5 sense=$6 decimals=$7 cmp=$8
    local width=$9 last=${10} l na=()
    declare -A col_state
    for l in rdmpi mpich openmpi; do
        if ! selected $l; then col_state[$l]="-"
        elif [ -n "${run_unsupported[$l.$key]:-}" ]; then col_state[$l]=n/a; na+=("$(lib_title $l)")
        elif [ "${status[$l]}" != ok ] || [ -n "${run_failed[$l.$key]:-}" ]; then col_state[$l]=FAIL
        else col_state[$l]=ok
        fi
    done
    echo "### $title"
    echo
    {
        for l in rdmpi mpich openmpi; do
            [ "${col_state[$l]}" = ok ] && best "$key" "$l" "$nf" "$col" "$mode" | sed "s/^/$l /"
        done
    } | awk -v sense="$sense" -v decimals="$decimals" -v cmp="$cmp" -v w="$width" -v lw="$last" \
            -v c_r="${col_state[rdmpi]}" -v c_m="${col_state[mpich]}" -v c_o="${col_state[openmpi]}" '
        { v[$1 "," $2] = $3; sizes[$2] = 1 }
        function fmt(x) { return sprintf("%." decimals "f", x) }
        function cell(lib, s, c) {
            if (c != "ok") return c
            return ((lib "," s) in v) ? fmt(v[lib "," s]) : "-"
        }
        function rule(n,    r) { r = ""; while (n-- > 0) r = r "-"; return r ":" }
        END {
            row = "| %10s | %" w "s | %" w "s | %" w "s | %" lw "s |\n"
            printf row, "size (B)", "rdmpi", "MPICH", "Open MPI",
                cmp == "diff" ? "rdmpi - best other" : "rdmpi / best other"
            printf "|%s|%s|%s|%s|%s|\n", rule(11), rule(w + 1), rule(w + 1), rule(w + 1), rule(lw + 1)
            row = "| %10d | %" w "s | %" w "s | %" w "s | %" lw "s |\n"
            n = 0
            for (s in sizes) order[n++] = s + 0
            for (i = 0; i < n; i++)          # insertion sort, few rows
                for (j = i; j > 0 && order[j-1] > order[j]; j--) {
                    t = order[j]; order[j] = order[j-1]; order[j-1] = t
                }
            for (i = 0; i < n; i++) {
                s = order[i]; ratio = "-"; other = ""
                if (("mpich," s) in v) other = v["mpich," s]
                if (("openmpi," s) in v) {
                    o = v["openmpi," s]
                    if (other == "" || (sense == "lower" ? o < other : o > other)) other = o
                }
                if (("rdmpi," s) in v && other != "") {
                    if (cmp == "diff")
                        ratio = sprintf("%+.1f", v["rdmpi," s] - other)
                    else if (other > 0)
                        ratio = sprintf("%.2f", v["rdmpi," s] / other)
                }
                printf row, s, cell("rdmpi", s, c_r), cell("mpich", s, c_m), cell("openmpi", s, c_o), ratio
            }
            if (n == 0)          # no library has values: one row of states
                printf "| %10s | %" w "s | %" w "s | %" w "s | %" lw "s |\n", "-", c_r, c_m, c_o, "-"
        }'
    echo
    if [ ${#na[@]} -gt 0 ]; then
        local who
        who=$(IFS=,; echo "${na[*]}")
        echo "n/a: ${who//,/, } reported MPI_ERR_UNSUPPORTED_OPERATION for a call this benchmark needs (the first such error is under \"Not supported\" below)."
        echo
    fi
    if [ "$cmp" = diff ]; then
        echo "Difference in percentage points; above 0: rdmpi hides more of the broadcast than the best of the others."
    elif [ "$sense" = lower ]; then
        echo "Ratio below 1: rdmpi is faster than the best of the others."
    else
        echo "Ratio above 1: rdmpi is faster than the best of the others."
    fi
    echo
    # With medians, also the median of the per-round ratios (see paired).
    local others=()
    for l in mpich openmpi; do [ "${col_state[$l]}" = ok ] && others+=("$l"); done
    if [ "$stat" = median ] && [ "$cmp" = ratio ] && [ "${col_state[rdmpi]}" = ok ] &&
        [ ${#others[@]} -gt 0 ]; then
        echo "Median of the per-round ratios, rdmpi / the best other of the same round (rounds rdmpi was ahead):"
        echo
        paired "$key" "$nf" "$col" "$sense" rdmpi "${others[@]}" |
            awk '{ printf "%s%d: %.2f (%d/%d)", (NR > 1 ? "; " : ""), $1, $2, $3, $4 } END { if (NR) print "" }'
        echo
    fi
}

# report_machine: the report's date, host and CPU lines.
report_machine() {
    echo "- date: $(date -u '+%Y-%m-%d %H:%M UTC'); host: $(uname -n), $(uname -r)"
    echo "- CPU: $(awk -F': ' '/model name/ { print $2; exit }' /proc/cpuinfo), $(nproc) cores online"
}

# --- charts --------------------------------------------------------------------
# chart_data <title> <key> <fields> <column> <min|max|median> <lower|higher>:
# a bench/chart.sh data file on stdout: per size the value of each library
# (as the table takes it) and rdmpi's ratio to MPICH and to Open MPI.
chart_data() {
    local title=$1 key=$2 nf=$3 col=$4 mode=$5 sense=$6 l
    echo "# title: $title"
    if [ "$sense" = lower ]; then
        echo "# ylabel: rdmpi / other library (below 1: rdmpi faster)"
    else
        echo "# ylabel: rdmpi / other library (above 1: rdmpi faster)"
    fi
    echo "# kind: sizes"
    echo "# plot: 5 6"
    echo "# $(stat_words) per size; $(date -u '+%Y-%m-%d %H:%M UTC'), $(uname -n)"
    {
        for l in rdmpi mpich openmpi; do
            selected $l && [ "${status[$l]}" = ok ] && [ -z "${run_failed[$l.$key]:-}" ] &&
                best "$key" "$l" "$nf" "$col" "$mode" | sed "s/^/$l /"
        done
    } | awk '
        { v[$1 "," $2] = $3; sizes[$2] = 1 }
        function cell(k) { return (k in v) ? v[k] : "-" }
        function ratio(o) {
            if (!(("rdmpi," s) in v) || !((o "," s) in v) || v[o "," s] <= 0) return "-"
            return sprintf("%.3f", v["rdmpi," s] / v[o "," s])
        }
        END {
            print "size rdmpi MPICH \"Open MPI\" \"rdmpi / MPICH\" \"rdmpi / Open MPI\""
            n = 0
            for (x in sizes) order[n++] = x + 0
            for (i = 0; i < n; i++)
                for (j = i; j > 0 && order[j-1] > order[j]; j--) {
                    t = order[j]; order[j] = order[j-1]; order[j-1] = t
                }
            for (i = 0; i < n; i++) {
                s = order[i]
                print s, cell("rdmpi," s), cell("mpich," s), cell("openmpi," s), ratio("mpich"), ratio("openmpi")
            }
        }'
}

# chart <dir> <name> <chart_data arguments...>: writes dir/name.dat and
# draws dir/name.png with bench/chart.sh. A missing gnuplot that cannot be
# installed costs the chart, not the run; so does a benchmark without any
# ratio to draw (rdmpi or both others without values: failed, n/a).
chart() {
    local dir=$1 name=$2
    shift 2
    mkdir -p "$dir" || return 1
    chart_data "$@" >"$dir/$name.dat"
    if ! awk '$1 ~ /^[0-9]+$/ && ($5 != "-" || $6 != "-") { found = 1 } END { exit !found }' \
            "$dir/$name.dat"; then
        echo "$bench_prog: no chart $dir/$name.png: no ratio to draw (the data is in $dir/$name.dat)" >&2
        return 0
    fi
    "$bench_dir/chart.sh" "$dir/$name.dat" ||
        echo "$bench_prog: no chart $dir/$name.png (the data is in $dir/$name.dat)" >&2
}
