#!/bin/bash
# chart.sh: draws PNG charts with gnuplot (bench/chart.gp) from data files
# in the format below. compare.sh and multihost.sh write such files from a
# run's raw results (--chart DIR) and call this script; doc/perf/ holds the
# ones behind the charts of doc/performance.md.
#
# Data file: comment lines that describe the chart, then a header line
# naming the columns (in double quotes when a name has blanks), then rows.
#   # title: the chart's title
#   # ylabel: the y axis
#   # kind: sizes | bars | ranges   (see bench/chart.gp)
#   # plot: the columns drawn, e.g. "5 6" (for ranges: low high)
#   # logy: 1 for a logarithmic y axis (optional)
# "-" marks a cell with no value.

set -u

usage() {
    cat <<'USAGE'
Usage: bench/chart.sh FILE.dat [OUT.png]   draw one chart (default FILE.png)
       bench/chart.sh --all DIR           draw DIR/X.png for every DIR/X.dat

gnuplot is needed; run as root, the script installs Debian's gnuplot-nox
when it is missing, else it says how and exits 2.
USAGE
}

here=$(cd "$(dirname "$0")" && pwd)

need_gnuplot() {
    command -v gnuplot >/dev/null && return 0
    if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null; then
        echo "chart.sh: installing gnuplot-nox" >&2
        export DEBIAN_FRONTEND=noninteractive
        apt-get install -y gnuplot-nox >&2 ||
            { apt-get update >&2 && apt-get install -y gnuplot-nox >&2; } ||
            { echo "chart.sh: apt-get install gnuplot-nox failed" >&2; return 2; }
        return 0
    fi
    echo "chart.sh: gnuplot missing; as root run: apt-get install gnuplot-nox" >&2
    return 2
}

# field FILE NAME: the value of the "# NAME:" line of FILE.
field() { sed -n "s/^# $2:[[:space:]]*//p" "$1" | head -n 1; }

# q TEXT: TEXT as a gnuplot string in single quotes.
q() { printf "'%s'" "${1//\'/\'\'}"; }

draw() {
    local dat=$1 png=${2:-${1%.dat}.png} kind cols
    [ -r "$dat" ] || { echo "chart.sh: cannot read $dat" >&2; return 2; }
    kind=$(field "$dat" kind)
    cols=$(field "$dat" plot)
    case "$kind" in sizes|bars|ranges) ;; *) echo "chart.sh: $dat: kind '$kind' (sizes, bars, ranges)" >&2; return 2 ;; esac
    [ -n "$cols" ] || { echo "chart.sh: $dat: no '# plot:' line" >&2; return 2; }
    # gnuplot reads the first non-comment line as the column names.
    gnuplot -e "dat=$(q "$dat"); png=$(q "$png"); kind=$(q "$kind"); ttl=$(q "$(field "$dat" title)"); ylab=$(q "$(field "$dat" ylabel)"); cols=$(q "$cols"); logy=$(field "$dat" logy | grep -x 1 || echo 0)" \
        "$here/chart.gp" || { echo "chart.sh: gnuplot failed on $dat" >&2; return 1; }
}

case "${1:-}" in
-h|--help) usage; exit 0 ;;
'') usage >&2; exit 2 ;;
--all)
    dir=${2:?--all needs a directory}
    need_gnuplot || exit 2
    rc=0
    for f in "$dir"/*.dat; do
        [ -e "$f" ] || continue
        draw "$f" || rc=1
    done
    exit $rc ;;
*)
    need_gnuplot || exit 2
    draw "$1" "${2:-}" ;;
esac
