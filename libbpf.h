/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The sample's minimal bpf(2) wrapper and instruction macros, with the names
 * and signatures of the 2015 samples/bpf, so code of that era builds as is.
 * Not tools/lib/bpf: nothing here links against it.
 */
#ifndef __LIBBPF_H
#define __LIBBPF_H

#include <linux/bpf.h>

struct bpf_insn;

int bpf_create_map(enum bpf_map_type map_type, int key_size, int value_size,
		   int max_entries);
int bpf_update_elem(int fd, void *key, void *value, unsigned long long flags);
int bpf_lookup_elem(int fd, void *key, void *value);
int bpf_delete_elem(int fd, void *key);
int bpf_get_next_key(int fd, void *key, void *next_key);

int bpf_prog_load(enum bpf_prog_type prog_type,
		  const struct bpf_insn *insns, int insn_len,
		  const char *license, int kern_version);

int bpf_obj_pin(int fd, const char *pathname);
int bpf_obj_get(const char *pathname);

#define LOG_BUF_SIZE 65536
extern char bpf_log_buf[LOG_BUF_SIZE];

/* Additions; the 2015 functions above are unchanged. */
int bpf_create_map_flags(enum bpf_map_type map_type, int key_size,
			 int value_size, int max_entries, unsigned int flags);
int bpf_obj_get_info_by_fd(int fd, void *info, unsigned int *info_len);
int bpf_map_get_fd_by_id(unsigned int id);
int bpf_prog_get_fd_by_id(unsigned int id);

enum bpf_obj_kind {
	BPF_OBJ_KIND_UNKNOWN,
	BPF_OBJ_KIND_MAP,
	BPF_OBJ_KIND_PROG,
	BPF_OBJ_KIND_LINK,
};

/*
 * What BPF_OBJ_GET_INFO_BY_FD (4.13) says of the map behind fd; the fields
 * an older kernel does not fill read 0. -1 with errno set on error.
 */
int bpf_map_get_info(int fd, struct bpf_map_info *info);
/* 1 if a lookup in a map of this type writes one value per possible CPU. */
int bpf_map_type_percpu(unsigned int map_type);

/* What kind of BPF object fd refers to; -1 with errno set if it can't tell. */
int bpf_obj_kind(int fd);
const char *bpf_obj_kind_name(int kind);

/* A packet socket on one interface, for SO_ATTACH_BPF; -1 and errno on error. */
int open_raw_sock(const char *name);

/* ALU ops on registers: dst_reg += src_reg */
#define BPF_ALU64_REG(OP, DST, SRC)				\
	((struct bpf_insn) {					\
		.code  = BPF_ALU64 | BPF_OP(OP) | BPF_X,	\
		.dst_reg = DST,					\
		.src_reg = SRC,					\
		.off   = 0,					\
		.imm   = 0 })

#define BPF_ALU32_REG(OP, DST, SRC)				\
	((struct bpf_insn) {					\
		.code  = BPF_ALU | BPF_OP(OP) | BPF_X,		\
		.dst_reg = DST,					\
		.src_reg = SRC,					\
		.off   = 0,					\
		.imm   = 0 })

/* ALU ops on immediates: dst_reg += imm32 */
#define BPF_ALU64_IMM(OP, DST, IMM)				\
	((struct bpf_insn) {					\
		.code  = BPF_ALU64 | BPF_OP(OP) | BPF_K,	\
		.dst_reg = DST,					\
		.src_reg = 0,					\
		.off   = 0,					\
		.imm   = IMM })

#define BPF_ALU32_IMM(OP, DST, IMM)				\
	((struct bpf_insn) {					\
		.code  = BPF_ALU | BPF_OP(OP) | BPF_K,		\
		.dst_reg = DST,					\
		.src_reg = 0,					\
		.off   = 0,					\
		.imm   = IMM })

/* Register moves: dst_reg = src_reg */
#define BPF_MOV64_REG(DST, SRC)					\
	((struct bpf_insn) {					\
		.code  = BPF_ALU64 | BPF_MOV | BPF_X,		\
		.dst_reg = DST,					\
		.src_reg = SRC,					\
		.off   = 0,					\
		.imm   = 0 })

#define BPF_MOV32_REG(DST, SRC)					\
	((struct bpf_insn) {					\
		.code  = BPF_ALU | BPF_MOV | BPF_X,		\
		.dst_reg = DST,					\
		.src_reg = SRC,					\
		.off   = 0,					\
		.imm   = 0 })

/* Immediate moves: dst_reg = imm32 */
#define BPF_MOV64_IMM(DST, IMM)					\
	((struct bpf_insn) {					\
		.code  = BPF_ALU64 | BPF_MOV | BPF_K,		\
		.dst_reg = DST,					\
		.src_reg = 0,					\
		.off   = 0,					\
		.imm   = IMM })

#define BPF_MOV32_IMM(DST, IMM)					\
	((struct bpf_insn) {					\
		.code  = BPF_ALU | BPF_MOV | BPF_K,		\
		.dst_reg = DST,					\
		.src_reg = 0,					\
		.off   = 0,					\
		.imm   = IMM })

/* A 64-bit immediate takes two instruction slots. */
#define BPF_LD_IMM64(DST, IMM)					\
	BPF_LD_IMM64_RAW(DST, 0, IMM)

#define BPF_LD_IMM64_RAW(DST, SRC, IMM)				\
	((struct bpf_insn) {					\
		.code  = BPF_LD | BPF_DW | BPF_IMM,		\
		.dst_reg = DST,					\
		.src_reg = SRC,					\
		.off   = 0,					\
		.imm   = (__u32) (IMM) }),			\
	((struct bpf_insn) {					\
		.code  = 0,					\
		.dst_reg = 0,					\
		.src_reg = 0,					\
		.off   = 0,					\
		.imm   = ((__u64) (IMM)) >> 32 })

/* The verifier turns this into a pointer to the map behind MAP_FD. */
#define BPF_LD_MAP_FD(DST, MAP_FD)				\
	BPF_LD_IMM64_RAW(DST, BPF_PSEUDO_MAP_FD, MAP_FD)

/* Packet access for socket filters: r0 = *(uint *) (skb->data + imm32) */
#define BPF_LD_ABS(SIZE, IMM)					\
	((struct bpf_insn) {					\
		.code  = BPF_LD | BPF_SIZE(SIZE) | BPF_ABS,	\
		.dst_reg = 0,					\
		.src_reg = 0,					\
		.off   = 0,					\
		.imm   = IMM })

/* Memory loads: dst_reg = *(uint *) (src_reg + off16) */
#define BPF_LDX_MEM(SIZE, DST, SRC, OFF)			\
	((struct bpf_insn) {					\
		.code  = BPF_LDX | BPF_SIZE(SIZE) | BPF_MEM,	\
		.dst_reg = DST,					\
		.src_reg = SRC,					\
		.off   = OFF,					\
		.imm   = 0 })

/* Memory stores: *(uint *) (dst_reg + off16) = src_reg */
#define BPF_STX_MEM(SIZE, DST, SRC, OFF)			\
	((struct bpf_insn) {					\
		.code  = BPF_STX | BPF_SIZE(SIZE) | BPF_MEM,	\
		.dst_reg = DST,					\
		.src_reg = SRC,					\
		.off   = OFF,					\
		.imm   = 0 })

/* Memory stores: *(uint *) (dst_reg + off16) = imm32 */
#define BPF_ST_MEM(SIZE, DST, OFF, IMM)				\
	((struct bpf_insn) {					\
		.code  = BPF_ST | BPF_SIZE(SIZE) | BPF_MEM,	\
		.dst_reg = DST,					\
		.src_reg = 0,					\
		.off   = OFF,					\
		.imm   = IMM })

/* Conditional jumps against registers: if (dst_reg 'op' src_reg) goto pc + off16 */
#define BPF_JMP_REG(OP, DST, SRC, OFF)				\
	((struct bpf_insn) {					\
		.code  = BPF_JMP | BPF_OP(OP) | BPF_X,		\
		.dst_reg = DST,					\
		.src_reg = SRC,					\
		.off   = OFF,					\
		.imm   = 0 })

/* Conditional jumps against immediates: if (dst_reg 'op' imm32) goto pc + off16 */
#define BPF_JMP_IMM(OP, DST, IMM, OFF)				\
	((struct bpf_insn) {					\
		.code  = BPF_JMP | BPF_OP(OP) | BPF_K,		\
		.dst_reg = DST,					\
		.src_reg = 0,					\
		.off   = OFF,					\
		.imm   = IMM })

/* Any instruction, spelled out field by field */
#define BPF_RAW_INSN(CODE, DST, SRC, OFF, IMM)			\
	((struct bpf_insn) {					\
		.code  = CODE,					\
		.dst_reg = DST,					\
		.src_reg = SRC,					\
		.off   = OFF,					\
		.imm   = IMM })

/* Program exit */
#define BPF_EXIT_INSN()						\
	((struct bpf_insn) {					\
		.code  = BPF_JMP | BPF_EXIT,			\
		.dst_reg = 0,					\
		.src_reg = 0,					\
		.off   = 0,					\
		.imm   = 0 })

/*
 * ---- Since 2015 ------------------------------------------------------------
 * Calls for the pinning features added after Linux 4.4, named after today's
 * libbpf. The uapi header may be older than the kernel (Debian 12 ships
 * 6.1's): the constants below are the kernel's stable ABI values, defined
 * only where the header lacks them.
 */
#include <stddef.h>

#ifndef BPF_F_PATH_FD
#define BPF_F_PATH_FD		(1U << 14)	/* 6.5: path is relative to path_fd */
#endif
#ifndef BPF_F_TOKEN_FD
#define BPF_F_TOKEN_FD		(1U << 16)	/* 6.9: the attr carries a token fd */
#endif
#ifndef BPF_TOKEN_CREATE
#define BPF_TOKEN_CREATE	36		/* 6.9 */
#endif

/* file_flags: BPF_F_RDONLY, BPF_F_WRONLY (4.15), BPF_F_PATH_FD (6.5). */
struct bpf_obj_get_opts {
	__u32 file_flags;
	int path_fd;		/* read only with BPF_F_PATH_FD */
};

struct bpf_obj_pin_opts {
	__u32 file_flags;	/* BPF_F_PATH_FD or 0 */
	int path_fd;
};

int bpf_obj_get_opts(const char *pathname, const struct bpf_obj_get_opts *opts);
int bpf_obj_pin_opts(int fd, const char *pathname,
		     const struct bpf_obj_pin_opts *opts);

struct bpf_map_create_opts {
	__u32 map_flags;
	__u32 btf_fd;			/* 4.18: BTF describing key and value */
	__u32 btf_key_type_id;
	__u32 btf_value_type_id;
	int token_fd;			/* 6.9: with BPF_F_TOKEN_FD in map_flags */
};

/* name may be NULL; opts may be NULL. */
int bpf_map_create(enum bpf_map_type map_type, const char *map_name,
		   __u32 key_size, __u32 value_size, __u32 max_entries,
		   const struct bpf_map_create_opts *opts);

/* BPF_BTF_LOAD (4.18): a BTF blob built by the caller; returns its fd. */
int bpf_btf_load(const void *btf_data, size_t btf_size);

/* BPF_LINK_CREATE (5.7): target_fd is a cgroup fd, or an ifindex for XDP. */
int bpf_link_create(int prog_fd, int target_fd, enum bpf_attach_type type,
		    __u32 flags);

int bpf_link_get_fd_by_id(unsigned int id);

/* BPF_TOKEN_CREATE (6.9): a token from a bpffs mounted with delegate_*. */
int bpf_token_create(int bpffs_fd, __u32 flags);
/* ---- end of Since 2015 ---- */

#endif /* __LIBBPF_H */
