// SPDX-License-Identifier: GPL-2.0
/*
 * pinctl: the pinning features added after Linux 4.4, one subcommand each,
 * for docs/after-2015.md to run where fds_example has no option for them.
 * Every line it prints says what was asked and what the kernel answered.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <net/if.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/wait.h>

#include "bpf_syscall.h"
#include "libbpf.h"
#include "lo_net.h"
#include "../key0_progs.h"
#include "../prog_maps.h"
#include "../uint_btf.h"

#define PORT 4242

static const char usage[] =
	"Usage: pinctl map PATH [btf]      pin a 4-entry array, key 1 = 42\n"
	"       pinctl get PATH ro|wo|rw   open it with BPF_F_RDONLY/WRONLY, look\n"
	"                                  up key 1, set it to 7\n"
	"       pinctl pin-at DIR NAME     pin a map as NAME relative to DIR's fd\n"
	"       pinctl xdp LINK MAP        count lo's packets through a pinned link\n"
	"       pinctl upgrade LINK MAP    a new counter, its map pinned at MAP,\n"
	"                                  replaces LINK's program (BPF_F_REPLACE)\n"
	"       pinctl tailcall LINK JMP MAP  a dispatcher on lo (link pinned at\n"
	"                                  LINK) tail-calls slot 0 of a prog\n"
	"                                  array, pinned at JMP (- for nowhere),\n"
	"                                  which holds a counter (map at MAP)\n"
	"       pinctl slot LINK           what that slot holds, once the kernel\n"
	"                                  has had up to 5 s to empty it\n"
	"       pinctl send N              send N datagrams over lo\n"
	"       pinctl count MAP           print the count\n"
	"       pinctl unpinned            make a map, print its id, pin nothing\n"
	"       pinctl hold PATH CMD...    run CMD while holding an fd on PATH\n";

/*
 * What failed and why; a new network namespace's lo, down, gets a hint
 * (sendto() says ENETUNREACH; bind() EADDRNOTAVAIL where 127.0.0.1 is no
 * local address until lo is up, as on a kernel made from tinyconfig).
 */
static int fail(const char *what)
{
	int err = errno;

	fprintf(stderr, "pinctl: %s: %s\n", what, strerror(err));
	if (err == ENETUNREACH || err == EADDRNOTAVAIL)
		fputs("pinctl: hint: 127.0.0.1 is unreachable while lo is down, "
		      "as it is in a new network namespace: ip link set lo up\n",
		      stderr);
	return 1;
}

static int cmd_map(const char *path, int with_btf)
{
	LIBBPF_OPTS(bpf_map_create_opts, opts);
	__u32 key = 1, value = 42;
	int btf = -1, fd;

	if (with_btf) {
		btf = bpf_btf_load(&uint_btf, sizeof(uint_btf), NULL);
		if (btf < 0)
			return fail("BPF_BTF_LOAD");
		opts.btf_fd = btf;
		opts.btf_key_type_id = UINT_BTF_TYPE_ID;
		opts.btf_value_type_id = UINT_BTF_TYPE_ID;
	}
	fd = bpf_map_create(BPF_MAP_TYPE_ARRAY, "pinctl", 4, 4, 4, &opts);
	if (btf >= 0)
		close(btf);
	if (fd < 0)
		return fail("BPF_MAP_CREATE");
	if (bpf_update_elem(fd, &key, &value, BPF_ANY))
		return fail("update");
	if (bpf_obj_pin(fd, path))
		return fail(path);
	printf("pinned a map%s at %s\n", with_btf ? " with BTF" : "", path);
	close(fd);
	return 0;
}

static int cmd_get(const char *path, const char *mode)
{
	LIBBPF_OPTS(bpf_obj_get_opts, opts);
	__u32 key = 1, value = 0;
	int fd;

	if (strcmp(mode, "ro") == 0)
		opts.file_flags = BPF_F_RDONLY;
	else if (strcmp(mode, "wo") == 0)
		opts.file_flags = BPF_F_WRONLY;
	else if (strcmp(mode, "rw") != 0) {
		fputs(usage, stderr);
		return 2;
	}
	fd = bpf_obj_get_opts(path, &opts);
	if (fd < 0) {
		printf("get %s: %s\n", mode, strerror(errno));
		return 1;
	}
	if (bpf_lookup_elem(fd, &key, &value))
		printf("lookup 1: %s\n", strerror(errno));
	else
		printf("lookup 1: %u\n", value);
	value = 7;
	if (bpf_update_elem(fd, &key, &value, BPF_ANY))
		printf("update 1 to 7: %s\n", strerror(errno));
	else
		printf("update 1 to 7: done\n");
	close(fd);
	return 0;
}

static int cmd_pin_at(const char *dir, const char *name)
{
	LIBBPF_OPTS(bpf_obj_pin_opts, opts, .file_flags = BPF_F_PATH_FD);
	int dirfd, fd, ret;

	dirfd = open(dir, O_DIRECTORY | O_RDONLY | O_CLOEXEC);
	if (dirfd < 0)
		return fail(dir);
	fd = bpf_map_create(BPF_MAP_TYPE_ARRAY, NULL, 4, 4, 1, NULL);
	if (fd < 0)
		return fail("BPF_MAP_CREATE");
	opts.path_fd = dirfd;
	ret = bpf_obj_pin_opts(fd, name, &opts);
	printf("pin %s relative to the fd of %s: %s\n", name, dir,
	       strerror(ret ? errno : 0));
	close(fd);
	close(dirfd);
	return ret ? 1 : 0;
}

/*
 * An XDP packet counter and its map (one 8-byte slot): the program's fd,
 * the map's in *map; or -1, said on stderr.
 */
static int new_counter(int *map)
{
	int prog;

	*map = bpf_create_map(BPF_MAP_TYPE_ARRAY, 4, 8, 1);
	if (*map < 0) {
		fail("BPF_MAP_CREATE");
		return -1;
	}
	prog = load_xdp_counter(*map);
	if (prog < 0) {
		fail("BPF_PROG_LOAD");
		return -1;
	}
	return prog;
}

static int cmd_xdp(const char *link_pin, const char *map_pin)
{
	int map, prog, link;

	prog = new_counter(&map);
	if (prog < 0)
		return 1;
	link = bpf_link_create(prog, if_nametoindex("lo"), BPF_XDP, NULL);
	if (link < 0)
		return fail("BPF_LINK_CREATE");
	if (bpf_obj_pin(map, map_pin))
		return fail(map_pin);
	if (bpf_obj_pin(link, link_pin)) {
		unlink(map_pin);
		return fail(link_pin);
	}
	printf("XDP counter on lo, link pinned at %s\n", link_pin);
	return 0;
}

/* The id of the program behind the link fd, or 0. */
static unsigned int link_prog_id(int link)
{
	struct bpf_link_info info;

	return bpf_link_get_info(link, &info) ? 0 : info.prog_id;
}

static int cmd_upgrade(const char *link_pin, const char *map_pin)
{
	LIBBPF_OPTS(bpf_link_update_opts, opts, .flags = BPF_F_REPLACE);
	unsigned int old_id, new_id;
	int link, map, prog, old;

	link = bpf_obj_get(link_pin);
	if (link < 0)
		return fail(link_pin);
	old_id = link_prog_id(link);
	old = bpf_prog_get_fd_by_id(old_id);
	if (!old_id || old < 0)
		return fail("the link's program");
	prog = new_counter(&map);
	if (prog < 0)
		return 1;
	if (bpf_obj_pin(map, map_pin))
		return fail(map_pin);
	opts.old_prog_fd = old;
	if (bpf_link_update(link, prog, &opts)) {
		unlink(map_pin);
		return fail("BPF_LINK_UPDATE");
	}
	new_id = link_prog_id(link);
	printf("link %s: program %u replaced by program %u\n", link_pin,
	       old_id, new_id);
	return new_id == old_id;
}

/*
 * The prog-array trap, for docs/beyond-one-shell.md: the dispatcher holds
 * the array, but the array's slots are emptied when its last user
 * reference (fd or pin) goes; with JMP "-" that is when this process exits.
 */
static int cmd_tailcall(const char *link_pin, const char *jmp_pin,
			const char *map_pin)
{
	int map, counter, jmp, dispatcher, link, pinned = strcmp(jmp_pin, "-");
	__u32 slot = 0;

	counter = new_counter(&map);
	if (counter < 0)
		return 1;
	jmp = bpf_create_map(BPF_MAP_TYPE_PROG_ARRAY, 4, 4, 1);
	if (jmp < 0)
		return fail("BPF_MAP_CREATE");
	if (bpf_update_elem(jmp, &slot, &counter, BPF_ANY))
		return fail("update slot 0");
	dispatcher = load_tail_call_prog(BPF_PROG_TYPE_XDP, jmp, -1, XDP_PASS);
	if (dispatcher < 0)
		return fail("BPF_PROG_LOAD");
	link = bpf_link_create(dispatcher, if_nametoindex("lo"), BPF_XDP, NULL);
	if (link < 0)
		return fail("BPF_LINK_CREATE");
	if (bpf_obj_pin(map, map_pin))
		return fail(map_pin);
	if (pinned && bpf_obj_pin(jmp, jmp_pin)) {
		unlink(map_pin);
		return fail(jmp_pin);
	}
	if (bpf_obj_pin(link, link_pin)) {
		unlink(map_pin);
		if (pinned)
			unlink(jmp_pin);
		return fail(link_pin);
	}
	printf("XDP dispatcher on lo, link pinned at %s; its prog array, a counter in slot 0, pinned %s%s\n",
	       link_pin, pinned ? "at " : "nowhere", pinned ? jmp_pin : "");
	return 0;
}

/* The fd of the prog array the program prog uses, or -1. */
static int prog_array_of(int prog)
{
	struct bpf_map_info map;
	unsigned int ids[8];
	int fd, i, n;

	n = prog_map_ids(prog, ids, 8);
	if (n < 0)
		return -1;
	if (n > 8)
		n = 8;
	for (i = 0; i < n; i++) {
		fd = bpf_map_get_fd_by_id(ids[i]);
		if (fd < 0)
			continue;
		if (bpf_map_get_info(fd, &map) == 0 &&
		    map.type == BPF_MAP_TYPE_PROG_ARRAY)
			return fd;
		close(fd);
	}
	errno = ENOENT;
	return -1;
}

static int cmd_slot(const char *link_pin)
{
	__u32 slot = 0, prog = 0;
	int link, dispatcher, jmp, tries, ret = -1;

	link = bpf_obj_get(link_pin);
	if (link < 0)
		return fail(link_pin);
	dispatcher = bpf_prog_get_fd_by_id(link_prog_id(link));
	if (dispatcher < 0)
		return fail("the link's program");
	jmp = prog_array_of(dispatcher);
	if (jmp < 0)
		return fail("the dispatcher's prog array");
	/* the kernel empties the slots from a work queue: give it time */
	for (tries = 0; tries < 500; tries++) {
		ret = bpf_lookup_elem(jmp, &slot, &prog);
		if (ret && errno != ENOENT)
			return fail("lookup slot 0");
		if (ret)
			break;
		usleep(10000);
	}
	printf("slot 0 of the prog array behind %s: ", link_pin);
	if (ret)
		printf("empty\n");
	else
		printf("program %u\n", prog);
	return 0;
}

static int cmd_send(const char *count)
{
	char *end;
	int n;

	n = strtol(count, &end, 10);
	if (*end || n < 0 || n > 1000) {
		fputs(usage, stderr);
		return 2;
	}
	/* a receiver, so no ICMP port-unreachable adds to lo's packets */
	if (lo_udp_sink(PORT) < 0)
		return fail("bind");
	if (lo_send_udp(PORT, 1, n))
		return fail("sendto");
	printf("sent %d\n", n);
	return 0;
}

static int cmd_count(const char *map_pin)
{
	__u64 count = 0;

	if (read_pinned_count(map_pin, &count))
		return fail(map_pin);
	printf("packets: %llu\n", (unsigned long long)count);
	return 0;
}

/* A map nothing pins: it lives as long as this process's fd. */
static int cmd_unpinned(void)
{
	struct bpf_map_info info;
	int fd;

	fd = bpf_create_map(BPF_MAP_TYPE_ARRAY, 4, 4, 1);
	if (fd < 0)
		return fail("BPF_MAP_CREATE");
	if (bpf_map_get_info(fd, &info))
		return fail("BPF_OBJ_GET_INFO_BY_FD");
	printf("%u\n", info.id);
	return 0;
}

/* An fd held by this process while CMD runs (CMD itself does not get it). */
static int cmd_hold(const char *path, char **cmd)
{
	int fd, status;
	pid_t pid;

	fd = bpf_obj_get(path);
	if (fd < 0)
		return fail(path);
	fflush(stdout);
	pid = fork();
	if (pid < 0)
		return fail("fork");
	if (pid == 0) {
		close(fd);
		execvp(cmd[0], cmd);
		_exit(fail(cmd[0]) + 126);
	}
	if (waitpid(pid, &status, 0) < 0)
		return fail("waitpid");
	close(fd);
	printf("pinctl: closed the fd on %s\n", path);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}

int main(int argc, char **argv)
{
	const char *cmd = argc > 1 ? argv[1] : "";

	if (strcmp(cmd, "map") == 0 && (argc == 3 ||
	    (argc == 4 && strcmp(argv[3], "btf") == 0)))
		return cmd_map(argv[2], argc == 4);
	if (strcmp(cmd, "get") == 0 && argc == 4)
		return cmd_get(argv[2], argv[3]);
	if (strcmp(cmd, "pin-at") == 0 && argc == 4)
		return cmd_pin_at(argv[2], argv[3]);
	if (strcmp(cmd, "xdp") == 0 && argc == 4)
		return cmd_xdp(argv[2], argv[3]);
	if (strcmp(cmd, "upgrade") == 0 && argc == 4)
		return cmd_upgrade(argv[2], argv[3]);
	if (strcmp(cmd, "tailcall") == 0 && argc == 5)
		return cmd_tailcall(argv[2], argv[3], argv[4]);
	if (strcmp(cmd, "slot") == 0 && argc == 3)
		return cmd_slot(argv[2]);
	if (strcmp(cmd, "send") == 0 && argc == 3)
		return cmd_send(argv[2]);
	if (strcmp(cmd, "count") == 0 && argc == 3)
		return cmd_count(argv[2]);
	if (strcmp(cmd, "unpinned") == 0 && argc == 2)
		return cmd_unpinned();
	if (strcmp(cmd, "hold") == 0 && argc > 3)
		return cmd_hold(argv[2], argv + 3);
	fputs(usage, stderr);
	return 2;
}
