// SPDX-License-Identifier: GPL-2.0
/* Traffic on lo: see lo_net.h. */
#include <errno.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include "libbpf.h"
#include "lo_net.h"

static struct sockaddr_in loopback(int port)
{
	struct sockaddr_in addr = {
		.sin_family = AF_INET,
		.sin_port = htons(port),
		.sin_addr.s_addr = htonl(INADDR_LOOPBACK),
	};

	return addr;
}

int lo_udp_sink(int port)
{
	struct sockaddr_in addr = loopback(port);
	int sock, err;

	sock = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (sock < 0)
		return -1;
	if (bind(sock, (struct sockaddr *)&addr, sizeof(addr)) < 0) {
		err = errno;
		close(sock);
		errno = err;
		return -1;
	}
	return sock;
}

int lo_send_udp(int port, size_t len, int count)
{
	struct sockaddr_in to = loopback(port);
	char buf[1500];
	int sock, i, ret = 0, err;

	if (len > sizeof(buf)) {
		errno = EMSGSIZE;
		return -1;
	}
	memset(buf, 'x', len);
	sock = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (sock < 0)
		return -1;
	for (i = 0; i < count && ret == 0; i++)
		if (sendto(sock, buf, len, 0, (struct sockaddr *)&to,
			   sizeof(to)) != (ssize_t)len)
			ret = -1;
	err = errno;
	close(sock);
	errno = err;
	return ret;
}

int lo_attach_filter(int prog_fd)
{
	int sock, err;

	sock = open_raw_sock("lo");
	if (sock < 0)
		return -1;
	if (setsockopt(sock, SOL_SOCKET, SO_ATTACH_BPF, &prog_fd,
		       sizeof(prog_fd)) < 0) {
		err = errno;
		close(sock);
		errno = err;
		return -1;
	}
	return sock;
}
