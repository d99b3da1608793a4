// SPDX-License-Identifier: GPL-2.0
/*
 * The hand-encoded instructions of libbpf.h, byte for byte, in this
 * machine's order: the kernel reads struct bpf_insn in native order, where
 * the two register nibbles of byte 1 swap places (dst_reg is the low nibble
 * on little-endian machines, the high one on big-endian ones) and off and
 * imm are stored as this machine stores them. A macro that set the wrong
 * field, or a build that packed the nibbles for the other order, would
 * still compile and load, with the registers silently exchanged. The
 * tests' own programs (tests/key0_progs.h) are checked the same way.
 */
#include <string.h>
#include "kselftest_harness.h"
#include "libbpf.h"
#include "key0_progs.h"

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

/* put_u16: V's two bytes at P, in this machine's order */
static void put_u16(unsigned char *p, unsigned int v)
{
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	p[0] = v;
	p[1] = v >> 8;
#else
	p[0] = v >> 8;
	p[1] = v;
#endif
}

/* One instruction as the kernel reads it: opcode, registers, off, imm. */
struct raw_insn {
	unsigned char code, dst, src;
	unsigned short off;
	unsigned int imm;
};

/*
 * tests/key0_progs.h's XDP packet counter with map fd 7, written out by hand
 * from the instruction set: st [r10-4] = 0; r2 = r10; r2 += -4; r1 = map 7
 * (two slots); call map_lookup_elem; if r0 == 0 skip 2; r1 = 1;
 * lock *(u64 *)(r0 + 0) += r1; r0 = XDP_PASS; exit.
 */
TEST(key0_xdp_counter_byte_for_byte)
{
	static const struct raw_insn want[] = {
		{ 0x62, 10, 0, 0xfffc, 0 },
		{ 0xbf, 2, 10, 0, 0 },
		{ 0x07, 2, 0, 0, 0xfffffffc },
		{ 0x18, 1, BPF_PSEUDO_MAP_FD, 0, 7 },
		{ 0x00, 0, 0, 0, 0 },
		{ 0x85, 0, 0, 0, BPF_FUNC_map_lookup_elem },
		{ 0x15, 0, 0, 2, 0 },
		{ 0xb7, 1, 0, 0, 1 },
		{ 0xdb, 0, 1, 0, 0 },
		{ 0xb7, 0, 0, 0, XDP_PASS },
		{ 0x95, 0, 0, 0, 0 },
	};
	struct bpf_insn insns[KEY0_INSNS_MAX];
	const struct bpf_insn *body;
	unsigned char bytes[8];
	int i, n, len;

	body = xdp_counter_body(&len);
	n = key0_insns(insns, 7, body, len, XDP_PASS);
	ASSERT_EQ(sizeof(want) / sizeof(want[0]), n);
	for (i = 0; i < n; i++) {
		memset(bytes, 0, sizeof(bytes));
		bytes[0] = want[i].code;
		bytes[1] = REGS(want[i].dst, want[i].src);
		put_u16(bytes + 2, want[i].off);
		put_u32(bytes + 4, want[i].imm);
		if (memcmp(&insns[i], bytes, sizeof(bytes)))
			TH_LOG("instruction %d differs", i);
		expect_bytes(_metadata, &insns[i], bytes, sizeof(bytes));
	}
}

TEST(key0_body_longer_than_its_room_is_refused)
{
	struct bpf_insn insns[KEY0_INSNS_MAX], body[KEY0_BODY_MAX + 1];

	memset(body, 0, sizeof(body));
	EXPECT_EQ(-1, key0_insns(insns, 7, body, KEY0_BODY_MAX + 1, 0));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(KEY0_BODY_MAX + 9, key0_insns(insns, 7, body,
						 KEY0_BODY_MAX, 0));
}

TEST_HARNESS_MAIN
