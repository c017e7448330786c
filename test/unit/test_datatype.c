/*
 * Unit tests of the datatype layouts and the pack engine (src/core/datatype.c,
 * src/core/dt_build.c). Every constructor's layout is checked against a
 * reference typemap built here by explicit loops over the MPI definitions,
 * at byte granularity: packing a patterned buffer must give exactly the
 * bytes at the reference offsets, unpacking must write exactly those bytes,
 * and packing or unpacking any [off, off+len) slice at random must agree
 * with the full stream. The random seed is printed; set RD_TEST_SEED to
 * replay a failure.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <CUnit/Basic.h>

#include "unit_main.h"

#include "core/datatype.h"
#include "core/dt_build.h"

static unsigned seed;

/* ---- test basics: MPI_CHAR / MPI_INT / MPI_DOUBLE stand-ins ---- */

static rd_datatype_t *basic(size_t size)
{
    rd_datatype_t *t = rd_dt_new();
    CU_ASSERT_FATAL(t != NULL);
    t->lb = 0;
    t->ub = (ptrdiff_t)size;
    t->align = size;
    rd_dt_set_root(t, rd_dt_leaf(t, 0, size, (uint32_t)size));
    return t;
}

/* Makes dt hold references to olds, as the API does through
 * rd_dt_set_contents: the olds then live at least as long as dt. */
static rd_datatype_t *hold(rd_datatype_t *dt, int n, rd_datatype_t **olds)
{
    CU_ASSERT_FATAL(dt != NULL);
    CU_ASSERT_FATAL(rd_dt_set_contents(dt, 0, 0, NULL, 0, NULL, n, olds) == 0);
    return dt;
}

/* ---- reference typemaps: byte offsets in packed order ---- */

typedef struct ref {
    long *off;
    size_t n, cap;
} ref_t;

static void ref_add(ref_t *r, long off)
{
    if (r->n == r->cap) {
        r->cap = r->cap ? 2 * r->cap : 64;
        r->off = realloc(r->off, r->cap * sizeof(*r->off));
        CU_ASSERT_FATAL(r->off != NULL);
    }
    r->off[r->n++] = off;
}

static ref_t ref_basic(size_t size)
{
    ref_t r = { 0 };
    for (size_t i = 0; i < size; i++)
        ref_add(&r, (long)i);
    return r;
}

/* Blocks of old's typemap: block i holds bls[i] copies, copy j at disps[i] + j*ext. */
static ref_t ref_blocks(size_t count, const size_t *bls, const long *disps, const ref_t *olds,
                        const long *exts)
{
    ref_t r = { 0 };
    for (size_t i = 0; i < count; i++)
        for (size_t j = 0; j < bls[i]; j++)
            for (size_t k = 0; k < olds[i].n; k++)
                ref_add(&r, disps[i] + (long)j * exts[i] + olds[i].off[k]);
    return r;
}

/* count copies of r, copy i at i*ext (what (buf, count, dt) covers). */
static ref_t ref_count(const ref_t *r, size_t count, long ext)
{
    ref_t out = { 0 };
    for (size_t i = 0; i < count; i++)
        for (size_t k = 0; k < r->n; k++)
            ref_add(&out, (long)i * ext + r->off[k]);
    return out;
}

/* ---- the layout check ---- */

static unsigned char pat(long a) { return (unsigned char)(((unsigned long)a * 7u + 3u) % 251u + 1u); }

/* Checks (base, count, dt) against the reference offsets r (relative to
 * base); the user buffer spans [lo, hi) around base. */
static void check_layout(const rd_datatype_t *dt, size_t count, const ref_t *r)
{
    CU_ASSERT_EQUAL_FATAL(dt->size * count, r->n);
    long lo = 0, hi = 1;
    for (size_t k = 0; k < r->n; k++) {
        if (r->off[k] < lo)
            lo = r->off[k];
        if (r->off[k] + 1 > hi)
            hi = r->off[k] + 1;
    }
    size_t span = (size_t)(hi - lo);
    unsigned char *mem = malloc(span), *mem2 = malloc(span), *full = malloc(r->n + 1),
                  *part = malloc(r->n + 1);
    CU_ASSERT_FATAL(mem && mem2 && full && part);
    char *base = (char *)mem - lo, *base2 = (char *)mem2 - lo;
    for (long a = lo; a < hi; a++)
        base[a] = (char)pat(a);

    rd_dt_pack(base, count, dt, 0, full, r->n);
    size_t bad = 0;
    for (size_t k = 0; k < r->n; k++)
        if (full[k] != pat(r->off[k]))
            bad++;
    CU_ASSERT_EQUAL(bad, 0);
    if (bad)
        printf("\n    pack: %zu of %zu bytes differ from the reference\n", bad, r->n);

    /* unpack writes exactly the reference bytes */
    memset(mem2, 0, span);
    rd_dt_unpack(base2, count, dt, 0, full, r->n);
    for (size_t k = 0; k < r->n; k++)
        base[r->off[k]] = 0;
    bad = 0;
    for (long a = lo; a < hi; a++) {
        unsigned char want = 0;
        if (base[a] == 0)
            want = pat(a);
        if ((unsigned char)base2[a] != want)
            bad++;
        base[a] = (char)pat(a);
    }
    CU_ASSERT_EQUAL(bad, 0);

    /* slices at random offsets and lengths agree with the full stream */
    for (int it = 0; it < 200 && r->n; it++) {
        size_t off = (size_t)rand_r(&seed) % r->n;
        size_t len = (size_t)rand_r(&seed) % (r->n - off + 1);
        memset(part, 0xee, len + 1);
        rd_dt_pack(base, count, dt, off, part, len);
        CU_ASSERT(memcmp(part, full + off, len) == 0);
        CU_ASSERT_EQUAL(part[len], 0xee);
        memset(mem2, 0, span);
        rd_dt_unpack(base2, count, dt, off, full + off, len);
        size_t wrong = 0;
        for (size_t k = 0; k < r->n; k++) {
            unsigned char want = k >= off && k < off + len ? pat(r->off[k]) : 0;
            if ((unsigned char)base2[r->off[k]] != want)
                wrong++;
        }
        CU_ASSERT_EQUAL(wrong, 0);
    }
    free(mem);
    free(mem2);
    free(full);
    free(part);
}

/* Checks dt for count 1 and 3 elements against its one-element reference. */
static void check_type(const rd_datatype_t *dt, const ref_t *r1)
{
    check_layout(dt, 1, r1);
    ref_t r3 = ref_count(r1, 3, (long)rd_dt_extent(dt));
    check_layout(dt, 3, &r3);
    free(r3.off);
}

static void check_bounds(const rd_datatype_t *dt, long lb, long ub, long tlb, long tub)
{
    CU_ASSERT_EQUAL(dt->lb, lb);
    CU_ASSERT_EQUAL(dt->ub, ub);
    CU_ASSERT_EQUAL(dt->true_lb, tlb);
    CU_ASSERT_EQUAL(dt->true_ub, tub);
    if (dt->lb != lb || dt->ub != ub || dt->true_lb != tlb || dt->true_ub != tub)
        printf("\n    bounds [%ld,%ld) true [%ld,%ld), expected [%ld,%ld) true [%ld,%ld)\n",
               (long)dt->lb, (long)dt->ub, (long)dt->true_lb, (long)dt->true_ub, lb, ub, tlb,
               tub);
}

/* ---- constructors ---- */

static void test_contiguous(void)
{
    rd_datatype_t *d = basic(8);
    rd_datatype_t *t = hold(rd_dt_build_hvector(1, 5, 0, d), 1, &d);
    ref_t rd = ref_basic(8);
    size_t bl = 5;
    long disp = 0, ext = 8;
    ref_t r = ref_blocks(1, &bl, &disp, &rd, &ext);
    check_type(t, &r);
    check_bounds(t, 0, 40, 0, 40);
    CU_ASSERT(t->contig);
    CU_ASSERT(rd_dt_is_contig(t, 7));
    CU_ASSERT_EQUAL(rd_dt_node_count(t), 1);
    rd_dt_release(d);
    rd_dt_release(t);
    free(r.off);
    free(rd.off);
}

static void test_vector(void)
{
    rd_datatype_t *d = basic(8);
    ref_t rd = ref_basic(8);
    /* vector(4, 2, 3) of doubles, then stride -3 and stride == blocklen */
    static const struct { int count, bl, stride; long lb, ub, tlb, tub; int contig; } cases[] = {
        { 4, 2, 3, 0, 88, 0, 88, 0 },
        { 4, 2, -3, -72, 16, -72, 16, 0 },
        { 4, 2, 2, 0, 64, 0, 64, 1 },
        { 3, 1, 5, 0, 88, 0, 88, 0 },
        { 0, 2, 3, 0, 0, 0, 0, 1 },
        { 3, 0, 3, 0, 0, 0, 0, 1 },
    };
    for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
        rd_dt_ref(d);
        rd_datatype_t *t =
            hold(rd_dt_build_hvector((size_t)cases[c].count, (size_t)cases[c].bl,
                                     (ptrdiff_t)cases[c].stride * 8, d), 1, &d);
        rd_dt_release(d);
        size_t bls[8];
        long disps[8], exts[8];
        ref_t olds[8];
        for (int i = 0; i < cases[c].count; i++) {
            bls[i] = cases[c].bl;
            disps[i] = (long)i * cases[c].stride * 8;
            exts[i] = 8;
            olds[i] = rd;
        }
        ref_t r = ref_blocks((size_t)cases[c].count, bls, disps, olds, exts);
        check_type(t, &r);
        check_bounds(t, cases[c].lb, cases[c].ub, cases[c].tlb, cases[c].tub);
        CU_ASSERT_EQUAL(t->contig, cases[c].contig);
        rd_dt_release(t);
        free(r.off);
    }
    rd_dt_release(d);
    free(rd.off);
}

static void test_indexed_struct(void)
{
    rd_datatype_t *c = basic(1), *i4 = basic(4), *d = basic(8);
    ref_t rc = ref_basic(1), ri = ref_basic(4), rd = ref_basic(8);
    /* hindexed of ints, with a zero-length block and descending displacements */
    size_t bls[4] = { 2, 0, 3, 1 };
    ptrdiff_t disps[4] = { 40, 4, 0, -8 };
    long ldisps[4] = { 40, 4, 0, -8 }, exts[4] = { 4, 4, 4, 4 };
    ref_t olds[4] = { ri, ri, ri, ri };
    rd_datatype_t *t = hold(rd_dt_build_struct(4, bls, 0, disps, NULL, i4), 1, &i4);
    ref_t r = ref_blocks(4, bls, ldisps, olds, exts);
    check_type(t, &r);
    check_bounds(t, -8, 48, -8, 48);
    CU_ASSERT(!t->dense);
    rd_dt_release(t);
    free(r.off);

    /* struct { char c; double d[2]; int i; } with its C padding: extent 32 */
    struct s { char c; double d[2]; int i; };
    size_t sbl[3] = { 1, 2, 1 };
    ptrdiff_t sd[3] = { offsetof(struct s, c), offsetof(struct s, d), offsetof(struct s, i) };
    long lsd[3] = { (long)sd[0], (long)sd[1], (long)sd[2] }, sext[3] = { 1, 8, 4 };
    rd_datatype_t *types[3] = { c, d, i4 };
    ref_t sold[3] = { rc, rd, ri };
    t = rd_dt_build_struct(3, sbl, 0, sd, types, NULL);
    hold(t, 3, types);
    r = ref_blocks(3, sbl, lsd, sold, sext);
    check_type(t, &r);
    check_bounds(t, 0, (long)sizeof(struct s), 0, 28);
    CU_ASSERT_EQUAL(rd_dt_extent(t), sizeof(struct s));
    CU_ASSERT_EQUAL(t->size, 21);
    /* basic elements of partial streams: c, d, d, i per element */
    CU_ASSERT_EQUAL(rd_dt_elements(t, 0), 0);
    CU_ASSERT_EQUAL(rd_dt_elements(t, 1), 1);
    CU_ASSERT_EQUAL(rd_dt_elements(t, 5), -1);
    CU_ASSERT_EQUAL(rd_dt_elements(t, 9), 2);
    CU_ASSERT_EQUAL(rd_dt_elements(t, 17), 3);
    CU_ASSERT_EQUAL(rd_dt_elements(t, 21), 4);
    CU_ASSERT_EQUAL(rd_dt_elements(t, 42 + 17), 11);
    rd_dt_release(t);
    free(r.off);

    /* the same old type everywhere: no padding (as MPICH does) */
    size_t bl2[2] = { 1, 1 };
    ptrdiff_t d2[2] = { 0, 12 };
    rd_datatype_t *dd[2] = { d, d };
    t = hold(rd_dt_build_struct(2, bl2, 0, d2, dd, NULL), 2, dd);
    check_bounds(t, 0, 20, 0, 20);
    rd_dt_release(t);

    rd_dt_release(c);
    rd_dt_release(i4);
    rd_dt_release(d);
    free(rc.off);
    free(ri.off);
    free(rd.off);
}

/* vector of struct of vector, resized, and the old types freed first */
static void test_nested(void)
{
    rd_datatype_t *i4 = basic(4), *d = basic(8);
    ref_t ri = ref_basic(4), rd = ref_basic(8);
    /* inner: vector(3, 1, 2) of ints: ext 20 */
    rd_datatype_t *inner = hold(rd_dt_build_hvector(3, 1, 8, i4), 1, &i4);
    long idisps[3] = { 0, 8, 16 };
    size_t ibls[3] = { 1, 1, 1 };
    ref_t rin_olds[3] = { ri, ri, ri };
    long iexts[3] = { 4, 4, 4 };
    ref_t rin = ref_blocks(3, ibls, idisps, rin_olds, iexts);
    /* struct { double at 0; inner at 12 (2 of them); } */
    size_t sbl[2] = { 1, 2 };
    ptrdiff_t sd[2] = { 0, 12 };
    rd_datatype_t *types[2] = { d, inner };
    rd_datatype_t *st = hold(rd_dt_build_struct(2, sbl, 0, sd, types, NULL), 2, types);
    long lsd[2] = { 0, 12 }, sext[2] = { 8, 20 };
    ref_t sold[2] = { rd, rin };
    ref_t rst = ref_blocks(2, sbl, lsd, sold, sext);
    /* ub = 12 + 40 = 52, padded to 56 */
    check_bounds(st, 0, 56, 0, 52);
    /* outer: vector(4, 2, -3) of the struct */
    rd_datatype_t *outer = hold(rd_dt_build_hvector(4, 2, -3 * 56, st), 1, &st);
    size_t obls[4] = { 2, 2, 2, 2 };
    long od[4] = { 0, -168, -336, -504 }, oext[4] = { 56, 56, 56, 56 };
    ref_t oolds[4] = { rst, rst, rst, rst };
    ref_t rout = ref_blocks(4, obls, od, oolds, oext);
    /* the components are gone from the user's view; outer keeps them */
    rd_dt_release(d);
    rd_dt_release(i4);
    rd_dt_release(inner);
    rd_dt_release(st);
    check_type(outer, &rout);
    check_bounds(outer, -504, 112, -504, 108);
    /* resized to a smaller extent: elements interleave */
    rd_datatype_t *rs = hold(rd_dt_build_resized(outer, 8, 24), 1, &outer);
    check_bounds(rs, 8, 32, -504, 108);
    ref_t r1 = ref_count(&rout, 1, 0);
    check_layout(rs, 1, &r1);
    ref_t r5 = ref_count(&rout, 5, 24);
    /* overlapping elements: unpack of overlapping bytes is order-dependent,
     * so only compare packing */
    unsigned char *buf = malloc(2000), *out = malloc(rout.n * 5);
    char *base = (char *)buf + 1000;
    for (long a = -1000; a < 1000; a++)
        base[a] = (char)pat(a);
    rd_dt_pack(base, 5, rs, 0, out, r5.n);
    size_t bad = 0;
    for (size_t k = 0; k < r5.n; k++)
        bad += out[k] != pat(r5.off[k]);
    CU_ASSERT_EQUAL(bad, 0);
    free(buf);
    free(out);
    rd_dt_release(outer);
    rd_dt_release(rs);
    free(ri.off);
    free(rd.off);
    free(rin.off);
    free(rst.off);
    free(rout.off);
    free(r1.off);
    free(r5.off);
}

static void test_dup_resized_contig(void)
{
    rd_datatype_t *d = basic(8);
    ref_t rd = ref_basic(8);
    rd_datatype_t *dup = hold(rd_dt_build_dup(d), 1, &d);
    check_type(dup, &rd);
    CU_ASSERT(dup->contig);
    /* resized double with extent 16: dense per element, not contiguous */
    rd_datatype_t *rs = hold(rd_dt_build_resized(dup, 0, 16), 1, &dup);
    CU_ASSERT(!rs->contig);
    CU_ASSERT(rd_dt_is_contig(rs, 1));
    CU_ASSERT(!rd_dt_is_contig(rs, 2));
    check_type(rs, &rd);
    /* and a contiguous of it, resized back: a vector that is not contiguous */
    rd_datatype_t *c3 = hold(rd_dt_build_hvector(1, 3, 0, rs), 1, &rs);
    check_bounds(c3, 0, 48, 0, 40);
    CU_ASSERT(!c3->dense);
    rd_dt_release(d);
    rd_dt_release(dup);
    rd_dt_release(rs);
    rd_dt_release(c3);
    free(rd.off);
}

/* 3-D subarray of ints in C and Fortran order against explicit loops. */
static void test_subarray(void)
{
    rd_datatype_t *i4 = basic(4);
    const int sizes[3] = { 5, 4, 6 }, subs[3] = { 2, 3, 4 }, starts[3] = { 1, 0, 2 };
    for (int fortran = 0; fortran <= 1; fortran++) {
        rd_dt_ref(i4);
        rd_datatype_t *t = hold(rd_dt_build_subarray(3, sizes, subs, starts, fortran, i4), 1, &i4);
        rd_dt_release(i4);
        ref_t r = { 0 };
        /* slowest index first: a, then b, then c (fastest) */
        const int *s = sizes, *u = subs, *o = starts;
        int slow = fortran ? 2 : 0, mid = 1, fast = fortran ? 0 : 2;
        for (int a = o[slow]; a < o[slow] + u[slow]; a++)
            for (int b = o[mid]; b < o[mid] + u[mid]; b++)
                for (int c = o[fast]; c < o[fast] + u[fast]; c++) {
                    long idx = ((long)a * s[mid] + b) * s[fast] + c;
                    for (int k = 0; k < 4; k++)
                        ref_add(&r, idx * 4 + k);
                }
        check_type(t, &r);
        CU_ASSERT_EQUAL(t->lb, 0);
        CU_ASSERT_EQUAL(t->ub, 5 * 4 * 6 * 4);
        CU_ASSERT_EQUAL(t->true_lb, r.off[0]);
        CU_ASSERT(rd_dt_node_count(t) <= 4);
        rd_dt_release(t);
        free(r.off);
    }
    /* a full-width C slab is contiguous per element */
    const int s2[2] = { 4, 5 }, u2[2] = { 2, 5 }, o2[2] = { 1, 0 };
    rd_datatype_t *t = hold(rd_dt_build_subarray(2, s2, u2, o2, 0, i4), 1, &i4);
    CU_ASSERT(t->dense);
    CU_ASSERT_EQUAL(t->true_lb, 20);
    CU_ASSERT(!t->contig);
    rd_dt_release(t);
    rd_dt_release(i4);
}

/* Owner of index x of a dimension (g, dist, darg, p): its process coordinate. */
static int owner(int x, int g, int dist, int darg, int p)
{
    if (dist == RD_DT_DIST_NONE)
        return 0;
    if (dist == RD_DT_DIST_BLOCK) {
        int b = darg == RD_DT_DARG_DEFAULT ? (g + p - 1) / p : darg;
        return x / b;
    }
    int k = darg == RD_DT_DARG_DEFAULT ? 1 : darg;
    return (x / k) % p;
}

/* 2-D darrays: every process's part, in order, and together a partition. */
static void test_darray(void)
{
    rd_datatype_t *d = basic(8);
    static const struct { int g[2], dist[2], darg[2], p[2], fortran; } cases[] = {
        { { 7, 10 }, { RD_DT_DIST_BLOCK, RD_DT_DIST_CYCLIC }, { -1, 3 }, { 2, 3 }, 0 },
        { { 7, 10 }, { RD_DT_DIST_CYCLIC, RD_DT_DIST_BLOCK }, { 2, -1 }, { 3, 2 }, 1 },
        { { 9, 5 }, { RD_DT_DIST_CYCLIC, RD_DT_DIST_NONE }, { -1, -1 }, { 4, 1 }, 0 },
        { { 6, 6 }, { RD_DT_DIST_BLOCK, RD_DT_DIST_BLOCK }, { 4, -1 }, { 2, 2 }, 0 },
        { { 3, 8 }, { RD_DT_DIST_CYCLIC, RD_DT_DIST_CYCLIC }, { 2, 3 }, { 4, 2 }, 1 },
    };
    for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
        const int *g = cases[c].g, *p = cases[c].p;
        int size = p[0] * p[1], total = 0;
        for (int rank = 0; rank < size; rank++) {
            rd_dt_ref(d);
            rd_datatype_t *t = hold(rd_dt_build_darray(size, rank, 2, g, cases[c].dist,
                                                       cases[c].darg, p, cases[c].fortran, d),
                                    1, &d);
            rd_dt_release(d);
            int coord[2] = { rank / p[1], rank % p[1] };
            ref_t r = { 0 };
            int slow = cases[c].fortran ? 1 : 0, fast = 1 - slow;
            for (int a = 0; a < g[slow]; a++)
                for (int b = 0; b < g[fast]; b++) {
                    if (owner(a, g[slow], cases[c].dist[slow], cases[c].darg[slow], p[slow]) !=
                            coord[slow] ||
                        owner(b, g[fast], cases[c].dist[fast], cases[c].darg[fast], p[fast]) !=
                            coord[fast])
                        continue;
                    long idx = (long)a * g[fast] + b;
                    for (int k = 0; k < 8; k++)
                        ref_add(&r, idx * 8 + k);
                }
            total += (int)(r.n / 8);
            if (r.n)
                check_type(t, &r);
            else
                CU_ASSERT_EQUAL(t->size, 0);
            CU_ASSERT_EQUAL(t->lb, 0);
            CU_ASSERT_EQUAL(t->ub, (long)g[0] * g[1] * 8);
            rd_dt_release(t);
            free(r.off);
        }
        CU_ASSERT_EQUAL(total, g[0] * g[1]);
    }
    rd_dt_release(d);
}

/* A vector of a million doubles is a few nodes, and packs correctly. */
static void test_large_vector(void)
{
    rd_datatype_t *d = basic(8);
    size_t n = 1000000;
    rd_datatype_t *t = hold(rd_dt_build_hvector(n, 1, 16, d), 1, &d);
    CU_ASSERT(rd_dt_node_count(t) <= 2);
    CU_ASSERT_EQUAL(t->size, n * 8);
    double *src = malloc(2 * n * sizeof(double)), *packed = malloc(n * sizeof(double)),
           *dst = calloc(2 * n, sizeof(double));
    CU_ASSERT_FATAL(src && packed && dst);
    for (size_t i = 0; i < 2 * n; i++)
        src[i] = (double)i;
    rd_dt_pack(src, 1, t, 0, packed, n * 8);
    size_t bad = 0;
    for (size_t i = 0; i < n; i++)
        bad += packed[i] != (double)(2 * i);
    CU_ASSERT_EQUAL(bad, 0);
    /* unpack in odd-sized fragments, as a rendezvous stream would */
    for (size_t off = 0; off < n * 8; off += 65533) {
        size_t len = n * 8 - off < 65533 ? n * 8 - off : 65533;
        rd_dt_unpack(dst, 1, t, off, (char *)packed + off, len);
    }
    bad = 0;
    for (size_t i = 0; i < 2 * n; i++)
        bad += dst[i] != (i % 2 ? 0.0 : (double)i);
    CU_ASSERT_EQUAL(bad, 0);
    CU_ASSERT_EQUAL(rd_dt_elements(t, n * 8), (long long)n);
    free(src);
    free(packed);
    free(dst);
    rd_dt_release(t);
    rd_dt_release(d);
}

/* MPI_BOTTOM: a NULL buffer with absolute displacements. */
static void test_bottom(void)
{
    rd_datatype_t *i4 = basic(4);
    int a[3] = { 1, 2, 3 }, b[2] = { 4, 5 }, out[5], back_a[3] = { 0 }, back_b[2] = { 0 };
    size_t bls[2] = { 3, 2 };
    ptrdiff_t disps[2] = { (ptrdiff_t)(uintptr_t)a, (ptrdiff_t)(uintptr_t)b };
    rd_datatype_t *t = hold(rd_dt_build_struct(2, bls, 0, disps, NULL, i4), 1, &i4);
    rd_dt_pack(NULL, 1, t, 0, out, sizeof(out));
    CU_ASSERT(out[0] == 1 && out[2] == 3 && out[3] == 4 && out[4] == 5);
    rd_dt_pack(NULL, 1, t, 8, out, 8); /* a[2], b[0] */
    CU_ASSERT(out[0] == 3 && out[1] == 4);
    int in[5] = { 10, 20, 30, 40, 50 };
    disps[0] = (ptrdiff_t)(uintptr_t)back_a;
    disps[1] = (ptrdiff_t)(uintptr_t)back_b;
    rd_datatype_t *u = hold(rd_dt_build_struct(2, bls, 0, disps, NULL, i4), 1, &i4);
    rd_dt_unpack(NULL, 1, u, 0, in, sizeof(in));
    CU_ASSERT(back_a[0] == 10 && back_a[2] == 30 && back_b[0] == 40 && back_b[1] == 50);
    /* a single absolute block is contiguous: p2p sends from contig_ptr */
    size_t one = 2;
    ptrdiff_t d1 = (ptrdiff_t)(uintptr_t)a;
    rd_datatype_t *c = hold(rd_dt_build_struct(1, &one, 0, &d1, NULL, i4), 1, &i4);
    CU_ASSERT(rd_dt_is_contig(c, 1));
    CU_ASSERT_PTR_EQUAL(rd_dt_contig_ptr(NULL, c), a);
    rd_dt_release(c);
    rd_dt_release(t);
    rd_dt_release(u);
    rd_dt_release(i4);
}

/* Get_elements on pair-like layouts: a list of two leaves of different sizes. */
static void test_elements(void)
{
    rd_datatype_t *d = basic(8), *i4 = basic(4);
    size_t bls[2] = { 1, 1 };
    ptrdiff_t disps[2] = { 0, 8 };
    rd_datatype_t *types[2] = { d, i4 };
    rd_datatype_t *p = hold(rd_dt_build_struct(2, bls, 0, disps, types, NULL), 2, types);
    CU_ASSERT_EQUAL(rd_dt_extent(p), 16);
    CU_ASSERT_EQUAL(p->size, 12);
    CU_ASSERT_EQUAL(rd_dt_elements(p, 12 * 3), 6);
    CU_ASSERT_EQUAL(rd_dt_elements(p, 12 * 3 + 8), 7);
    CU_ASSERT_EQUAL(rd_dt_elements(p, 12 * 3 + 4), -1);
    /* a vector of pairs, partially received */
    rd_datatype_t *v = hold(rd_dt_build_hvector(5, 2, 48, p), 1, &p);
    CU_ASSERT_EQUAL(rd_dt_elements(v, v->size), 20);
    CU_ASSERT_EQUAL(rd_dt_elements(v, 24 + 12 + 8), 7);
    CU_ASSERT_EQUAL(rd_dt_elements(v, 24 + 12 + 9), -1);
    rd_dt_release(d);
    rd_dt_release(i4);
    rd_dt_release(p);
    rd_dt_release(v);
}

int main(void)
{
    const char *env = getenv("RD_TEST_SEED");
    seed = env ? (unsigned)strtoul(env, NULL, 0) : 20240611u;
    printf("test_datatype: seed %u (RD_TEST_SEED to replay)\n", seed);
    static const rd_unit_test_t tests[] = {
        { "contiguous", test_contiguous },
        { "vector / hvector (negative and dense strides, empty)", test_vector },
        { "hindexed and struct (gaps, padding, elements)", test_indexed_struct },
        { "vector of struct of vector, resized, old types freed", test_nested },
        { "dup, resized, contiguity", test_dup_resized_contig },
        { "subarray C and Fortran order", test_subarray },
        { "darray block / cyclic / none", test_darray },
        { "vector of a million doubles: O(1) nodes", test_large_vector },
        { "MPI_BOTTOM with absolute displacements", test_bottom },
        { "Get_elements on pairs and partial streams", test_elements },
    };
    return rd_unit_run("datatype", tests, RD_UNIT_COUNT(tests));
}
