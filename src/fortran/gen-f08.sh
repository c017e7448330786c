#!/bin/sh
# gen-f08.sh -- generate the mpi_f08 module and its C side from mpi.h.
#
# Usage: gen-f08.sh MPI_H MPIF_H MODULE_IN OUT.c OUT.f90
#
# The table that drives this generator is mpi.h itself: every
# `int MPI_Name(...)` whose parameters all map onto the mpi_f08 binding of
# MPI-4.0 chapter 19 (MPI-3.1 chapter 17) is bound, so the Fortran
# signatures cannot drift from C's. For each such routine it writes
#   - to OUT.c a C function rd_f08_name that converts its arguments and calls
#     PMPI_Name (hidden: only the module's procedures call it);
#   - to OUT.f90, at the markers of MODULE_IN: the bind(C) interface of
#     rd_f08_name, the generic interface MPI_Name and its specific module
#     procedure MPI_Name_f08ts (choice buffers) or MPI_Name_f08, which takes
#     the standard's arguments (TYPE(MPI_Comm) ..., LOGICAL, optional ierror)
#     and calls rd_f08_name with C-interoperable ones.
# The handle types, their == and /= operators and the named constants (from
# MPIF_H, typed by the casts of mpi.h) are generated too.
#
# Parameters map by C type and name:
#   int, MPI_Aint/Offset/Count, handles  INTEGER(KIND=...), TYPE(MPI_Comm) ...
#   pointers and arrays of those         the same, (*) for arrays
#   flag, commute, ... (int, int *)      LOGICAL (converted in the procedure)
#   periods, remain_dims (int [])        LOGICAL arrays (.TRUE. is 1 in C)
#   MPI_Status *, MPI_Status []          TYPE(MPI_Status); MPI_STATUS(ES)_IGNORE
#   void * buffers                       TYPE(*), DIMENSION(..): see below
#   void *baseptr, void *buffer_addr     TYPE(C_PTR)
#   const char * / char *                CHARACTER(LEN=*)
#   MPI_User_function * ...              PROCEDURE(MPI_User_function)
# Choice buffers of blocking routines are CONTIGUOUS: the compiler passes a
# noncontiguous array section by copy-in/copy-out, which is right for a
# routine that completes before returning. Nonblocking, persistent and
# one-sided routines (and buffers a window or MPI_Buffer_attach keeps) may
# not be copied: their buffers are ASYNCHRONOUS. For the point-to-point ones
# and MPI_Put/Get/Rput/Rget a noncontiguous section is described by a
# derived datatype (f08.c, rd_f08_section()); elsewhere, or when the count
# and datatype do not cover the section element by element, it fails with
# MPI_ERR_UNSUPPORTED_OPERATION naming the routine.
# Skipped: the large-count (_c) variants and MPI_T_*, MPI_File_* (MPI_File
# is a pointer in C), the routines MPI removed or that have no Fortran
# binding, the routines MODULE_IN writes by hand (every `interface MPI_Name`
# in it), and any routine with another parameter (callbacks with Fortran
# semantics, argv arrays ...). The skipped routines are listed at the end of
# OUT.c. POSIX sh and awk only.

if [ $# -ne 5 ]; then
    echo "usage: $0 MPI_H MPIF_H MODULE_IN OUT.c OUT.f90" >&2
    exit 2
fi
mpi_h=$1
mpif_h=$2
mod_in=$3
out=$4
outf=$5
for f in "$mpi_h" "$mpif_h" "$mod_in"; do
    if [ ! -r "$f" ]; then
        echo "$0: cannot read $f" >&2
        exit 1
    fi
done

tmp="$out.tmp.$$"
tmpf="$outf.tmp.$$"
trap 'rm -f "$tmp" "$tmpf"' EXIT INT TERM

awk -v hdr="$(basename "$mpi_h")" -v fout="$tmpf" '
BEGIN {
    ntypes = split("MPI_Comm MPI_Datatype MPI_Group MPI_Request MPI_Op MPI_Info " \
                   "MPI_Win MPI_Errhandler MPI_Message MPI_File MPI_Session", types, " ")
    for (i = 1; i <= ntypes; i++) handle[types[i]] = 1
    wide["MPI_Aint"] = "MPI_ADDRESS_KIND"
    wide["MPI_Offset"] = "MPI_OFFSET_KIND"
    wide["MPI_Count"] = "MPI_COUNT_KIND"
    cwide["MPI_Aint"] = "c_intptr_t"
    cwide["MPI_Offset"] = "c_long_long"
    cwide["MPI_Count"] = "c_long_long"
    split("flag commute reorder high weighted", a, " ")
    for (i in a) logical[a[i]] = 1
    split("periods remain_dims", a, " ")
    for (i in a) logarray[a[i]] = 1
    split("buf sendbuf recvbuf buffer inbuf outbuf inoutbuf origin_addr " \
          "result_addr compare_addr location base", a, " ")
    for (i in a) choice[a[i]] = 1
    split("MPI_User_function MPI_Comm_errhandler_function " \
          "MPI_Win_errhandler_function MPI_Session_errhandler_function", a, " ")
    for (i in a) procedure[a[i]] = 1
    # Buffers the library keeps after the call returns, besides those of the
    # nonblocking, persistent and one-sided routines (asyncfn()).
    split("MPI_Win_create MPI_Win_attach MPI_Buffer_attach", a, " ")
    for (i in a) keeps[a[i]] = 1
    # Nonblocking and one-sided routines whose buffer goes with one count and
    # datatype: a noncontiguous section becomes a derived datatype there.
    split("MPI_Isend MPI_Ibsend MPI_Issend MPI_Irsend MPI_Irecv MPI_Imrecv " \
          "MPI_Isendrecv MPI_Isendrecv_replace MPI_Send_init MPI_Bsend_init " \
          "MPI_Ssend_init MPI_Rsend_init MPI_Recv_init MPI_Put MPI_Get MPI_Rput " \
          "MPI_Rget", a, " ")
    for (i in a) sectionfn[a[i]] = 1
    bufcount["buf"] = "count"; buftype["buf"] = "datatype"
    bufcount["sendbuf"] = "sendcount"; buftype["sendbuf"] = "sendtype"
    bufcount["recvbuf"] = "recvcount"; buftype["recvbuf"] = "recvtype"
    bufcount["origin_addr"] = "origin_count"; buftype["origin_addr"] = "origin_datatype"
    # Buffers of which only the address is used.
    split("MPI_Get_address MPI_Free_mem MPI_Win_detach", a, " ")
    for (i in a) addronly[a[i]] = 1
    # In/out string lengths with MPI-4 semantics: not mechanical.
    skipfn["MPI_Info_get_string"] = 1
    skipfn["MPI_Session_get_nth_pset"] = 1
    # Removed from MPI (no mpi_f08 binding), or C-only conversions.
    split("MPI_Address MPI_Type_extent MPI_Type_lb MPI_Type_ub MPI_Type_hvector " \
          "MPI_Type_hindexed MPI_Type_struct MPI_Attr_put MPI_Attr_get " \
          "MPI_Attr_delete MPI_Keyval_create MPI_Keyval_free MPI_Errhandler_create " \
          "MPI_Errhandler_get MPI_Errhandler_set", a, " ")
    for (i in a) removed[a[i]] = 1
}

# Pass 1: the typed handle constants of mpi.h.
FILENAME == ARGV[1] && /^#define MPI_[A-Z0-9_]+[ \t]/ {
    v = $0; sub(/^#define[ \t]+[A-Z0-9_]+[ \t]+/, "", v); gsub(/[ \t]/, "", v)
    if (match(v, /^\(\(MPI_[A-Za-z]+\)/)) {
        t = substr(v, 3, RLENGTH - 3)
        if (t in handle) htype[$2] = t
    } else if (v in htype) {
        htype[$2] = htype[v]
    }
}
FILENAME == ARGV[1] && !in_decl && /^int MPI_[A-Za-z0-9_]*\(/ { in_decl = 1; decl = "" }
FILENAME == ARGV[1] && in_decl {
    decl = decl " " $0
    if ($0 ~ /;/) { in_decl = 0; decls[++ndecl] = decl }
    next
}

# Pass 2: the constants of mpif.h (their values already follow MPICH rules).
FILENAME == ARGV[2] && /^      (INTEGER|INTEGER\(KIND=[A-Z_]+\)|LOGICAL) MPI_[A-Z0-9_]+$/ {
    ctype = $1; next
}
FILENAME == ARGV[2] && /^      PARAMETER \(MPI_[A-Z0-9_]+=/ {
    s = $0; sub(/^      PARAMETER \(/, "", s); sub(/\)$/, "", s)
    name = s; sub(/=.*/, "", name); v = s; sub(/^[^=]*=/, "", v)
    if (name in htype)
        cons[++ncons] = "  type(" htype[name] "), parameter :: " name " = " htype[name] "(" v ")"
    else if (ctype ~ /^INTEGER/)
        cons[++ncons] = "  " tolower(ctype) ", parameter :: " name " = " v
    next
}

# Pass 3: the routines MODULE_IN writes by hand.
FILENAME == ARGV[3] && /^ *interface MPI_[A-Za-z0-9_]+ *$/ { hand[$2] = 1 }
FILENAME == ARGV[3] { modin[++nmodin] = $0 }

function reset() {
    np = 0; nloc = 0; npre = 0; npost = 0; ncpre = 0; ncpost = 0; ncargs = 0
    nstr = 0; ncheck = 0; nsdecl = 0; nfree_t = 0; bad = ""; nchoice = 0; errobj = "NONE"
    split("", subst)
}

# Records wrapper dummy n: name, wrapper declaration, C-facing declaration,
# the actual argument the wrapper passes, and the C parameter.
function dummy(name, wdecl, cdecl, actual, cparam) {
    np++
    pname[np] = name; pw[np] = wdecl; pc[np] = cdecl; pact[np] = actual; pcp[np] = cparam
}

function param(p, fname,    s, arr, name, type, ptr, cst, base, inn, dims, t, ct, att, cnt, dt) {
    s = p
    gsub(/^[ \t]+|[ \t]+$/, "", s)
    arr = ""
    while (match(s, /[ \t]*\[[^]]*\]$/)) {
        arr = substr(s, RSTART) arr
        s = substr(s, 1, RSTART - 1)
    }
    gsub(/[ \t]/, "", arr)
    name = s; sub(/.*[^A-Za-z0-9_]/, "", name)
    type = substr(s, 1, length(s) - length(name)); sub(/[ \t]+$/, "", type)
    cst = (type ~ /^const /); base = type; sub(/^const /, "", base)
    ptr = 0
    while (base ~ /\*$/) { ptr++; base = substr(base, 1, length(base) - 1); sub(/[ \t]+$/, "", base) }
    if (arr != "") ptr++
    inn = (ptr == 0 || cst) ? ", intent(in)" : ""
    if (s == "..." || name == "") { bad = "varargs"; return }

    if (base == "int" && (name in logical) && ptr == 0) {
        dummy(name, "logical, intent(in) :: " name, "integer(c_int), intent(in) :: " name,
              "merge(1_c_int, 0_c_int, " name ")", "const MPI_Fint *" name)
        cargs[++ncargs] = "*" name " != 0"
        return
    }
    if (base == "int" && (name in logical) && ptr == 1 && arr == "") {
        dummy(name, "logical, intent(out) :: " name, "integer(c_int), intent(out) :: " name,
              "c_" name, "MPI_Fint *" name)
        loc[++nloc] = "integer(c_int) :: c_" name
        pre[++npre] = "c_" name " = 0"
        post[++npost] = name " = c_" name " /= 0"
        cpre[++ncpre] = "    int c_" name " = 0;"
        cargs[++ncargs] = "&c_" name
        cpost[++ncpost] = "    *" name " = rd_f_logical(c_" name ");"
        return
    }
    if (base == "int" && (name in logarray) && ptr == 1) {
        dummy(name, "logical" inn " :: " name "(*)", "type(*), dimension(*)" inn " :: " name,
              name, (cst ? "const " : "") "MPI_Fint *" name)
        cargs[++ncargs] = name
        return
    }
    if (base == "void" && ptr == 1 && (name in choice)) {
        nchoice++
        if (fname in addronly) {
            att = ", asynchronous"
        } else if (asyncfn(fname) || (fname in keeps)) {
            att = ", asynchronous"
            if ((fname in sectionfn) && (name in bufcount)) {
                # The count and datatype that follow are replaced (see section()).
                cnt = bufcount[name]; dt = buftype[name]
                subst[cnt] = "c_" cnt; subst[dt] = "c_" dt
                sdecl[++nsdecl] = "    int c_" cnt " = *" cnt ";"
                sdecl[++nsdecl] = "    MPI_Datatype c_" dt " = (MPI_Datatype)*" dt ";"
                sdecl[++nsdecl] = "    MPI_Datatype t_" name " = MPI_DATATYPE_NULL;"
                check[++ncheck] = "    if (!rd_f08_contiguous(" name ") &&"
                check[++ncheck] = "        (*ierr = rd_f08_section(" name ", &c_" cnt ", &c_" dt ", &t_" name ","
                check[++ncheck] = "                                \"" fname "\", RD_F08_ERR_" errobj ", " \
                                  errhandle() ")) != MPI_SUCCESS)"
                check[++ncheck] = "        goto done;"
                free_t[++nfree_t] = "    rd_f08_section_free(&t_" name ");"
            } else {
                check[++ncheck] = "    if (!rd_f08_contiguous(" name ")) {"
                check[++ncheck] = "        *ierr = rd_f08_noncontig(\"" fname "\", RD_F08_ERR_" errobj ", " \
                                  errhandle() ");"
                check[++ncheck] = "        return;"
                check[++ncheck] = "    }"
            }
        } else {
            att = ", contiguous"
        }
        dummy(name, "type(*), dimension(..)" inn att " :: " name,
              "type(*), dimension(..)" inn (att == ", contiguous" ? "" : att) " :: " name,
              name, "CFI_cdesc_t *" name)
        cargs[++ncargs] = "rd_f08_buf(" name ")"
        return
    }
    if (base == "void" && ptr == 1 && (name == "baseptr" || name == "buffer_addr")) {
        dummy(name, "type(c_ptr), intent(out) :: " name, "type(c_ptr), intent(out) :: " name,
              name, "void *" name)
        cargs[++ncargs] = name
        return
    }
    if (base == "char" && ptr == 1 && (arr == "" || arr == "[]")) {
        dummy(name, "character(len=*)" inn " :: " name, "character(kind=c_char, len=*)" inn " :: " name,
              name, "CFI_cdesc_t *" name)
        nstr++; strs[nstr] = "c_" name
        if (cst) {
            cpre[++ncpre] = "    char *c_" name " = rd_f_str_in(" name "->base_addr, " name "->elem_len);"
        } else {
            cpre[++ncpre] = "    char *c_" name " = rd_f_str_tmp(" name "->elem_len);"
            cpost[++ncpost] = "    rd_f_str_out(c_" name ", " name "->base_addr, " name "->elem_len);"
        }
        cargs[++ncargs] = "c_" name
        return
    }
    if (base == "MPI_Status" && ptr == 1) {
        dims = arr != "" ? "(*)" : ""
        dummy(name, "type(MPI_Status)" inn " :: " name dims, "type(MPI_Status)" inn " :: " name dims,
              name, "MPI_Fint *" name)
        cargs[++ncargs] = (arr != "" ? "rd_f_statuses(" : "rd_f_status(") name ")"
        return
    }
    if ((base in procedure) && ptr == 1 && arr == "") {
        dummy(name, "procedure(" base ") :: " name, "type(c_funptr), value :: " name,
              "c_funloc(" name ")", base " *" name)
        cargs[++ncargs] = name
        return
    }
    if (base == "int" || (base in handle) || (base in wide)) {
        if (base == "MPI_File") { bad = p; return }
        t = base == "int" ? "integer" : (base in handle) ? "type(" base ")" : "integer(kind=" wide[base] ")"
        ct = base == "int" ? "integer(c_int)" : (base in wide) ? "integer(" cwide[base] ")" : t
        if (ptr == 0) {
            dummy(name, t ", intent(in) :: " name, ct ", intent(in) :: " name, name,
                  "const " (base in wide ? base : "MPI_Fint") " *" name)
            if (name in subst)
                cargs[++ncargs] = subst[name]
            else
                cargs[++ncargs] = (base in handle ? "(" base ")" : "") "*" name
            return
        }
        if (ptr != 1) { bad = p; return }
        dims = arr == "[][3]" ? "(3,*)" : (arr != "" || name ~ /^array_of_/) ? "(*)" : ""
        if (arr == "[][3]") {
            dummy(name, t inn " :: " name dims, ct inn " :: " name dims, name, "int " name "[][3]")
            cargs[++ncargs] = name
            return
        }
        dummy(name, t inn " :: " name dims, ct inn " :: " name dims, name,
              (cst ? "const " : "") (base in wide ? base : "MPI_Fint") " *" name)
        if (base == "int" && name ~ /weights$/)
            cargs[++ncargs] = "rd_f_weights(" name ")"
        else
            cargs[++ncargs] = (base in wide ? "" : "(" (cst ? "const " : "") base " *)") name
        return
    }
    bad = p
}

# The C expression of the handle whose error handler reports a refused buffer.
function errhandle() {
    return errobj == "COMM" ? "*comm" : errobj == "WIN" ? "*win" : "0"
}

# Routines whose buffers the library may use after they return.
function asyncfn(f) {
    return f ~ /^MPI_I[a-z]/ || f ~ /_init$/ || f ~ /^MPI_R(put|get|accumulate|get_accumulate)$/ ||
           f ~ /^MPI_(Put|Get|Accumulate|Get_accumulate|Fetch_and_op|Compare_and_swap)$/
}

# One free-form line, continued with & before 100 columns.
function fline(s,    cut, ind) {
    ind = s; sub(/[^ ].*/, "", ind)
    while (length(s) > 100) {
        cut = 98
        while (cut > 1 && substr(s, cut, 1) != "," && substr(s, cut, 1) != " ") cut--
        print substr(s, 1, cut) " &" > fout
        s = ind "    " substr(s, cut + 1)
        sub(/^ +/, ind "    ", s)
    }
    print s > fout
}

function wrap(head, items, n, tail,    ind, line, i, piece) {
    ind = sprintf("%" length(head) "s", "")
    line = head
    for (i = 1; i <= n; i++) {
        piece = items[i] (i < n ? "," : tail)
        if (line != head && length(line) + 1 + length(piece) > 99) {
            sub(/ $/, "", line); cout[++ncout] = line; line = ind
        }
        line = line piece (i < n ? " " : "")
    }
    if (n == 0) line = line tail
    cout[++ncout] = line
}

function declaration(d,    open, rp, head, name, params, n, p, i, lower, spec, list, clist, cpar, line) {
    gsub(/[ \t\n]+/, " ", d); sub(/^ /, "", d)
    open = index(d, "(")
    head = substr(d, 1, open - 1); sub(/ +$/, "", head)
    name = head; sub(/.*[ *]/, "", name)
    if (name in done) return
    done[name] = 1
    if (name ~ /_c$/ || name ~ /^MPI_T_/) return
    if (name in hand) { nhand++; return }
    if (name ~ /^MPI_File_/ || name ~ /_(c2f|f2c|c2f08|f082c|f2f08|f082f)$/ ||
        (name in skipfn) || (name in removed)) { skipped[++nskip] = name; return }
    rp = length(d); while (substr(d, rp, 1) != ")") rp--
    params = substr(d, open + 1, rp - open - 1)
    reset()
    if (params !~ /^[ \t]*void[ \t]*$/) {
        n = split(params, p, ",")
        # Whose error handler reports a refused buffer (see param()).
        for (i = 1; i <= n; i++) if (p[i] ~ /MPI_Comm comm$/) errobj = "COMM"
        if (errobj == "NONE") for (i = 1; i <= n; i++) if (p[i] ~ /MPI_Win win$/) errobj = "WIN"
        for (i = 1; i <= n && bad == ""; i++) param(p[i], name)
    }
    if (bad != "") { skipped[++nskip] = name; return }
    lower = tolower(name); sub(/^mpi_/, "", lower)
    spec = name (nchoice > 0 ? "_f08ts" : "_f08")

    # The C side.
    ncout = 0
    for (i = 1; i <= np; i++) cpar[i] = pcp[i]
    cpar[np + 1] = "MPI_Fint *ierr"
    cout[++ncout] = ""
    wrap("void rd_f08_" lower "(", cpar, np + 1, ")")
    cout[++ncout] = "{"
    for (i = 1; i <= nsdecl; i++) cout[++ncout] = sdecl[i]
    for (i = 1; i <= ncheck; i++) cout[++ncout] = check[i]
    for (i = 1; i <= ncpre; i++) cout[++ncout] = cpre[i]
    if (nstr > 0) {
        line = "    if ("
        for (i = 1; i <= nstr; i++) line = line (i > 1 ? " || " : "") strs[i] " == NULL"
        cout[++ncout] = line ") {"
        cout[++ncout] = "        *ierr = MPI_ERR_NO_MEM;"
        cout[++ncout] = "        goto out;"
        cout[++ncout] = "    }"
    }
    wrap("    *ierr = P" name "(", cargs, ncargs, ");")
    if (ncpost > 0) {
        cout[++ncout] = "    if (*ierr == MPI_SUCCESS) {"
        for (i = 1; i <= ncpost; i++) cout[++ncout] = "    " cpost[i]
        cout[++ncout] = "    }"
    }
    if (nstr > 0) {
        cout[++ncout] = "out:"
        for (i = 1; i <= nstr; i++) cout[++ncout] = "    free(" strs[i] ");"
    }
    if (nfree_t > 0) {
        cout[++ncout] = "done:"
        for (i = 1; i <= nfree_t; i++) cout[++ncout] = free_t[i]
    }
    cout[++ncout] = "}"
    for (i = 1; i <= ncout; i++) print cout[i]

    # The Fortran side.
    list = ""; clist = ""
    for (i = 1; i <= np; i++) { list = list pname[i] ", "; clist = clist pact[i] ", " }
    gen[++ngen] = name; genspec[ngen] = spec
    proc[ngen] = sprintf("  subroutine %s(%sierror)", spec, list)
    procb[ngen] = ""
    for (i = 1; i <= np; i++) procb[ngen] = procb[ngen] "    " pw[i] "\n"
    procb[ngen] = procb[ngen] "    integer, optional, intent(out) :: ierror\n"
    procb[ngen] = procb[ngen] "    integer(c_int) :: ierr\n"
    for (i = 1; i <= nloc; i++) procb[ngen] = procb[ngen] "    " loc[i] "\n"
    procb[ngen] = procb[ngen] "    interface\n"
    procb[ngen] = procb[ngen] sprintf("      subroutine rd_f08_%s(%sierror) bind(C, name=\"rd_f08_%s\")\n", lower, list, lower)
    procb[ngen] = procb[ngen] "        import\n"
    for (i = 1; i <= np; i++) procb[ngen] = procb[ngen] "        " pc[i] "\n"
    procb[ngen] = procb[ngen] "        integer(c_int), intent(out) :: ierror\n"
    procb[ngen] = procb[ngen] "      end subroutine rd_f08_" lower "\n"
    procb[ngen] = procb[ngen] "    end interface\n"
    for (i = 1; i <= npre; i++) procb[ngen] = procb[ngen] "    " pre[i] "\n"
    procb[ngen] = procb[ngen] "    call rd_f08_" lower "(" clist "ierr)\n"
    for (i = 1; i <= npost; i++) procb[ngen] = procb[ngen] "    " post[i] "\n"
    procb[ngen] = procb[ngen] "    if (present(ierror)) ierror = ierr\n"
    procb[ngen] = procb[ngen] "  end subroutine " spec
    nbound++
}

function emit_lines(text,    n, l, i) {
    n = split(text, l, "\n")
    for (i = 1; i <= n; i++) if (l[i] != "") fline(l[i])
}

function emit_types(    i, t) {
    for (i = 1; i <= ntypes; i++) {
        print "  type, bind(C) :: " types[i] > fout
        print "    integer(c_int) :: MPI_VAL" > fout
        print "  end type " types[i] > fout
    }
}

function emit_operators(    i, t, op, sfx) {
    for (op = 1; op <= 2; op++) {
        print "  interface operator(" (op == 1 ? "==" : "/=") ")" > fout
        for (i = 1; i <= ntypes; i++) {
            t = tolower(types[i]); sub(/^mpi_/, "", t)
            print "    module procedure rd_f08_" (op == 1 ? "eq_" : "ne_") t > fout
        }
        print "  end interface" > fout
    }
}

function emit_operator_procs(    i, t, op, fn) {
    for (i = 1; i <= ntypes; i++) {
        t = tolower(types[i]); sub(/^mpi_/, "", t)
        for (op = 1; op <= 2; op++) {
            fn = "rd_f08_" (op == 1 ? "eq_" : "ne_") t
            print "  elemental logical function " fn "(a, b)" > fout
            print "    type(" types[i] "), intent(in) :: a, b" > fout
            print "    " fn " = a%MPI_VAL " (op == 1 ? "==" : "/=") " b%MPI_VAL" > fout
            print "  end function " fn > fout
        }
    }
}

END {
    print "/*"
    print " * The C side of the mpi_f08 module: one function per routine, called by"
    print " * the module procedure of that routine with C-interoperable arguments."
    print " *"
    print " * Generated by src/fortran/gen-f08.sh from " hdr ". Do not edit:"
    print " * change the generator, or write the routine by hand in mpi_f08.f90.in"
    print " * and src/fortran/f08.c."
    print " */"
    print "#include \"fortran/f08.h\""
    print ""
    print "#include <stdlib.h>"
    for (k = 1; k <= ndecl; k++) declaration(decls[k])

    for (k = 1; k <= nmodin; k++) {
        l = modin[k]
        if (l ~ /^!@TYPES@/) emit_types()
        else if (l ~ /^!@CONSTANTS@/) { for (i = 1; i <= ncons; i++) fline(cons[i]) }
        else if (l ~ /^!@OPERATORS@/) emit_operators()
        else if (l ~ /^!@INTERFACES@/) {
            for (i = 1; i <= ngen; i++) {
                print "  interface " gen[i] > fout
                print "    module procedure " genspec[i] > fout
                print "  end interface " gen[i] > fout
            }
        } else if (l ~ /^!@PROCEDURES@/) {
            emit_operator_procs()
            for (i = 1; i <= ngen; i++) { fline(proc[i]); emit_lines(procb[i]) }
        } else print l > fout
    }

    print ""
    print "/*"
    printf " * %d routines bound here, %d written by hand in mpi_f08.f90.in.\n", nbound, nhand
    printf " * Not bound (%d):\n", nskip
    for (i = 1; i <= nskip; i++) print " *   " skipped[i]
    print " */"
}
' "$mpi_h" "$mpif_h" "$mod_in" > "$tmp" || exit 1

mv "$tmp" "$out"
mv "$tmpf" "$outf"
trap - EXIT INT TERM
