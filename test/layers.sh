#!/bin/bash
# layers.sh: checks every #include "..." in src/ and mpirun/ against the layer
# order of the design (DESIGN.md, "Layers"; see doc/architecture.md):
#   util < boot < core < transport < p2p < coll, rma < api < fortran < info
# A file may include its own layer and the layers below it, never a higher
# one; coll and rma stand side by side and do not include each other;
# mpirun/ is the launcher and uses util and boot only, plus the one list of
# known RDMPI_* variables (info/all_tunables.h, data) that it checks the
# job's environment against; src/info (rdmpi_info) sits on top and also reads
# the launcher's and the wrappers' tunable tables. A directory of src/
# that is not in the order is an error too, so that a new one gets a place.
# Prints one line per offending include, naming the rule it breaks; exits 1
# if there is any. Run by make check; by hand: test/layers.sh [TOP_SRCDIR]

set -u
top=${1:-$(cd "$(dirname "$0")/.." && pwd)}
cd "$top" || exit 2

# Rank of a layer; coll and rma share one.
rank() {
    case $1 in
    util) echo 1 ;; boot) echo 2 ;; core) echo 3 ;; transport) echo 4 ;;
    p2p) echo 5 ;; coll|rma) echo 6 ;; api) echo 7 ;; fortran) echo 8 ;; info) echo 9 ;;
    *) echo 0 ;;
    esac
}

# The layer a file belongs to: its first directory under src/, or mpirun.
layer_of_file() {
    case $1 in
    mpirun/*) echo mpirun ;;
    src/*) local rest=${1#src/}; echo "${rest%%/*}" ;;
    esac
}

bad=0
offend() {  # file:line, include, rule
    echo "$1: #include \"$2\": $3"
    bad=$((bad + 1))
}

files=$(find src mpirun -name '*.[ch]' -not -path 'src/wrappers/*' | sort)
[ -n "$files" ] || { echo "layers.sh: no sources under $top/src" >&2; exit 2; }
for f in $files; do
    from=$(layer_of_file "$f")
    if [ "$from" != mpirun ] && [ "$(rank "$from")" = 0 ]; then
        echo "$f: src/$from is not in the layer order (give it a place in the design's layer order and in test/layers.sh)"
        bad=$((bad + 1))
        continue
    fi
    # -o: only the include; grep -n prefixes the line number.
    while IFS=: read -r line inc; do
        inc=${inc#*\"}
        inc=${inc%\"*}
        [ "$inc" = config.h ] && continue
        case $inc in
        */*) to=${inc%%/*} ;;
        *) # No directory: a header next to the including file.
            [ -e "$(dirname "$f")/$inc" ] ||
                offend "$f:$line" "$inc" "no such header next to $f (name it by its layer, e.g. util/$inc)"
            continue ;;
        esac
        if [ "$from" = mpirun ]; then
            case $to in
            util|boot) ;;
            info) [ "$inc" = info/all_tunables.h ] ||
                offend "$f:$line" "$inc" "mpirun takes only the tunables list from src/info" ;;
            *) offend "$f:$line" "$inc" "mpirun uses util and boot only (it is the launcher, not a layer of the library)" ;;
            esac
            continue
        fi
        rf=$(rank "$from") rt=$(rank "$to")
        if [ "$from" = info ] && { [ "$inc" = mpirun/mpirun_tunables.h ] ||
                                   [ "$inc" = wrappers/wrapper_tunables.h ]; }; then
            continue
        elif [ "$rt" = 0 ]; then
            offend "$f:$line" "$inc" "$to is not a layer (util boot core transport p2p coll rma api fortran)"
        elif [ "$from" = transport ] && [ "$to" = p2p ]; then
            offend "$f:$line" "$inc" "a transport never includes p2p (p2p knows transports only through transport/transport.h; a lower layer never includes a higher one)"
        elif [ "$from" = core ] && [ "$to" = p2p ]; then
            offend "$f:$line" "$inc" "core never includes p2p (a lower layer never includes a higher one)"
        elif [ "$rt" -gt "$rf" ]; then
            offend "$f:$line" "$inc" "a lower layer never includes a higher one ($from < $to)"
        elif [ "$rt" = "$rf" ] && [ "$from" != "$to" ]; then
            offend "$f:$line" "$inc" "coll and rma stand side by side over p2p: neither includes the other"
        fi
    done < <(grep -n -o '^[[:space:]]*#[[:space:]]*include[[:space:]]*"[^"]*"' "$f")
done

if [ "$bad" -gt 0 ]; then
    echo "layers.sh: $bad include(s) against the layer order"
    exit 1
fi
echo "layers.sh: $(echo "$files" | wc -l) files, every include within the layer order"
