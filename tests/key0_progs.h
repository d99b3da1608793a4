/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Programs built from instructions in the tests, all of one shape: look up
 * key 0 of a map, act on the value if there is one, return. The XDP packet
 * counter is used by after2015_links.c and the pinctl helper, the
 * value-touching socket filters by after2015_pinning.c, the dispatcher
 * that tail-calls through a prog array by beyond_prog_array.c.
 */
#ifndef KEY0_PROGS_H
#define KEY0_PROGS_H

#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "libbpf.h"

/* Room for what may follow the lookup of key 0. */
#define KEY0_BODY_MAX 8

/* The longest program key0_insns writes: the lookup (7 slots: the map
 * fd takes two), the body, r0 = retval and exit.
 */
#define KEY0_INSNS_MAX (7 + KEY0_BODY_MAX + 2)

/*
 * Writes to insns (room for KEY0_INSNS_MAX) a program that looks up key 0
 * of map_fd and, if the key is there, runs the body_len instructions of body
 * with r0 pointing at its value; then it returns retval. The number of
 * instructions, or -1 and errno.
 */
static inline int key0_insns(struct bpf_insn *insns, int map_fd,
			     const struct bpf_insn *body, int body_len,
			     int retval)
{
	const struct bpf_insn lookup[] = {
		BPF_ST_MEM(BPF_W, BPF_REG_10, -4, 0),	/* key 0 on the stack */
		BPF_MOV64_REG(BPF_REG_2, BPF_REG_10),
		BPF_ALU64_IMM(BPF_ADD, BPF_REG_2, -4),
		BPF_LD_MAP_FD(BPF_REG_1, map_fd),
		BPF_RAW_INSN(BPF_JMP | BPF_CALL, 0, 0, 0,
			     BPF_FUNC_map_lookup_elem),
		BPF_JMP_IMM(BPF_JEQ, BPF_REG_0, 0, body_len),	/* not there */
	};
	int n = sizeof(lookup) / sizeof(lookup[0]);

	_Static_assert(sizeof(lookup) == 7 * sizeof(struct bpf_insn),
		       "KEY0_INSNS_MAX counts 7 lookup slots");

	if (body_len < 0 || body_len > KEY0_BODY_MAX) {
		errno = EINVAL;
		return -1;
	}
	memcpy(insns, lookup, sizeof(lookup));
	memcpy(insns + n, body, body_len * sizeof(*body));
	n += body_len;
	insns[n++] = BPF_MOV64_IMM(BPF_REG_0, retval);
	insns[n++] = BPF_EXIT_INSN();
	return n;
}

/* Loads key0_insns' program as the given type: the fd, or -1 and errno. */
static inline int load_key0_prog(enum bpf_prog_type type, int map_fd,
				 const struct bpf_insn *body, int body_len,
				 int retval)
{
	struct bpf_insn insns[KEY0_INSNS_MAX];
	int n = key0_insns(insns, map_fd, body, body_len, retval);

	if (n < 0)
		return -1;
	return bpf_prog_load(type, insns, n * sizeof(*insns), "GPL", 0);
}

/* The XDP packet counter's body: add one to the 8-byte value at r0. */
static inline const struct bpf_insn *xdp_counter_body(int *len)
{
	static const struct bpf_insn add_one[] = {
		BPF_MOV64_IMM(BPF_REG_1, 1),
		BPF_RAW_INSN(BPF_STX | BPF_DW | BPF_XADD, BPF_REG_0, BPF_REG_1,
			     0, 0),
	};

	*len = sizeof(add_one) / sizeof(add_one[0]);
	return add_one;
}

/* XDP: add one to key 0 of map_fd (8-byte values) per packet; pass it. */
static inline int load_xdp_counter(int map_fd)
{
	int len;
	const struct bpf_insn *body = xdp_counter_body(&len);

	return load_key0_prog(BPF_PROG_TYPE_XDP, map_fd, body, len, XDP_PASS);
}

/* Room for tail_call_insns' program: the tail call, then key0_insns'. */
#define TAIL_CALL_INSNS_MAX (5 + KEY0_INSNS_MAX)

/*
 * A dispatcher: it tail-calls the program at index 0 of the prog array
 * jmp_fd. When that slot is empty the call falls through: the program then
 * adds one to key 0 of fall_map (8-byte values) and returns retval, or only
 * returns retval when fall_map is -1. The number of instructions written
 * to insns (room for TAIL_CALL_INSNS_MAX).
 */
static inline int tail_call_insns(struct bpf_insn *insns, int jmp_fd,
				  int fall_map, int retval)
{
	const struct bpf_insn call[] = {
		/* r1 is still the context, as the entry left it */
		BPF_LD_MAP_FD(BPF_REG_2, jmp_fd),
		BPF_MOV64_IMM(BPF_REG_3, 0),
		BPF_RAW_INSN(BPF_JMP | BPF_CALL, 0, 0, 0,
			     BPF_FUNC_tail_call),
	};
	int n = sizeof(call) / sizeof(call[0]), len, more;
	const struct bpf_insn *body = xdp_counter_body(&len);

	_Static_assert(sizeof(call) <= 5 * sizeof(struct bpf_insn),
		       "TAIL_CALL_INSNS_MAX counts the call's slots");
	memcpy(insns, call, sizeof(call));
	if (fall_map < 0) {
		insns[n++] = BPF_MOV64_IMM(BPF_REG_0, retval);
		insns[n++] = BPF_EXIT_INSN();
		return n;
	}
	more = key0_insns(insns + n, fall_map, body, len, retval);
	return more < 0 ? -1 : n + more;
}

/* Loads tail_call_insns' program as the given type: its fd, or -1. */
static inline int load_tail_call_prog(enum bpf_prog_type type, int jmp_fd,
				      int fall_map, int retval)
{
	struct bpf_insn insns[TAIL_CALL_INSNS_MAX];
	int n = tail_call_insns(insns, jmp_fd, fall_map, retval);

	if (n < 0)
		return -1;
	return bpf_prog_load(type, insns, n * sizeof(*insns), "GPL", 0);
}

/* The count so far: key 0 of the counter's map map_fd. 0, or -1 and errno. */
static inline int read_count(int map_fd, __u64 *count)
{
	__u32 key = 0;

	return bpf_lookup_elem(map_fd, &key, count);
}

/*
 * The count so far of the counter's map pinned at map_pin. 0, or -1 and
 * errno if the pin cannot be got or the key read.
 */
static inline int read_pinned_count(const char *map_pin, __u64 *count)
{
	int fd, ret, err;

	fd = bpf_obj_get(map_pin);
	if (fd < 0)
		return -1;
	ret = read_count(fd, count);
	err = errno;
	close(fd);
	errno = err;
	return ret;
}

#endif /* KEY0_PROGS_H */
