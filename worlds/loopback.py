"""Run an HTTP handler on 127.0.0.1 at a free port for the length of a `with` block."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class _Server(ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request, client_address) -> None:  # dropped connections are deliberate faults
        pass


@contextmanager
def serve_on_loopback(handler: type[BaseHTTPRequestHandler], name: str) -> Iterator[str]:
    """Yield the server's base URL (`http://127.0.0.1:<port>`); stop the server afterwards."""
    server = _Server(("127.0.0.1", 0), handler)
    # a short poll: `shutdown()` waits up to one poll interval (the default, 0.5 s, for each server)
    worker = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, name=name, daemon=True)
    worker.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        worker.join(timeout=5)
