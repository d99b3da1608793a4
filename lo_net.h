/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Traffic on lo for the programs that watch it: a UDP receiver, datagrams
 * sent to it, and a raw socket on lo with a socket filter attached. Shared
 * by examples/lo_watch, tests/helpers/pinctl and the kselftest tests.
 */
#ifndef __LO_NET_H
#define __LO_NET_H

#include <stddef.h>

/*
 * A UDP socket bound to 127.0.0.1:port, which the caller keeps open while
 * it sends there: datagrams then find a receiver, and no ICMP
 * port-unreachable adds to what lo carries. -1 with errno on error.
 */
int lo_udp_sink(int port);

/* Sends count UDP datagrams of len bytes (at most 1500) to 127.0.0.1:port. */
int lo_send_udp(int port, size_t len, int count);

/* A raw socket on lo with the socket filter prog_fd attached; -1 with errno. */
int lo_attach_filter(int prog_fd);

#endif /* __LO_NET_H */
