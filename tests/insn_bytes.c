// SPDX-License-Identifier: GPL-2.0
/*
 * The hand-encoded instructions of libbpf.h, byte for byte, in this
 * machine's order: the kernel reads struct bpf_insn in native order, where
 * the two register nibbles of byte 1 swap places (dst_reg is the low nibble
 * on little-endian machines, the high one on big-endian ones) and off and
 * imm are stored as this machine stores them. A macro that set the wrong
 * field, or a build that packed the nibbles for the other order, would
 * still compile and load, with the registers silently exchanged.
 */
#include <string.h>
#include "kselftest_harness.h"
#include "libbpf.h"

#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define REGS(dst, src)	(((src) << 4) | (dst))
#else
#define REGS(dst, src)	(((dst) << 4) | (src))
#endif

/* put_u32: V's four bytes at P, spelled out for this machine's order */
static void put_u32(unsigned char *p, unsigned int v)
{
	int i;

	for (i = 0; i < 4; i++) {
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
		p[i] = v >> (8 * i);
#else
		p[3 - i] = v >> (8 * i);
#endif
	}
}

static void expect_bytes(struct __test_metadata *_metadata,
			 const struct bpf_insn *insn, const unsigned char *want,
			 size_t n)
{
	const unsigned char *got = (const unsigned char *)insn;
	size_t i;

	for (i = 0; i < n && got[i] == want[i]; i++)
		;
	EXPECT_EQ(n, i) TH_LOG("byte %zu is 0x%02x, want 0x%02x", i,
			       got[i < n ? i : 0], want[i < n ? i : 0]);
}

TEST(mov64_reg_puts_dst_and_src_in_their_nibbles)
{
	struct bpf_insn insn = BPF_MOV64_REG(BPF_REG_1, BPF_REG_2);
	const unsigned char want[] = { 0xbf, REGS(1, 2), 0, 0, 0, 0, 0, 0 };

	ASSERT_EQ(sizeof(insn), sizeof(want));
	expect_bytes(_metadata, &insn, want, sizeof(want));
}

TEST(mov64_imm_stores_imm_in_machine_order)
{
	struct bpf_insn insn = BPF_MOV64_IMM(BPF_REG_3, 0x01020304);
	unsigned char want[8] = { 0xb7, REGS(3, 0), 0, 0 };

	put_u32(want + 4, 0x01020304);

	expect_bytes(_metadata, &insn, want, sizeof(want));
}

TEST(ld_map_fd_is_two_slots_with_the_pseudo_source)
{
	struct bpf_insn insn[2] = { BPF_LD_MAP_FD(BPF_REG_2, 7) };
	unsigned char want[16] = { 0x18, REGS(2, BPF_PSEUDO_MAP_FD) };

	put_u32(want + 4, 7);

	ASSERT_EQ(sizeof(insn), sizeof(want));
	expect_bytes(_metadata, insn, want, sizeof(want));
}

TEST(exit_is_one_opcode)
{
	struct bpf_insn insn = BPF_EXIT_INSN();
	const unsigned char want[] = { 0x95, 0, 0, 0, 0, 0, 0, 0 };

	expect_bytes(_metadata, &insn, want, sizeof(want));
}

TEST_HARNESS_MAIN
