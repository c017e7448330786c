/*
 * What this machine offers rdmpi, found by probing: which transports are
 * built and usable here, and the RDMA devices with their ports, GIDs and the
 * GID index a rank would choose. Used by rdmpi_info only.
 */
#ifndef RD_INFO_PROBE_H
#define RD_INFO_PROBE_H

#include <stddef.h>

#define RD_INFO_TP_MAX 4
#define RD_INFO_DEV_MAX 8
#define RD_INFO_PORT_MAX 4
#define RD_INFO_GID_MAX 32

typedef struct rd_info_tp {
    const char *name;           /* "shm", "tcp", "rc", "ud" */
    int built;
    int usable;
    char how[256];              /* what the probe did and found */
} rd_info_tp_t;

typedef struct rd_info_gid {
    int index;
    char text[48];              /* fe80:0000:...: the 16 bytes in groups of two */
    const char *type;           /* "IB", "RoCE v1", "RoCE v2" */
} rd_info_gid_t;

typedef struct rd_info_port {
    int num;
    const char *state;          /* "active", "down", ... */
    const char *link;           /* "InfiniBand", "Ethernet" */
    int mtu;                    /* active MTU in bytes */
    int lid;
    int ngid;                   /* non-empty GIDs listed (at most RD_INFO_GID_MAX) */
    rd_info_gid_t gid[RD_INFO_GID_MAX];
    int chosen;                 /* GID index a rank would use; -1: LID routing or none */
    char why[256];              /* how chosen, or why none */
} rd_info_port_t;

typedef struct rd_info_dev {
    char name[64];
    int nports;
    rd_info_port_t port[RD_INFO_PORT_MAX];
} rd_info_dev_t;

/* Fills tp with every transport rdmpi knows (built or not); returns the count. */
int rd_info_probe_transports(rd_info_tp_t *tp, int max);

/* Fills dev with the RDMA devices found (none without verbs or devices);
 * returns the count. why gets the reason when there are none. */
int rd_info_devices(rd_info_dev_t *dev, int max, char *why, size_t whylen);

#endif
