"""A static file server on 127.0.0.1 for registry tests, with routes that misbehave on purpose:
redirects (chains and loops), a server that never answers, one that stops half-way, one that
sends a body of a given size, one that sends any bytes at all (a bad status line, too many
headers, a body shorter than its Content-Length) and one that trickles a byte at a time."""

from __future__ import annotations

import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path


class Server:
    def __init__(self, root: Path):
        self.root = Path(root)
        self.redirects: dict[str, str] = {}  # path -> Location
        self.stall: set[str] = set()  # paths never answered until release()
        self.half: set[str] = set()  # paths answered with half their body, then held
        self.blobs: dict[str, tuple[bytes, bool]] = {}  # path -> (body, send Content-Length)
        self.raw: dict[str, bytes] = {}  # path -> the whole answer, bytes as sent, then closed
        self.trickle: dict[str, float] = {}  # path -> seconds between bytes of a never-ending body
        self.half_sent = threading.Event()
        self.released = threading.Event()
        self.requests: list[str] = []
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):
                pass

            def do_GET(self):
                path = self.path.split("?", 1)[0]
                server.requests.append(path)
                if path in server.raw:
                    self.wfile.write(server.raw[path])
                    self.wfile.flush()
                    self.close_connection = True
                    return
                if path in server.trickle:
                    self.send_response(200)
                    self.send_header("Content-Length", "1000000")
                    self.end_headers()
                    for _ in range(100):  # bounded, stopped at release()
                        try:
                            self.wfile.write(b"#")
                            self.wfile.flush()
                        except OSError:
                            return
                        if server.released.wait(server.trickle[path]):
                            return
                    server.released.wait(30)  # then silent, the connection held open
                    return
                if path in server.stall:
                    server.released.wait(30)
                    return
                if path in server.redirects:
                    self.send_response(302)
                    self.send_header("Location", server.redirects[path])
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                    return
                if path in server.blobs:
                    body, length = server.blobs[path]
                    self.send_response(200)
                    if length:
                        self.send_header("Content-Length", str(len(body)))
                    else:
                        self.send_header("Connection", "close")
                    self.end_headers()
                    self.wfile.write(body)
                    if not length:
                        self.close_connection = True
                    return
                f = server.root / path.lstrip("/")
                if not f.is_file():
                    self.send_response(404)
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                    return
                body = f.read_bytes()
                self.send_response(200)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                if path in server.half:
                    self.wfile.write(body[: len(body) // 2])
                    self.wfile.flush()
                    server.half_sent.set()
                    server.released.wait(30)
                    return
                self.wfile.write(body)

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        # polled often, so that shutting down at the end of a test waits hundredths of a second, not half of one
        self.thread = threading.Thread(target=self.httpd.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True)

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.released.set()
        self.httpd.shutdown()
        self.httpd.server_close()
        return False
