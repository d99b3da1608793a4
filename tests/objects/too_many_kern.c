// SPDX-License-Identifier: GPL-2.0
/*
 * Test object: one map and one program more than the loader holds
 * (MAX_MAPS and MAX_PROGS are 32). Built twice, with -DMANY_MAPS and with
 * -DMANY_PROGS; the loader must refuse both with a message.
 */
#include "bpf_helpers.h"

#define X4(m, p) m(p##0) m(p##1) m(p##2) m(p##3)
#define X16(m, p) X4(m, p##0) X4(m, p##1) X4(m, p##2) X4(m, p##3)
#define X32(m) X16(m, 0) X16(m, 1)
#define X33(m) X32(m) m(extra)

#ifdef MANY_MAPS
#define MAP(n) struct bpf_map_def SEC("maps") map_##n = { \
	.type = BPF_MAP_TYPE_ARRAY, .key_size = 4, .value_size = 4, .max_entries = 1 };
X33(MAP)
#define PROG(n) SEC("socket_" #n) int prog_##n(struct __sk_buff *skb) { return 0; }
PROG(only)
#endif

#ifdef MANY_PROGS
#define PROG(n) SEC("socket_" #n) int prog_##n(struct __sk_buff *skb) { return skb->len; }
X33(PROG)
#endif

char _license[] SEC("license") = "GPL";
