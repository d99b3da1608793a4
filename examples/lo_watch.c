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
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include "libbpf.h"

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

int main(int argc, char **argv)
{
	struct sockaddr_in addr = {
		.sin_family = AF_INET,
		.sin_port = htons(9),
		.sin_addr.s_addr = htonl(INADDR_LOOPBACK),
	};
	long count = 3, size = 100, i;
	int prog, sock, listener, sender, n = 0;
	struct pollfd pfd;
	char buf[2048];

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

	prog = bpf_obj_get(argv[1]);
	if (prog < 0) {
		fprintf(stderr, "lo_watch: cannot get %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	if (bpf_obj_kind(prog) != BPF_OBJ_KIND_PROG) {
		fprintf(stderr, "lo_watch: %s is not a program\n", argv[1]);
		return 1;
	}
	sock = open_raw_sock("lo");
	if (sock < 0 ||
	    setsockopt(sock, SOL_SOCKET, SO_ATTACH_BPF, &prog, sizeof(prog)) < 0) {
		fprintf(stderr, "lo_watch: cannot attach to a raw socket on lo: %s\n",
			strerror(errno));
		return 1;
	}
	listener = socket(AF_INET, SOCK_DGRAM, 0);
	sender = socket(AF_INET, SOCK_DGRAM, 0);
	if (listener < 0 || sender < 0 ||
	    bind(listener, (struct sockaddr *)&addr, sizeof(addr)) < 0) {
		fprintf(stderr, "lo_watch: cannot listen on 127.0.0.1:9: %s\n",
			strerror(errno));
		return 1;
	}

	memset(buf, 'x', size);
	for (i = 0; i < count; i++) {
		if (sendto(sender, buf, size, 0, (struct sockaddr *)&addr,
			   sizeof(addr)) != size) {
			fprintf(stderr, "lo_watch: send: %s\n", strerror(errno));
			return 1;
		}
	}
	printf("sent %ld UDP datagrams of %ld bytes to 127.0.0.1:9\n", count, size);

	printf("the raw socket received:");
	pfd.fd = sock;
	pfd.events = POLLIN;
	while (poll(&pfd, 1, 200) == 1) {
		ssize_t len = recv(sock, buf, sizeof(buf), MSG_TRUNC);

		if (len < 0)
			break;
		printf(" %zd", len);
		n++;
	}
	printf("%s\n", n ? " (bytes per packet)" : " nothing");
	return 0;
}
