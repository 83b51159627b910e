"""A TCP proxy on 127.0.0.1 for tests: it can drop a connection or hold it still on cue.

With TLS contexts it terminates TLS on both sides (its certificate from the test's CA), so
that it sees the commands and answers it waits for.
"""

from __future__ import annotations

import socket
import ssl
import threading

from tests.smtp_sink import free_port


class Proxy:
    """Forwards 127.0.0.1:port to a target. `cut_on` (bytes from the server) drops both sides
    once it is seen; `stall_on` (bytes from the client) stops forwarding anything once seen."""

    def __init__(self, target_port: int, *, cut_on: bytes | None = None,
                 stall_on: bytes | None = None,
                 tls: tuple[ssl.SSLContext, ssl.SSLContext] | None = None) -> None:
        self.port = free_port()
        self.tls = tls
        self.target_port = target_port
        self.cut_on = cut_on
        self.stall_on = stall_on
        self.cut = threading.Event()
        self.stalled = threading.Event()
        self.server = socket.create_server(("127.0.0.1", self.port))
        self.threads: list[threading.Thread] = []
        self.sockets: list[socket.socket] = []
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.server.accept()
            except OSError:
                return
            upstream = socket.create_connection(("127.0.0.1", self.target_port))
            if self.tls is not None:
                serving, connecting = self.tls
                try:
                    client = serving.wrap_socket(client, server_side=True)
                    upstream = connecting.wrap_socket(upstream, server_hostname="127.0.0.1")
                except (OSError, ssl.SSLError):
                    self._close(client, upstream)
                    continue
            self.sockets += [client, upstream]
            for source, sink, watch in ((client, upstream, "client"),
                                        (upstream, client, "server")):
                thread = threading.Thread(target=self._pump, args=(source, sink, watch),
                                          daemon=True)
                thread.start()
                self.threads.append(thread)

    def _pump(self, source: socket.socket, sink: socket.socket, side: str) -> None:
        seen = b""
        while True:
            try:
                data = source.recv(65536)
            except OSError:
                return
            if not data:
                self._close(source, sink)
                return
            seen = (seen + data)[-4096:]
            if side == "server" and self.cut_on is not None and self.cut_on in seen:
                self.cut.set()
                sink.sendall(data[: len(data) // 2])  # half of it, then the line goes dead
                self._close(source, sink)
                return
            if side == "client" and self.stall_on is not None and self.stall_on in seen:
                self.stalled.set()
                return  # nothing more goes through, and nothing is closed
            if self.stalled.is_set():
                return
            try:
                sink.sendall(data)
            except OSError:
                return

    @staticmethod
    def _close(*sockets: socket.socket) -> None:
        for s in sockets:
            try:
                s.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            s.close()

    def stop(self) -> None:
        """Close the listener and every connection."""
        self.server.close()
        self._close(*self.sockets)
