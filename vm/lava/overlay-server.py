#!/usr/bin/python3
"""LAVA's test overlay, into a guest that has no network, over a serial port.

  overlay-server.py SOCKET

LAVA's boot action (transfer_overlay) types "fds-lava-fetch URL" at the
guest's shell, URL being where its HTTP server would serve the overlay
(http://DISPATCHER_IP/tmp/PATH, the file DISPATCHER_DOWNLOAD_DIR/PATH).
The guest has no network; its second serial port is this unix socket, which
QEMU connects to (vm/lava/device.yaml.in). fds-lava-fetch writes the URL on
the port, one line; this answers the file's size in bytes, one line, then
its bytes. Only files under DISPATCHER_DOWNLOAD_DIR are served; for any
other path the size is -1. Serves until QEMU closes the port, then exits.
"""

import os
import socket
import sys

# lava_common.constants.DISPATCHER_DOWNLOAD_DIR, where lava-run keeps a job's
# files (its overlay among them).
DOWNLOAD_DIR = '/var/lib/lava/dispatcher/tmp'


def local_path(url):
    """The file URL names under DOWNLOAD_DIR, or None."""
    marker = '/tmp/'
    if marker not in url:
        return None
    rel = url.split(marker, 1)[1]
    path = os.path.realpath(os.path.join(DOWNLOAD_DIR, rel))
    if not path.startswith(DOWNLOAD_DIR + '/') or not os.path.isfile(path):
        return None
    return path


def serve(conn):
    pending = b''
    while True:
        chunk = conn.recv(4096)
        if not chunk:
            return
        pending += chunk
        while b'\n' in pending:
            line, pending = pending.split(b'\n', 1)
            url = line.decode('utf-8', 'replace').strip()
            path = local_path(url)
            if path is None:
                print(f'overlay-server: refused {url!r}', file=sys.stderr)
                conn.sendall(b'-1\n')
                continue
            with open(path, 'rb') as f:
                data = f.read()
            print(f'overlay-server: {path} ({len(data)} bytes)',
                  file=sys.stderr)
            conn.sendall(b'%d\n' % len(data) + data)


def main(argv):
    if len(argv) != 2:
        sys.exit('usage: overlay-server.py SOCKET')
    if os.path.exists(argv[1]):
        os.unlink(argv[1])
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    server.bind(argv[1])
    server.listen(1)
    # ready: vm/check-lava.sh starts lava-run when this line is printed
    print('overlay-server: listening', flush=True)
    conn, _ = server.accept()
    with conn:
        serve(conn)
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
