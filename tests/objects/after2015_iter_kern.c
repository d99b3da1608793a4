// SPDX-License-Identifier: GPL-2.0
/*
 * A BPF iterator over all maps (5.8), one "map ID" line each; pinned with
 * `bpftool iter pin`, the pin reads like a /proc file. The kernel types are
 * declared by hand with only the fields used: preserve_access_index makes
 * the loader relocate each field to the running kernel's offset (CO-RE), so
 * the object needs no vmlinux.h. Built with -g: iterators need BTF.
 */
#include <linux/bpf.h>

#define SEC(name) __attribute__((section(name), used))

struct seq_file;

struct bpf_iter_meta {
	struct seq_file *seq;
} __attribute__((preserve_access_index));

struct bpf_map {
	__u32 id;
} __attribute__((preserve_access_index));

struct bpf_iter__bpf_map {
	struct bpf_iter_meta *meta;
	struct bpf_map *map;
} __attribute__((preserve_access_index));

static long (*bpf_seq_printf)(struct seq_file *m, const char *fmt,
			      __u32 fmt_size, const void *data,
			      __u32 data_len) = (void *)BPF_FUNC_seq_printf;

SEC("iter/bpf_map")
int list_maps(struct bpf_iter__bpf_map *ctx)
{
	/* the format must be read-only data on newer kernels */
	static const char fmt[] = "map %u\n";
	struct bpf_map *map = ctx->map;
	__u64 args[1];

	if (!map)	/* called once more at the end */
		return 0;
	args[0] = map->id;
	bpf_seq_printf(ctx->meta->seq, fmt, sizeof(fmt), args, sizeof(args));
	return 0;
}

char _license[] SEC("license") = "GPL";
