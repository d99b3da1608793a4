// SPDX-License-Identifier: GPL-2.0
/*
 * lo_watch: shows a pinned socket filter at work. Gets the program pinned at
 * PIN, attaches it to a raw socket on lo, sends COUNT UDP datagrams of SIZE
 * bytes to 127.0.0.1:9 (with a listener, so no ICMP joins in) and prints the
 * length of every packet the socket then received, as the filter left it.
 * Usage: lo_watch PIN [COUNT [SIZE]]
 */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>

#include "bpf_syscall.h"
#include "libbpf.h"
#include "lo_net.h"

static int number(const char *s, long max, long *out)
{
	char *end;

	errno = 0;
	*out = strtol(s, &end, 10);
	return errno || *end || end == s || *out < 1 || *out > max ? -1 : 0;
}

static void usage(FILE *out)
{
	fprintf(out,
		"usage: lo_watch PIN [COUNT (1-100) [SIZE (1-1400)]]\n"
		"Gets the socket filter pinned at PIN (made by fds_example -P -p),\n"
		"attaches it to a raw socket on lo, sends COUNT UDP datagrams of\n"
		"SIZE bytes (default 3 of 100) to 127.0.0.1:9 and prints the length\n"
		"of each packet the socket received, as the filter left it.\n");
}

/* A raw socket on lo with the program pinned at pin attached; -1 on error. */
static int attach_pinned(const char *pin)
{
	int prog, sock;

	prog = bpf_obj_get(pin);
	if (prog < 0) {
		fprintf(stderr, "lo_watch: cannot get %s: %s\n", pin, strerror(errno));
		return -1;
	}
	if (bpf_obj_kind(prog) != BPF_OBJ_KIND_PROG) {
		fprintf(stderr, "lo_watch: %s is not a program\n", pin);
		return -1;
	}
	sock = lo_attach_filter(prog);
	if (sock < 0) {
		fprintf(stderr, "lo_watch: cannot attach to a raw socket on lo: %s\n",
			strerror(errno));
		return -1;
	}
	return sock;
}

/*
 * A new network namespace starts with lo down: sendto() says ENETUNREACH,
 * and where 127.0.0.1 is no local address until lo is up (a kernel made
 * from tinyconfig), bind() says EADDRNOTAVAIL first.
 */
static void lo_down_hint(int err)
{
	if (err == ENETUNREACH || err == EADDRNOTAVAIL)
		fputs("lo_watch: hint: 127.0.0.1 is unreachable while lo is down, "
		      "as it is in a new network namespace: ip link set lo up\n",
		      stderr);
}

/* count datagrams of size bytes to 127.0.0.1:9, which a socket listens on. */
static int send_datagrams(long count, long size)
{
	int err;

	if (lo_udp_sink(9) < 0) {
		err = errno;
		fprintf(stderr, "lo_watch: cannot listen on 127.0.0.1:9: %s\n",
			strerror(err));
		lo_down_hint(err);
		return -1;
	}
	if (lo_send_udp(9, size, count) < 0) {
		err = errno;
		fprintf(stderr, "lo_watch: send: %s\n", strerror(err));
		lo_down_hint(err);
		return -1;
	}
	printf("sent %ld UDP datagrams of %ld bytes to 127.0.0.1:9\n", count, size);
	return 0;
}

/* The length of each packet queued on sock, until none comes for 200 ms. */
static void print_received(int sock)
{
	struct pollfd pfd = { .fd = sock, .events = POLLIN };
	char buf[2048];
	int n = 0;

	printf("the raw socket received:");
	while (poll(&pfd, 1, 200) == 1) {
		ssize_t len = recv(sock, buf, sizeof(buf), MSG_TRUNC);

		if (len < 0)
			break;
		printf(" %zd", len);
		n++;
	}
	printf("%s\n", n ? " (bytes per packet)" : " nothing");
}

int main(int argc, char **argv)
{
	long count = 3, size = 100;
	int sock;

	if (argc == 2 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
		usage(stdout);
		return 0;
	}
	if (argc < 2 || argc > 4 || argv[1][0] == '-' ||
	    (argc > 2 && number(argv[2], 100, &count)) ||
	    (argc > 3 && number(argv[3], 1400, &size))) {
		usage(stderr);
		return 2;
	}

	sock = attach_pinned(argv[1]);
	if (sock < 0 || send_datagrams(count, size) < 0)
		return 1;
	print_received(sock);
	return 0;
}
