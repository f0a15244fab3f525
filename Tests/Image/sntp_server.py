"""A small SNTP server (RFC 4330) on the host's loopback for the card's clock test (issue 36).

The guest reaches it through QEMU user networking's gateway, 10.0.2.2:123, which QEMU maps to
the host's 127.0.0.1:123: every packet stays on this machine. It answers each client request
(mode 3) with a server reply (mode 4), stratum 1, from the host's clock; it counts the answers.
"""

import socket
import struct
import threading
import time

NTP_EPOCH_OFFSET = 2208988800  # seconds from 1900-01-01 to 1970-01-01


def ntp_timestamp(unix_time):
    seconds = int(unix_time) + NTP_EPOCH_OFFSET
    fraction = int((unix_time % 1) * 2**32)
    return struct.pack("!II", seconds, fraction)


def reply(request, received, now):
    """The server's answer to `request` (48 bytes or more), or None when it is not a client's."""
    if len(request) < 48 or request[0] & 0x07 != 3:
        return None
    version = (request[0] >> 3) & 0x07
    header = struct.pack("!BBbb", (0 << 6) | (version << 3) | 4, 1, request[2], -20)
    root = struct.pack("!II", 0, 1 << 8)  # root delay 0, root dispersion about 4 ms
    return header + root + b"LOCL" + ntp_timestamp(now - 1) + request[40:48] + ntp_timestamp(received) + ntp_timestamp(now)


class SNTPServer:
    """Serves on `address` in a thread until `stop()`; `answers` counts the replies sent."""

    def __init__(self, address=("127.0.0.1", 123)):
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self.sock.bind(address)
        self.sock.settimeout(0.5)
        self.answers = 0
        self.running = True
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def _serve(self):
        while self.running:
            try:
                request, client = self.sock.recvfrom(512)
            except socket.timeout:
                continue
            answer = reply(request, time.time(), time.time())
            if answer:
                self.sock.sendto(answer, client)
                self.answers += 1

    def stop(self):
        self.running = False
        self.thread.join()
        self.sock.close()
