"""Which process counts each NPB 3.4 MPI benchmark accepts.

NPB 3.4 checks the process count at run time and aborts when it is wrong, so
the harness decides beforehand and reports a skipped row with the reason
instead of a failed run. The rules come from the tree itself when it states
them: NPB 3.4.2's README.install has a table of the form

      BT, SP         - a square number of processes (1, 4, 9, ...)
      CG, FT, IS, MG - a power-of-two number of processes (1, 2, 4, ...)

which is parsed here. Older 3.4 trees say it in prose only; for them (and for
a benchmark the table does not name) the built-in table below applies, which
is the 3.4.2 one. Two limits depend on the class and are not in that table:
IS's minimum/maximum process counts, and DT's "no fewer processes than graph
nodes", where the node count follows from NUM_SOURCES in the npbparams.h that
the build writes into DT/.
"""

import math
import os
import re

SQUARE = "square"
POW2 = "pow2"
GRID2D = "grid2d"
ANY = "any"

# NPB 3.4.2 README.install, "Execution": the process-count requirement of
# each benchmark (used when the tree's own README does not list it).
DEFAULT_KIND = {
    "bt": SQUARE, "sp": SQUARE,
    "lu": GRID2D,
    "cg": POW2, "ft": POW2, "is": POW2, "mg": POW2,
    "ep": ANY, "dt": ANY,
}

# IS: a class may need a minimum process count and allows at most MAX.
IS_MIN = {"D": 4, "E": 64}
IS_MAX = {"S": 128}
IS_MAX_DEFAULT = 1024

# DT: NUM_SOURCES per class, used when DT/npbparams.h cannot be read.
DT_SOURCES = {"S": 4, "W": 8, "A": 16, "B": 32, "C": 64, "D": 128}
DT_MAX_IN_DEGREE = 4  # fan-in of the BH/WH comparator layers

_KIND_PHRASES = [
    (re.compile(r"square number", re.I), SQUARE),
    (re.compile(r"power[- ]of[- ]two", re.I), POW2),
    (re.compile(r"2D|n1\s*\*\s*n2", re.I), GRID2D),
    (re.compile(r"no special requirement|any number", re.I), ANY),
]
# "  BT, SP   - a square number ..." (benchmark names, a dash, the rule)
_TABLE_LINE = re.compile(r"^\s*([A-Z]{2}(?:\s*,\s*[A-Z]{2})*)\s+-\s+(.*)$")


def read_tree_kinds(npb_dir):
    """Benchmark -> rule kind as stated in the tree's README.install table."""
    kinds = {}
    path = os.path.join(npb_dir, "README.install")
    try:
        with open(path, encoding="latin-1") as f:
            lines = f.read().splitlines()
    except OSError:
        return kinds
    for line in lines:
        m = _TABLE_LINE.match(line)
        if not m:
            continue
        for rx, kind in _KIND_PHRASES:
            if rx.search(m.group(2)):
                for name in m.group(1).split(","):
                    kinds[name.strip().lower()] = kind
                break
    return kinds


def _is_pow2(n):
    return n > 0 and n & (n - 1) == 0


def _is_square(n):
    r = math.isqrt(n)
    return r * r == n


def _grid2d(n):
    """A grid n1 x n2 = n with n1/2 <= n2 <= n1 (LU), or None."""
    for n2 in range(math.isqrt(n), 0, -1):
        if n % n2 == 0:
            n1 = n // n2
            return (n1, n2) if 2 * n2 >= n1 else None
    return None


def dt_sources(npb_dir, cls):
    """NUM_SOURCES of DT for this class: from the built npbparams.h, else
    the class table."""
    path = os.path.join(npb_dir, "DT", "npbparams.h")
    try:
        with open(path, encoding="latin-1") as f:
            m = re.search(r"#define\s+NUM_SOURCES\s+(\d+)", f.read())
        if m:
            return int(m.group(1))
    except OSError:
        pass
    return DT_SOURCES.get(cls, 4)


def dt_graph_nodes(graph, sources):
    """Nodes of DT's graph: BH/WH are sources, layers of comparators with
    fan-in 4 down to at most 4 nodes, and one sink (or source); SH is a
    shuffle of log2(sources)+1 full layers."""
    if graph.upper().startswith("SH"):
        layers = max(sources.bit_length() - 2, 0)  # log2(sources) - 1
        return sources * (layers + 2)
    nodes, layer = sources, sources
    while layer > DT_MAX_IN_DEGREE:
        layer = -(-layer // DT_MAX_IN_DEGREE)
        nodes += layer
    return nodes + 1


def check(bench, cls, np, kinds, npb_dir, dt_graph="BH"):
    """None when `bench` class `cls` can run on `np` processes, else the
    reason it cannot."""
    kind = kinds.get(bench, DEFAULT_KIND.get(bench, ANY))
    if np < 1:
        return "np must be at least 1"
    if kind == SQUARE and not _is_square(np):
        return "%s needs a square process count (1, 4, 9, ...)" % bench.upper()
    if kind == POW2 and not _is_pow2(np):
        return "%s needs a power-of-two process count" % bench.upper()
    if kind == GRID2D and _grid2d(np) is None:
        return "%s needs an n1 x n2 grid with n1/2 <= n2 <= n1" % bench.upper()
    if bench == "is":
        lo, hi = IS_MIN.get(cls, 1), IS_MAX.get(cls, IS_MAX_DEFAULT)
        if not lo <= np <= hi:
            return "IS class %s needs %d..%d processes" % (cls, lo, hi)
    if bench == "dt":
        need = dt_graph_nodes(dt_graph, dt_sources(npb_dir, cls))
        if np < need:
            return "DT %s class %s needs >= %d processes (graph nodes)" % (
                dt_graph, cls, need)
    return None

