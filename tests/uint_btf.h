/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The smallest BTF a map's key and value can point at: one type, id 1,
 * "unsigned int", 32 bits. Built by hand, for BPF_BTF_LOAD (4.18) without a
 * compiler's BTF; used by the map-file test and the pinctl helper.
 */
#ifndef UINT_BTF_H
#define UINT_BTF_H

#include <linux/btf.h>

#define UINT_BTF_TYPE_ID 1
#define UINT_BTF_STRINGS "\0unsigned int"

static const struct {
	struct btf_header hdr;
	struct btf_type int_type;
	__u32 int_encoding;
	char strings[sizeof(UINT_BTF_STRINGS)];
} __attribute__((packed)) uint_btf = {
	.hdr = {
		.magic = BTF_MAGIC,
		.version = BTF_VERSION,
		.hdr_len = sizeof(struct btf_header),
		.type_off = 0,
		.type_len = sizeof(struct btf_type) + sizeof(__u32),
		.str_off = sizeof(struct btf_type) + sizeof(__u32),
		.str_len = sizeof(UINT_BTF_STRINGS),
	},
	.int_type = {
		.name_off = 1,	/* "unsigned int", after the empty string */
		.info = BTF_KIND_INT << 24,
		.size = 4,
	},
	.int_encoding = 32,	/* no sign, offset 0, 32 bits */
	.strings = UINT_BTF_STRINGS,
};

#endif /* UINT_BTF_H */
