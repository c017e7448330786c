/*
 * The notification ring of a window's control block (src/rma/rma_ring.c):
 * zero-filled memory is an empty ring, notifications come out in claim
 * order across many laps, a full ring refuses without losing anything,
 * and producer threads racing a consumer lose nothing, keep each
 * producer's order and publish the stores made before the push.
 */
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>

#include "rma/rma_ring.h"
#include "unit_main.h"

static rd_rma_ring_t *new_ring(void)
{
    rd_rma_ring_t *r = calloc(1, sizeof(*r));
    CU_ASSERT_FATAL(r != NULL);
    return r;
}

static void test_empty(void)
{
    rd_rma_ring_t *r = new_ring();
    int s = -1, t = -1;
    CU_ASSERT_EQUAL(rd_rma_ring_pop(r, &s, &t), 0);
    CU_ASSERT_EQUAL(rd_rma_ring_taken(r), 0);
    CU_ASSERT_EQUAL(rd_rma_ring_push(r, 3, 7), 1);
    CU_ASSERT_EQUAL(rd_rma_ring_pop(r, &s, &t), 1);
    CU_ASSERT_EQUAL(s, 3);
    CU_ASSERT_EQUAL(t, 7);
    CU_ASSERT_EQUAL(rd_rma_ring_pop(r, &s, &t), 0);
    CU_ASSERT_EQUAL(rd_rma_ring_taken(r), 1);
    free(r);
}

/* Batches that do not divide the ring's size: slots are reused at every
 * offset, over many laps. */
static void test_wrap(void)
{
    rd_rma_ring_t *r = new_ring();
    int next_in = 0, next_out = 0;
    for (int round = 0; round < 40; round++) {
        for (int i = 0; i < 97; i++, next_in++)
            CU_ASSERT_EQUAL_FATAL(rd_rma_ring_push(r, next_in % 5, next_in), 1);
        int s, t;
        while (rd_rma_ring_pop(r, &s, &t)) {
            CU_ASSERT_EQUAL_FATAL(t, next_out);
            CU_ASSERT_EQUAL_FATAL(s, next_out % 5);
            next_out++;
        }
        CU_ASSERT_EQUAL_FATAL(next_out, next_in);
    }
    CU_ASSERT_EQUAL(rd_rma_ring_taken(r), (uint64_t)next_out);
    free(r);
}

static void test_full(void)
{
    rd_rma_ring_t *r = new_ring();
    int s, t;
    for (int lap = 0; lap < 3; lap++) {
        int base = lap * 1000;
        for (int i = 0; i < RD_RMA_RING_SLOTS; i++)
            CU_ASSERT_EQUAL_FATAL(rd_rma_ring_push(r, 1, base + i), 1);
        CU_ASSERT_EQUAL(rd_rma_ring_push(r, 1, -1), 0);
        CU_ASSERT_EQUAL(rd_rma_ring_push(r, 2, -2), 0);
        /* One taken: one slot free, the refused ones left no trace. */
        CU_ASSERT_EQUAL_FATAL(rd_rma_ring_pop(r, &s, &t), 1);
        CU_ASSERT_EQUAL(t, base);
        CU_ASSERT_EQUAL(rd_rma_ring_push(r, 1, base + RD_RMA_RING_SLOTS), 1);
        CU_ASSERT_EQUAL(rd_rma_ring_push(r, 1, -3), 0);
        for (int i = 1; i <= RD_RMA_RING_SLOTS; i++) {
            CU_ASSERT_EQUAL_FATAL(rd_rma_ring_pop(r, &s, &t), 1);
            CU_ASSERT_EQUAL_FATAL(t, base + i);
        }
        CU_ASSERT_EQUAL(rd_rma_ring_pop(r, &s, &t), 0);
    }
    free(r);
}

/* A producer that claimed a slot and has not written it yet holds back
 * the notifications claimed after it. */
static void test_claimed_unwritten(void)
{
    rd_rma_ring_t *r = new_ring();
    atomic_store(&r->tail, 1);   /* position 0 claimed, its turn not yet set */
    CU_ASSERT_EQUAL(rd_rma_ring_push(r, 1, 11), 1);
    int s, t;
    CU_ASSERT_EQUAL(rd_rma_ring_pop(r, &s, &t), 0);
    r->slot[0].source = 0;
    r->slot[0].tag = 10;
    atomic_store(&r->slot[0].turn, 1);
    CU_ASSERT_EQUAL(rd_rma_ring_pop(r, &s, &t), 1);
    CU_ASSERT_EQUAL(t, 10);
    CU_ASSERT_EQUAL(rd_rma_ring_pop(r, &s, &t), 1);
    CU_ASSERT_EQUAL(t, 11);
    free(r);
}

#define PRODUCERS 4
#define PER_PRODUCER 20000

static rd_rma_ring_t *shared_ring;
static int payload[PRODUCERS][PER_PRODUCER];

static void *producer(void *arg)
{
    int id = (int)(intptr_t)arg;
    for (int i = 0; i < PER_PRODUCER; i++) {
        payload[id][i] = i * 3 + id;
        while (!rd_rma_ring_push(shared_ring, id, i))
            sched_yield();
    }
    return NULL;
}

static void test_threads(void)
{
    shared_ring = new_ring();
    memset(payload, 0, sizeof(payload));
    pthread_t th[PRODUCERS];
    for (int i = 0; i < PRODUCERS; i++)
        CU_ASSERT_FATAL(pthread_create(&th[i], NULL, producer, (void *)(intptr_t)i) == 0);
    int next[PRODUCERS] = { 0 }, bad = 0;
    long got = 0, total = (long)PRODUCERS * PER_PRODUCER;
    while (got < total && !bad) {
        int s, t;
        if (!rd_rma_ring_pop(shared_ring, &s, &t)) {
            sched_yield();
            continue;
        }
        got++;
        if (s < 0 || s >= PRODUCERS || t != next[s] || payload[s][t] != t * 3 + s)
            bad = 1;
        else
            next[s]++;
    }
    for (int i = 0; i < PRODUCERS; i++)
        pthread_join(th[i], NULL);
    CU_ASSERT_EQUAL(bad, 0);
    CU_ASSERT_EQUAL(got, total);
    int s, t;
    CU_ASSERT_EQUAL(rd_rma_ring_pop(shared_ring, &s, &t), 0);
    free(shared_ring);
}

int main(void)
{
    static const rd_unit_test_t tests[] = {
        { "zero-filled memory is an empty ring", test_empty },
        { "claim order over many laps", test_wrap },
        { "a full ring refuses and loses nothing", test_full },
        { "an unwritten claimed slot holds back later ones", test_claimed_unwritten },
        { "racing producers keep their order", test_threads },
    };
    return rd_unit_run("rma_ring", tests, RD_UNIT_COUNT(tests));
}
