// SPDX-License-Identifier: GPL-2.0
/*
 * bpf(2) wrappers for the samples: one implementation per command (the calls
 * of bpf_syscall.h, named after today's libbpf), the 2015 interface of
 * libbpf.h as shims over them, and helpers built on both. Each call zeroes
 * the attr, fills the fields its command reads and returns what the kernel
 * said; errors are -1 with errno set, and nothing here prints: the caller
 * decides what a person sees.
 */
#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <net/if.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <linux/if_ether.h>
#include <linux/if_packet.h>

#include "bpf_syscall.h"
#include "libbpf.h"

char bpf_log_buf[LOG_BUF_SIZE];

static __u64 ptr_to_u64(const void *ptr)
{
	return (__u64)(unsigned long)ptr;
}

static int sys_bpf(enum bpf_cmd cmd, void *attr, unsigned int size)
{
	return syscall(__NR_bpf, cmd, attr, size);
}

/*
 * An option struct the caller may pass: NULL, or one whose sz covers sz
 * itself and whose bytes past the struct this library knows are all zero
 * (a caller built against a larger struct set nothing we would ignore).
 */
static int opts_valid(const void *opts, size_t known)
{
	const unsigned char *bytes = opts;
	size_t sz, i;

	if (!opts)
		return 1;
	sz = *(const size_t *)opts;
	if (sz < sizeof(size_t))
		return 0;
	for (i = known; i < sz; i++)
		if (bytes[i])
			return 0;
	return 1;
}

#define OPTS_VALID(opts) opts_valid(opts, sizeof(*(opts)))

/* A field of opts, or 0 when opts is NULL or its sz ends before the field. */
#define OPTS_GET(opts, field)						\
	((opts) && offsetof(__typeof__(*(opts)), field) +		\
		   sizeof((opts)->field) <= (opts)->sz ? (opts)->field : 0)

/*
 * ---- The calls, one per command --------------------------------------------
 * Where a command gained fields that the installed uapi header (6.1's on
 * Debian 12) lacks, its attr is a struct of its own with the kernel's layout,
 * which is ABI, and the only one this file uses for that command: an older
 * kernel sees the new fields as a non-zero tail and refuses the call with
 * EINVAL or E2BIG, so callers get the kernel's own answer, not ours.
 */

/* BPF_MAP_CREATE as of 6.9. */
struct map_create_attr {
	__u32 map_type;
	__u32 key_size;
	__u32 value_size;
	__u32 max_entries;
	__u32 map_flags;
	__u32 inner_map_fd;
	__u32 numa_node;
	char map_name[BPF_OBJ_NAME_LEN];
	__u32 map_ifindex;
	__u32 btf_fd;
	__u32 btf_key_type_id;
	__u32 btf_value_type_id;
	__u32 btf_vmlinux_value_type_id;
	__aligned_u64 map_extra;
	__s32 value_type_btf_obj_fd;
	__s32 map_token_fd;
};

int bpf_map_create(enum bpf_map_type map_type, const char *map_name,
		   __u32 key_size, __u32 value_size, __u32 max_entries,
		   const struct bpf_map_create_opts *opts)
{
	struct map_create_attr attr;

	if (!OPTS_VALID(opts)) {
		errno = EINVAL;
		return -1;
	}
	memset(&attr, 0, sizeof(attr));
	attr.map_type = map_type;
	attr.key_size = key_size;
	attr.value_size = value_size;
	attr.max_entries = max_entries;
	if (map_name) {
		if (strlen(map_name) >= sizeof(attr.map_name)) {
			errno = EINVAL;
			return -1;
		}
		strcpy(attr.map_name, map_name);
	}
	attr.map_flags = OPTS_GET(opts, map_flags);
	attr.btf_fd = OPTS_GET(opts, btf_fd);
	attr.btf_key_type_id = OPTS_GET(opts, btf_key_type_id);
	attr.btf_value_type_id = OPTS_GET(opts, btf_value_type_id);
	/* zero unless asked for, so kernels before 6.9 accept the rest */
	if (attr.map_flags & BPF_F_TOKEN_FD)
		attr.map_token_fd = OPTS_GET(opts, token_fd);

	return sys_bpf(BPF_MAP_CREATE, &attr, sizeof(attr));
}

static int map_elem_op(enum bpf_cmd cmd, int fd, const void *key,
		       const void *value, __u64 flags)
{
	union bpf_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.map_fd = fd;
	attr.key = ptr_to_u64(key);
	attr.value = ptr_to_u64(value);
	attr.flags = flags;

	return sys_bpf(cmd, &attr, sizeof(attr));
}

int bpf_map_update_elem(int fd, const void *key, const void *value,
			__u64 flags)
{
	return map_elem_op(BPF_MAP_UPDATE_ELEM, fd, key, value, flags);
}

int bpf_map_lookup_elem(int fd, const void *key, void *value)
{
	return map_elem_op(BPF_MAP_LOOKUP_ELEM, fd, key, value, 0);
}

int bpf_map_delete_elem(int fd, const void *key)
{
	return map_elem_op(BPF_MAP_DELETE_ELEM, fd, key, NULL, 0);
}

int bpf_map_get_next_key(int fd, const void *key, void *next_key)
{
	/* attr.next_key shares its slot with attr.value. */
	return map_elem_op(BPF_MAP_GET_NEXT_KEY, fd, key, next_key, 0);
}

/* Its attr is map_fd alone, the first field of the element commands'. */
int bpf_map_freeze(int fd)
{
	return map_elem_op(BPF_MAP_FREEZE, fd, NULL, NULL, 0);
}

/* BPF_OBJ_PIN and BPF_OBJ_GET as of 6.5. */
struct obj_attr {
	__aligned_u64 pathname;
	__u32 bpf_fd;
	__u32 file_flags;
	__s32 path_fd;
};

static int obj_pin_get(enum bpf_cmd cmd, int fd, const char *pathname,
		       __u32 file_flags, int path_fd)
{
	struct obj_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.pathname = ptr_to_u64(pathname);
	attr.bpf_fd = fd;
	attr.file_flags = file_flags;
	/* zero unless asked for, so kernels before 6.5 accept the rest */
	if (file_flags & BPF_F_PATH_FD)
		attr.path_fd = path_fd;

	return sys_bpf(cmd, &attr, sizeof(attr));
}

int bpf_obj_get_opts(const char *pathname, const struct bpf_obj_get_opts *opts)
{
	if (!OPTS_VALID(opts)) {
		errno = EINVAL;
		return -1;
	}
	return obj_pin_get(BPF_OBJ_GET, 0, pathname,
			   OPTS_GET(opts, file_flags), OPTS_GET(opts, path_fd));
}

int bpf_obj_pin_opts(int fd, const char *pathname,
		     const struct bpf_obj_pin_opts *opts)
{
	if (!OPTS_VALID(opts)) {
		errno = EINVAL;
		return -1;
	}
	return obj_pin_get(BPF_OBJ_PIN, fd, pathname,
			   OPTS_GET(opts, file_flags), OPTS_GET(opts, path_fd));
}

int bpf_obj_get_info_by_fd(int fd, void *info, __u32 *info_len)
{
	union bpf_attr attr;
	int ret;

	memset(&attr, 0, sizeof(attr));
	attr.info.bpf_fd = fd;
	attr.info.info_len = *info_len;
	attr.info.info = ptr_to_u64(info);

	ret = sys_bpf(BPF_OBJ_GET_INFO_BY_FD, &attr, sizeof(attr));
	if (ret == 0)
		*info_len = attr.info.info_len;
	return ret;
}

static int get_fd_by_id(enum bpf_cmd cmd, __u32 id)
{
	union bpf_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.map_id = id;	/* shares its slot with prog_id */

	return sys_bpf(cmd, &attr, sizeof(attr));
}

int bpf_map_get_fd_by_id(__u32 id)
{
	return get_fd_by_id(BPF_MAP_GET_FD_BY_ID, id);
}

int bpf_prog_get_fd_by_id(__u32 id)
{
	return get_fd_by_id(BPF_PROG_GET_FD_BY_ID, id);
}

int bpf_map_get_next_id(__u32 start_id, __u32 *next_id)
{
	union bpf_attr attr;
	int ret;

	memset(&attr, 0, sizeof(attr));
	attr.start_id = start_id;

	ret = sys_bpf(BPF_MAP_GET_NEXT_ID, &attr, sizeof(attr));
	if (ret == 0)
		*next_id = attr.next_id;
	return ret;
}

int bpf_btf_load(const void *btf_data, size_t btf_size,
		 const struct bpf_btf_load_opts *opts)
{
	union bpf_attr attr;

	if (!OPTS_VALID(opts)) {
		errno = EINVAL;
		return -1;
	}
	if (btf_size > UINT_MAX) {
		errno = E2BIG;
		return -1;
	}
	memset(&attr, 0, sizeof(attr));
	attr.btf = ptr_to_u64(btf_data);
	attr.btf_size = btf_size;
	attr.btf_log_buf = ptr_to_u64(OPTS_GET(opts, log_buf));
	attr.btf_log_size = OPTS_GET(opts, log_size);
	attr.btf_log_level = OPTS_GET(opts, log_level);

	return sys_bpf(BPF_BTF_LOAD, &attr, sizeof(attr));
}

int bpf_link_create(int prog_fd, int target_fd, enum bpf_attach_type type,
		    const struct bpf_link_create_opts *opts)
{
	union bpf_attr attr;

	if (!OPTS_VALID(opts)) {
		errno = EINVAL;
		return -1;
	}
	memset(&attr, 0, sizeof(attr));
	attr.link_create.prog_fd = prog_fd;
	attr.link_create.target_fd = target_fd;	/* or target_ifindex */
	attr.link_create.attach_type = type;
	attr.link_create.flags = OPTS_GET(opts, flags);

	return sys_bpf(BPF_LINK_CREATE, &attr, sizeof(attr));
}

int bpf_link_update(int link_fd, int new_prog_fd,
		    const struct bpf_link_update_opts *opts)
{
	union bpf_attr attr;

	if (!OPTS_VALID(opts)) {
		errno = EINVAL;
		return -1;
	}
	memset(&attr, 0, sizeof(attr));
	attr.link_update.link_fd = link_fd;
	attr.link_update.new_prog_fd = new_prog_fd;
	attr.link_update.flags = OPTS_GET(opts, flags);
	attr.link_update.old_prog_fd = OPTS_GET(opts, old_prog_fd);

	return sys_bpf(BPF_LINK_UPDATE, &attr, sizeof(attr));
}

/* BPF_TOKEN_CREATE (6.9): not in the 6.1 header at all. */
struct token_create_attr {
	__u32 flags;
	__u32 bpffs_fd;
};

int bpf_token_create(int bpffs_fd, const struct bpf_token_create_opts *opts)
{
	struct token_create_attr attr = { .bpffs_fd = bpffs_fd };

	if (!OPTS_VALID(opts)) {
		errno = EINVAL;
		return -1;
	}
	attr.flags = OPTS_GET(opts, flags);
	return sys_bpf(BPF_TOKEN_CREATE, &attr, sizeof(attr));
}

/*
 * ---- The 2015 interface (libbpf.h) ------------------------------------------
 * Shims over the calls above, but for BPF_PROG_LOAD, which nothing newer here
 * loads: bpf_prog_load() is its one implementation.
 */

int bpf_create_map(enum bpf_map_type map_type, int key_size, int value_size,
		   int max_entries)
{
	return bpf_map_create(map_type, NULL, key_size, value_size,
			      max_entries, NULL);
}

int bpf_update_elem(int fd, void *key, void *value, unsigned long long flags)
{
	return bpf_map_update_elem(fd, key, value, flags);
}

int bpf_lookup_elem(int fd, void *key, void *value)
{
	return bpf_map_lookup_elem(fd, key, value);
}

int bpf_delete_elem(int fd, void *key)
{
	return bpf_map_delete_elem(fd, key);
}

int bpf_get_next_key(int fd, void *key, void *next_key)
{
	return bpf_map_get_next_key(fd, key, next_key);
}

int bpf_obj_pin(int fd, const char *pathname)
{
	return bpf_obj_pin_opts(fd, pathname, NULL);
}

int bpf_obj_get(const char *pathname)
{
	return bpf_obj_get_opts(pathname, NULL);
}

static int prog_load(enum bpf_prog_type prog_type,
		     const struct bpf_insn *insns, int insn_len,
		     const char *license, int kern_version, char *log,
		     unsigned int log_size)
{
	union bpf_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.prog_type = prog_type;
	attr.insns = ptr_to_u64(insns);
	attr.insn_cnt = insn_len / sizeof(struct bpf_insn);
	attr.license = ptr_to_u64(license);
	attr.kern_version = kern_version;
	if (log_size) {
		attr.log_buf = ptr_to_u64(log);
		attr.log_size = log_size;
		attr.log_level = 1;
	}

	return sys_bpf(BPF_PROG_LOAD, &attr, sizeof(attr));
}

/*
 * The 2015 wrapper always asked for the verifier log. A verbose log can fill
 * the buffer and turn a good program into an ENOSPC failure, so load quietly
 * first and ask for the log only to explain a rejection. log holds this
 * call's log or nothing, never an earlier call's.
 */
int bpf_prog_load_log(enum bpf_prog_type prog_type,
		      const struct bpf_insn *insns, int insn_len,
		      const char *license, int kern_version, char *log,
		      unsigned int log_size)
{
	int fd, saved;

	if (log_size)
		log[0] = '\0';
	if (insn_len < 0 || insn_len % sizeof(struct bpf_insn)) {
		errno = EINVAL;
		return -1;
	}

	fd = prog_load(prog_type, insns, insn_len, license, kern_version,
		       NULL, 0);
	if (fd >= 0 || !log_size)
		return fd;

	/* Only the verifier writes a log; other errors have nothing to add. */
	if (errno != EACCES && errno != EINVAL)
		return fd;

	saved = errno;
	fd = prog_load(prog_type, insns, insn_len, license, kern_version,
		       log, log_size);
	if (fd < 0 && errno == ENOSPC)
		errno = saved;	/* the log overflowed, not the load */
	log[log_size - 1] = '\0';
	return fd;
}

/* The 2015 call, its log in bpf_log_buf. */
int bpf_prog_load(enum bpf_prog_type prog_type,
		  const struct bpf_insn *insns, int insn_len,
		  const char *license, int kern_version)
{
	return bpf_prog_load_log(prog_type, insns, insn_len, license,
				 kern_version, bpf_log_buf, LOG_BUF_SIZE);
}

/*
 * The interface's index comes from the socket itself (SIOCGIFINDEX), not
 * from if_nametoindex(), which opens a socket of its own: out of fds, that
 * one failed and the caller read ENOENT instead of EMFILE.
 */
int open_raw_sock(const char *name)
{
	struct sockaddr_ll sll;
	struct ifreq ifr;
	int sock, saved;

	if (!name || strlen(name) >= sizeof(ifr.ifr_name)) {
		errno = ENODEV;
		return -1;
	}

	/*
	 * Protocol 0 at socket(): the packet hook is registered once, by
	 * bind(). Created with ETH_P_ALL, the socket would be hooked to every
	 * device first and bind() would have to unhook it, waiting out an RCU
	 * grace period (~12 ms here) to move it to one interface.
	 */
	sock = socket(PF_PACKET, SOCK_RAW | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (sock < 0)
		return -1;

	memset(&ifr, 0, sizeof(ifr));
	memcpy(ifr.ifr_name, name, strlen(name));
	memset(&sll, 0, sizeof(sll));
	sll.sll_family = AF_PACKET;
	sll.sll_protocol = htons(ETH_P_ALL);
	if (ioctl(sock, SIOCGIFINDEX, &ifr) < 0)
		goto fail;
	sll.sll_ifindex = ifr.ifr_ifindex;
	if (bind(sock, (struct sockaddr *)&sll, sizeof(sll)) < 0)
		goto fail;
	return sock;

fail:
	saved = errno;
	close(sock);
	errno = saved;
	return -1;
}

/* ---- Helpers built on the calls (bpf_syscall.h) ---- */

int bpf_map_get_info(int fd, struct bpf_map_info *info)
{
	__u32 len = sizeof(*info);

	memset(info, 0, sizeof(*info));
	return bpf_obj_get_info_by_fd(fd, info, &len);
}

int bpf_link_get_info(int fd, struct bpf_link_info *info)
{
	__u32 len = sizeof(*info);

	memset(info, 0, sizeof(*info));
	return bpf_obj_get_info_by_fd(fd, info, &len);
}

/*
 * value_size is one CPU's share: a lookup in these writes value_size bytes,
 * rounded up to 8, for each possible CPU.
 */
int bpf_map_type_percpu(unsigned int map_type)
{
	switch (map_type) {
	case BPF_MAP_TYPE_PERCPU_HASH:
	case BPF_MAP_TYPE_PERCPU_ARRAY:
	case BPF_MAP_TYPE_LRU_PERCPU_HASH:
	case BPF_MAP_TYPE_PERCPU_CGROUP_STORAGE:
		return 1;
	default:
		return 0;
	}
}

/*
 * bpf(2) has no "what is this fd" command: BPF_OBJ_GET_INFO_BY_FD fills a map
 * or a program layout depending on the fd, without saying which. The anon
 * inode's name does say it, and has since bpf(2) appeared. A link's was
 * "bpf_link" from 5.7 on, and is "bpf-link" on recent kernels (6.18 here):
 * both are links.
 */
int bpf_obj_kind(int fd)
{
	static const struct {
		const char *link;
		int kind;
	} names[] = {
		{ "anon_inode:bpf-map", BPF_OBJ_KIND_MAP },
		{ "anon_inode:bpf-prog", BPF_OBJ_KIND_PROG },
		{ "anon_inode:bpf_link", BPF_OBJ_KIND_LINK },
		{ "anon_inode:bpf-link", BPF_OBJ_KIND_LINK },
	};
	char path[64], target[64];
	ssize_t len;
	size_t i;

	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	len = readlink(path, target, sizeof(target) - 1);
	if (len < 0)
		return -1;
	target[len] = '\0';

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (strcmp(target, names[i].link) == 0)
			return names[i].kind;
	return BPF_OBJ_KIND_UNKNOWN;
}

const char *bpf_obj_kind_name(int kind)
{
	switch (kind) {
	case BPF_OBJ_KIND_MAP:
		return "a map";
	case BPF_OBJ_KIND_PROG:
		return "a program";
	case BPF_OBJ_KIND_LINK:
		return "a link";
	default:
		return "not a BPF map or program";
	}
}

/*
 * The verifier's verdict: the last line of its log before the statistics
 * ("processed N insns ..."), which names what it refused. Empty if none.
 */
void bpf_verifier_verdict(const char *log, char *out, size_t len)
{
	const char *line = log, *last = NULL;
	size_t n, last_len = 0;

	out[0] = '\0';
	for (; *line; line += n + (line[n] == '\n')) {
		n = strcspn(line, "\n");
		if (n && strncmp(line, "processed ", 10) != 0 &&
		    strncmp(line, "verification time", 17) != 0) {
			last = line;
			last_len = n;
		}
	}
	if (last)
		snprintf(out, len, "%.*s", (int)last_len, last);
}
