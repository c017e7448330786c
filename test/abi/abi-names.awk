# abi-names.awk -- list the public names an mpi.h declares.
#
# Input: the header run through `cc -E -P` (so conditionals and includes are
# resolved exactly as a program sees them). Output, one per line:
#   type NAME          a typedef
#   fntype NAME SIG    a typedef of a function (or function pointer) type;
#                      SIG is the signature without parameter names or
#                      whitespace, e.g. int(MPI_Comm,int,void*,void*)
#   enum NAME          an enumeration constant
#   object NAME        an extern data object
# Macros are listed by abi-check.sh from `cc -E -dM`; functions from
# `cc -aux-info`. Only names in the MPI namespace (and MPIR_ objects) are
# printed; system headers pulled in by the header are filtered out the same
# way.

function trim(s) { gsub(/^[ \t]+|[ \t]+$/, "", s); return s }

function public(name) { return name ~ /^(P?MPI_|P?MPIO_)/ && name !~ /^P?MPIX_/ }

# Drop the parameter name from one parameter declaration, keeping its type.
function param_type(p,    arr, n, t, i, last, prev, out) {
    p = trim(p)
    if (p == "..." || p == "void" || p == "") return p
    arr = ""
    if (match(p, /\[[^]]*\]$/)) { arr = "[]"; p = trim(substr(p, 1, RSTART - 1)) }
    gsub(/\*/, " * ", p)
    n = split(p, t, /[ \t]+/)
    last = t[n]; prev = (n > 1) ? t[n - 1] : ""
    if (n > 1 && last ~ /^[A-Za-z_][A-Za-z0-9_]*$/ && \
        last !~ /^(int|long|short|char|double|float|void|unsigned|signed|_Bool|_Complex|const|volatile)$/ && \
        prev !~ /^(struct|enum|union)$/)
        n--
    out = ""
    for (i = 1; i <= n; i++) out = out t[i]
    return out arr
}

# Signature of `RET (NAME)(PARAMS)`, `RET (*NAME)(PARAMS)`, `RET NAME(PARAMS)`.
function signature(ret, ptr, params,    n, p, i, out) {
    n = split(params, p, ",")
    out = ""
    for (i = 1; i <= n; i++) out = out (i > 1 ? "," : "") param_type(p[i])
    gsub(/[ \t]+/, "", ret)
    return ret (ptr ? "(*)" : "") "(" out ")"
}

function statement(s,    m, name, body, n, items, i, id, rest) {
    s = trim(s)
    if (s == "") return
    # Enumeration constants, wherever an enum body appears. MPICH's
    # enum QMPI_Functions_enum (its QMPI tool interface, which rdmpi does not
    # provide) names one MPI_<FUNCTION>_T constant per function: skipped.
    if (s ~ /enum[^{]*\{/ && s !~ /enum[ \t]+QMPI_/) {
        body = s; sub(/^[^{]*\{/, "", body); sub(/\}[^}]*$/, "", body)
        n = split(body, items, ",")
        for (i = 1; i <= n; i++) {
            id = trim(items[i]); sub(/[ \t]*=.*/, "", id)
            if (public(id)) print "enum " id
        }
    }
    if (s ~ /^typedef /) {
        if (s ~ /\{/) {
            name = s; sub(/.*\}[ \t]*/, "", name); name = trim(name)
            if (public(name)) print "type " name
        } else if (match(s, /\([ \t]*\*?[ \t]*[A-Za-z_][A-Za-z0-9_]*[ \t]*\)[ \t]*\(/)) {
            m = substr(s, RSTART, RLENGTH)
            rest = substr(s, RSTART + RLENGTH); sub(/\)[^)]*$/, "", rest)
            name = m; gsub(/[^A-Za-z0-9_]/, "", name)
            ret = substr(s, 9, RSTART - 9)
            if (public(name)) {
                print "type " name
                print "fntype " name " " signature(ret, m ~ /\*/, rest)
            }
        } else if (match(s, /[A-Za-z_][A-Za-z0-9_]*[ \t]*\(/)) {
            name = substr(s, RSTART, RLENGTH); sub(/[ \t]*\($/, "", name)
            ret = substr(s, 9, RSTART - 9)
            rest = substr(s, RSTART + RLENGTH); sub(/\)[^)]*$/, "", rest)
            if (public(name)) {
                print "type " name
                print "fntype " name " " signature(ret, 0, rest)
            }
        } else {
            name = s; sub(/\[[^]]*\]$/, "", name); sub(/.*[^A-Za-z0-9_]/, "", name)
            if (public(name)) print "type " name
        }
    } else if (s ~ /^extern / && s !~ /\(/) {
        name = s; sub(/\[[^]]*\]$/, "", name); sub(/.*[^A-Za-z0-9_]/, "", name)
        if (public(name) || name ~ /^MPIR_/) print "object " name
    }
}

# Split the token stream into top-level statements at `;` outside braces.
{
    line = $0
    if (line ~ /^#/) next
    text = text " " line
}
END {
    depth = 0; cur = ""
    n = length(text)
    for (i = 1; i <= n; i++) {
        c = substr(text, i, 1)
        if (c == "{") depth++
        else if (c == "}") depth--
        if (c == ";" && depth == 0) { statement(cur); cur = "" }
        else cur = cur c
    }
    statement(cur)
}
