/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The bpf(2) calls added since the 2015 samples, named and shaped after
 * today's libbpf (tools/lib/bpf/bpf.h), and the helpers this project builds
 * on them. libbpf.c holds one implementation per bpf(2) command: these,
 * which libbpf.h's 2015 functions wrap. 2015 code never includes this file.
 */
#ifndef __BPF_SYSCALL_H
#define __BPF_SYSCALL_H

#include <stddef.h>
#include <linux/bpf.h>

/*
 * The uapi header may be older than the kernel (Debian 12 ships 6.1's): these
 * are the kernel's stable ABI values, defined only where the header lacks them.
 */
#ifndef BPF_F_PATH_FD
#define BPF_F_PATH_FD		(1U << 14)	/* 6.5: path is relative to path_fd */
#endif
#ifndef BPF_F_TOKEN_FD
#define BPF_F_TOKEN_FD		(1U << 16)	/* 6.9: the attr carries a token fd */
#endif
#ifndef BPF_TOKEN_CREATE
#define BPF_TOKEN_CREATE	36		/* 6.9 */
#endif

/*
 * Every option struct starts with sz, its size as the caller compiled it, as
 * libbpf's do: a field past sz reads as 0, and a caller built against a larger
 * struct is refused (EINVAL) if it set anything this library does not know.
 * LIBBPF_OPTS(bpf_obj_get_opts, opts, .file_flags = BPF_F_RDONLY) declares one.
 */
#define LIBBPF_OPTS(TYPE, NAME, ...)					\
	struct TYPE NAME = { .sz = sizeof(struct TYPE), __VA_ARGS__ }

struct bpf_map_create_opts {
	size_t sz;
	__u32 map_flags;
	__u32 btf_fd;			/* 4.18: BTF describing key and value */
	__u32 btf_key_type_id;
	__u32 btf_value_type_id;
	__u32 token_fd;			/* 6.9: read with BPF_F_TOKEN_FD in map_flags */
};

/* BPF_MAP_CREATE; map_name and opts may be NULL. Returns the map's fd. */
int bpf_map_create(enum bpf_map_type map_type, const char *map_name,
		   __u32 key_size, __u32 value_size, __u32 max_entries,
		   const struct bpf_map_create_opts *opts);

int bpf_map_update_elem(int fd, const void *key, const void *value,
			__u64 flags);
int bpf_map_lookup_elem(int fd, const void *key, void *value);
int bpf_map_delete_elem(int fd, const void *key);
int bpf_map_get_next_key(int fd, const void *key, void *next_key);
/* BPF_MAP_FREEZE (5.2): from now on no write from user space succeeds. */
int bpf_map_freeze(int fd);

/* file_flags: BPF_F_RDONLY, BPF_F_WRONLY (4.15), BPF_F_PATH_FD (6.5). */
struct bpf_obj_get_opts {
	size_t sz;
	__u32 file_flags;
	int path_fd;		/* read only with BPF_F_PATH_FD */
};

struct bpf_obj_pin_opts {
	size_t sz;
	__u32 file_flags;	/* BPF_F_PATH_FD or 0 */
	int path_fd;
};

int bpf_obj_get_opts(const char *pathname, const struct bpf_obj_get_opts *opts);
int bpf_obj_pin_opts(int fd, const char *pathname,
		     const struct bpf_obj_pin_opts *opts);

/* BPF_OBJ_GET_INFO_BY_FD (4.13); *info_len becomes the length the kernel wrote. */
int bpf_obj_get_info_by_fd(int fd, void *info, __u32 *info_len);
int bpf_map_get_fd_by_id(__u32 id);
/* BPF_MAP_GET_NEXT_ID (4.13): the lowest map id above start_id in *next_id. */
int bpf_map_get_next_id(__u32 start_id, __u32 *next_id);
int bpf_prog_get_fd_by_id(__u32 id);

struct bpf_btf_load_opts {
	size_t sz;
	char *log_buf;		/* the kernel's reason for a rejected blob */
	__u32 log_size;
	__u32 log_level;
};

/* BPF_BTF_LOAD (4.18): a BTF blob built by the caller; returns its fd. */
int bpf_btf_load(const void *btf_data, size_t btf_size,
		 const struct bpf_btf_load_opts *opts);

struct bpf_link_create_opts {
	size_t sz;
	__u32 flags;
};

/* BPF_LINK_CREATE (5.7): target_fd is a cgroup fd, or an ifindex for XDP. */
int bpf_link_create(int prog_fd, int target_fd, enum bpf_attach_type type,
		    const struct bpf_link_create_opts *opts);

struct bpf_link_update_opts {
	size_t sz;
	__u32 flags;		/* BPF_F_REPLACE: only if old_prog_fd's is attached */
	__u32 old_prog_fd;
};

/* BPF_LINK_UPDATE (5.7): the link's program becomes new_prog_fd's. */
int bpf_link_update(int link_fd, int new_prog_fd,
		    const struct bpf_link_update_opts *opts);

struct bpf_token_create_opts {
	size_t sz;
	__u32 flags;
};

/* BPF_TOKEN_CREATE (6.9): a token from a bpffs mounted with delegate_*. */
int bpf_token_create(int bpffs_fd, const struct bpf_token_create_opts *opts);

/* ---- Built on the calls above ---- */

/*
 * What BPF_OBJ_GET_INFO_BY_FD says of the map behind fd; the fields an older
 * kernel does not fill read 0. -1 with errno set on error.
 */
int bpf_map_get_info(int fd, struct bpf_map_info *info);
/* The same for the link behind fd (5.8: its id, program id, type). */
int bpf_link_get_info(int fd, struct bpf_link_info *info);
/* 1 if a lookup in a map of this type writes one value per possible CPU. */
int bpf_map_type_percpu(unsigned int map_type);

enum bpf_obj_kind {
	BPF_OBJ_KIND_UNKNOWN,
	BPF_OBJ_KIND_MAP,
	BPF_OBJ_KIND_PROG,
	BPF_OBJ_KIND_LINK,
};

/*
 * libbpf.h's bpf_prog_load() with the verifier log in the caller's log,
 * log_size bytes (at least 128, the kernel's least; 0: no log), not in
 * bpf_log_buf: log ends with this call's log or empty. The log is asked for
 * only when the verifier refused the program.
 */
int bpf_prog_load_log(enum bpf_prog_type prog_type,
		      const struct bpf_insn *insns, int insn_len,
		      const char *license, int kern_version, char *log,
		      unsigned int log_size);

/*
 * The verifier's verdict in a log it wrote (bpf_log_buf): its last line
 * before the statistics, which names what it refused. Empty if none.
 */
void bpf_verifier_verdict(const char *log, char *out, size_t len);

/* What kind of BPF object fd refers to; -1 with errno set if it can't tell. */
int bpf_obj_kind(int fd);
const char *bpf_obj_kind_name(int kind);

#endif /* __BPF_SYSCALL_H */
