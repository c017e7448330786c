/*
 * Unit tests of the rc transport's wire helpers (src/transport/verbs/rc/rc.h)
 * that the RDMA-Write eager path depends on, without a device: the lap tag of
 * a ring slot, the packing of the immediate, and the rebuilding of a ring
 * position from the 8 bits the immediate carries.
 */
#include <stdint.h>

#include <CUnit/Basic.h>

#include "unit_main.h"

#include "transport/verbs/rc/rc.h"

/* seq is never 0 (the value of a consumed slot) and differs between two
 * consecutive laps of the same slot, for every ring size allowed. */
static void test_slot_seq(void)
{
    for (unsigned ns = 2; ns <= RD_RING_SLOTS_MAX; ns++) {
        for (uint32_t n = 0; n < 300u * ns; n++) {
            uint8_t a = rd_rc_slot_seq(n, ns), b = rd_rc_slot_seq(n + ns, ns);
            CU_ASSERT_NOT_EQUAL(a, 0);
            CU_ASSERT_NOT_EQUAL(a, b);
            CU_ASSERT_EQUAL(a, rd_rc_slot_seq(n - n % ns, ns));   /* same lap, same tag */
        }
    }
    /* Around the 32-bit wrap of the message counter. */
    CU_ASSERT_NOT_EQUAL(rd_rc_slot_seq(UINT32_MAX, 16), 0);
}

static void test_imm_packing(void)
{
    uint32_t imm = rd_rc_imm_ring(rd_rc_imm(RD_RC_IMM_RING_ACK, 0xfffe), 0x1ab);
    CU_ASSERT_EQUAL(rd_rc_imm_kind(imm), RD_RC_IMM_RING_ACK);
    CU_ASSERT_EQUAL(rd_rc_imm_credits(imm), 0xfffe);
    CU_ASSERT_EQUAL(rd_rc_imm_ring_ack(imm), 0xab);   /* only 8 bits travel */
    imm = rd_rc_imm(RD_RC_IMM_MSG, 7);
    CU_ASSERT_EQUAL(rd_rc_imm_ring_ack(imm), 0);
    /* BYE (finalize's goodbye) is a kind of its own, credits ride along. */
    imm = rd_rc_imm(RD_RC_IMM_BYE, 3);
    CU_ASSERT_EQUAL(rd_rc_imm_kind(imm), RD_RC_IMM_BYE);
    CU_ASSERT_EQUAL(rd_rc_imm_credits(imm), 3);
    CU_ASSERT_NOT_EQUAL(RD_RC_IMM_BYE, RD_RC_IMM_FLUSH);
    CU_ASSERT_NOT_EQUAL(RD_RC_IMM_BYE, RD_RC_IMM_RING_ACK);
    /* The header-only and ring control messages in flight per peer (two
     * CREDITs, RTU, FLUSH, BYE, RING, RING_ACK) fit the reserve. */
    CU_ASSERT(RD_RC_RESERVE >= 7);
}

/* Every true count within 255 of written comes back exactly, across the
 * 32-bit wrap. */
static void test_ring_count(void)
{
    const uint32_t bases[] = { 0, 5, 255, 256, 1000, UINT32_MAX - 3, UINT32_MAX };
    for (unsigned i = 0; i < sizeof(bases) / sizeof(bases[0]); i++) {
        for (uint32_t behind = 0; behind <= 255; behind++) {
            uint32_t written = bases[i] + 300, truth = written - behind;
            CU_ASSERT_EQUAL(rd_rc_ring_count(written, truth & 0xffu), truth);
        }
    }
}

static void test_sizes(void)
{
    CU_ASSERT_EQUAL(sizeof(rd_rc_slot_t), 16);
    CU_ASSERT_EQUAL(sizeof(rd_rc_ring_msg_t), 24);
    CU_ASSERT_EQUAL(sizeof(rd_rc_prefix_t), 4);
    CU_ASSERT(RD_RING_SLOTS_MAX <= 255);   /* rd_rc_ring_count's premise */
}

int main(void)
{
    static const rd_unit_test_t tests[] = {
        { "slot seq", test_slot_seq },
        { "imm packing", test_imm_packing },
        { "ring count", test_ring_count },
        { "sizes", test_sizes },
    };
    return rd_unit_run("rc_wire", tests, RD_UNIT_COUNT(tests));
}
