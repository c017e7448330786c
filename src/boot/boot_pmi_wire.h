/*
 * The connection to a process manager that speaks MPICH's simple PMI wire
 * protocols, shared by the PMI-1 (boot_pmi1.c) and PMI-2 (boot_pmi2.c)
 * back ends: opening it (PMI_FD, or PMI_PORT with PMI_ID), agreeing on the
 * version, reading and writing its messages, and what both versions store
 * alike: rd_boot_put's binary values as hex text split across keys, and
 * MPICH's PMI_process_mapping.
 *
 * Both versions start with the same line exchange:
 *   -> cmd=init pmi_version=2 pmi_subversion=0
 *   <- cmd=response_to_init pmi_version=2 pmi_subversion=0 rc=0
 * A server that only knows PMI-1 answers pmi_version=1 (it then speaks
 * PMI-1 on this connection) or a non-zero rc (we ask again for 1.1; over
 * PMI_PORT on a new connection that begins with PMI-1's initack).
 */
#ifndef RD_BOOT_BOOT_PMI_WIRE_H
#define RD_BOOT_BOOT_PMI_WIRE_H

#include <stddef.h>

#include "boot/boot_backend.h"

#define RD_PMIW_MSG_MAX 4096    /* longest message we send or accept */

/* The connection. One per process; requests are serialized by the back ends. */
typedef struct rd_pmiw {
    int fd;
    int version;        /* 1 or 2, agreed by rd_pmiw_connect */
    int rank, size;     /* from PMI-1's initack handshake, else -1 */
    char in[RD_PMIW_MSG_MAX];   /* bytes read but not consumed yet */
    size_t in_len;
} rd_pmiw_t;

extern rd_pmiw_t rd_pmiw;

/* Which versions rd_pmiw_connect may agree on. */
enum { RD_PMIW_ANY, RD_PMIW_ONLY1, RD_PMIW_ONLY2 };

/* Opens the connection the environment names and agrees on a version
 * (PMI-2 when the server offers it, unless `want` says otherwise). Returns
 * RD_OK or RD_EBOOT with a detail; closed again on failure. */
int rd_pmiw_connect(int want);
void rd_pmiw_close(void);

int rd_pmiw_write(const char *s, size_t len);
/* One '\n'-terminated line, without its '\n', into line[RD_PMIW_MSG_MAX]. */
int rd_pmiw_read_line(char *line);
/* Exactly n bytes (n < RD_PMIW_MSG_MAX) into buf, then a '\0'. */
int rd_pmiw_read_n(char *buf, size_t n);

/* Finds key's value among msg's "key=value" pairs separated by sep (' '
 * for PMI-1, ';' for PMI-2) and copies it to val[cap]. Returns RD_OK,
 * RD_EINVAL when absent, RD_ENOMEM when it does not fit. */
int rd_pmiw_field(const char *msg, char sep, const char *key, char *val, size_t cap);
/* The same for an integer; records a detail naming proto when absent. */
int rd_pmiw_number(const char *msg, char sep, const char *key, long *out, const char *proto);

/* Integer environment variable, or dflt when unset or not an integer. */
long rd_pmiw_env_long(const char *name, long dflt);

/* Fills info's node_id, local_rank, local_size and local_ranks (rank and
 * size are set) from MPICH's PMI_process_mapping value
 * "(vector,(n0,count,ppn),...)", or, when it is NULL or malformed, from the
 * host names every rank publishes through ops (the ranks of one host are a
 * node, named by the lowest of them). */
int rd_pmiw_set_nodes(rd_boot_info_t *info, const char *mapping, const rd_boot_ops_t *ops);

/*
 * Binary values over a store of short text values: rank r's value for key
 * k is "<len>:<hex>" under "k@r", continued under "k@r#1", "k@r#2", ...
 * when longer than one value of at most vallen characters.
 */
typedef struct rd_pmiw_kvs {
    const char *proto;  /* "PMI-1", "PMI-2": named in details */
    int keylen_max;     /* the server's limits, terminating '\0' included */
    int vallen_max;
    /* Store or read one text value. get returns RD_EINVAL when the key is
     * absent, RD_EBOOT (with a detail) when the exchange fails. */
    int (*put)(const char *key, const char *text);
    int (*get)(const char *key, char *text, size_t cap);
} rd_pmiw_kvs_t;

int rd_pmiw_put_bytes(const rd_pmiw_kvs_t *kvs, int rank, const char *key, const void *val,
                      size_t len);
/* Returns RD_OK, RD_EINVAL (no such value), RD_ENOMEM (*len is the size
 * needed) or RD_EBOOT. */
int rd_pmiw_get_bytes(const rd_pmiw_kvs_t *kvs, int rank, const char *key, void *buf,
                      size_t *len);

#endif
