"""A test double for a Zulip server whose integration catalog differs from Weir's: an HTTP
proxy on a free loopback port that forwards every request to a weir-server and, in the
answers of `POST /api/v1/register` that carry `realm_incoming_webhook_bots`, adds entries
of its own (integrations weir-server does not have, with their own event types and URL
options). The app connects through it as one more account (`test_catalog.py`), so what the
URL builder offers comes from a server that is not the local one in content, not only in
feature level.

The added entries are shaped as the upstream's level shapes them (`input_type` from level
485, `validator` before), so the double stays a plausible Zulip whatever the upstream
emulates. With Zulip's catalog beside the repository (`shared/reference/zulip-data/`), its
91 integrations can be served too, for the README's screenshot of a real-sized catalog."""

from __future__ import annotations

import http.client
import json
import threading
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

# Zulip's catalog as `register` describes it (names, display names, event lists, URL
# options of Zulip 11's 91 webhook integrations): facts kept outside the project, in
# `shared/` beside the repository or beside a folder above it (a worktree).
ZULIP_DATA = Path("shared/reference/zulip-data/integrations.json")


def zulip_integrations_file() -> Path | None:
    """Where Zulip's `integrations.json` is, if this checkout has it beside it."""
    for folder in Path(__file__).resolve().parents:
        if (folder / ZULIP_DATA).is_file():
            return folder / ZULIP_DATA
    return None

# The level from which Zulip calls an option's validator `input_type`.
INPUT_TYPE_LEVEL = 485
# Headers that describe one hop, not the message (RFC 9110 §7.6.1), and the encoding the
# double asks the upstream not to use so that it can rewrite the JSON.
HOP_BY_HOP = {
    "connection",
    "keep-alive",
    "proxy-connection",
    "te",
    "trailer",
    "transfer-encoding",
    "upgrade",
    "accept-encoding",
    "content-length",
    "host",
}
# Long polls (`GET /events`) may last as long as the upstream keeps them.
UPSTREAM_TIMEOUT = 120


def zulip_catalog() -> list[dict]:
    """Zulip's integrations in `register`'s shape (validators named `validator`; null event
    lists where Zulip's were not read), or none without `shared/`."""
    found = zulip_integrations_file()
    if found is None:
        return []
    data = json.loads(found.read_text(encoding="utf-8"))
    entries = []
    for item in data["integrations"]:
        if not item.get("in_realm_incoming_webhook_bots", True):
            continue
        events = item.get("all_event_types") if item.get("all_event_types_status") == "read" else None
        entries.append(
            {
                "name": item["name"],
                "display_name": item["display_name"],
                "all_event_types": events,
                "config_options": [],
                "url_options": [
                    {"key": o["key"], "label": o["label"], "validator": o["validator"]}
                    for o in item.get("url_options", [])
                ],
            }
        )
    return entries


def shaped(entry: dict, level: int) -> dict:
    """`entry` as a server at `level` sends it: options say `input_type` from 485."""
    if level < INPUT_TYPE_LEVEL:
        return entry
    options = [
        {("input_type" if key == "validator" else key): value for key, value in option.items()}
        for option in entry.get("url_options", [])
    ]
    return {**entry, "url_options": options}


def add_entries(register: dict, extra: list[dict]) -> dict:
    """`register`'s answer with `extra` added to its catalog (names it already lists keep
    the upstream's entry); unchanged when it carries no catalog."""
    bots = register.get("realm_incoming_webhook_bots")
    if not isinstance(bots, list):
        return register
    level = int(register.get("zulip_feature_level") or 0)
    have = {bot.get("name") for bot in bots}
    added = [shaped(entry, level) for entry in extra if entry["name"] not in have]
    return {**register, "realm_incoming_webhook_bots": bots + added}


class CatalogDouble:
    """The proxy: `url` is its base URL; `registers` counts the catalogs it rewrote."""

    def __init__(self, upstream: str, extra: list[dict]):
        parsed = urllib.parse.urlsplit(upstream)
        assert parsed.scheme == "http" and parsed.hostname in ("127.0.0.1", "localhost"), upstream
        self.upstream_host = parsed.hostname
        self.upstream_port = parsed.port or 80
        self.extra = extra
        self.registers = 0
        self._lock = threading.Lock()
        double = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_GET(self):
                double._forward(self)

            do_POST = do_PUT = do_PATCH = do_DELETE = do_HEAD = do_GET

            def log_message(self, format, *args):  # quiet: the suite's output is the app's
                pass

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}"

    def __enter__(self) -> CatalogDouble:
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=10)

    def _forward(self, handler: BaseHTTPRequestHandler) -> None:
        body = _request_body(handler)
        headers = {k: v for k, v in handler.headers.items() if k.lower() not in HOP_BY_HOP}
        upstream = http.client.HTTPConnection(
            self.upstream_host, self.upstream_port, timeout=UPSTREAM_TIMEOUT
        )
        try:
            upstream.request(handler.command, handler.path, body=body, headers=headers)
            response = upstream.getresponse()
            answer = response.read()
            answer_headers = [
                (k, v) for k, v in response.getheaders() if k.lower() not in HOP_BY_HOP
            ]
            status = response.status
        except OSError as error:
            status, answer = 502, json.dumps({"result": "error", "msg": str(error)}).encode()
            answer_headers = [("Content-Type", "application/json")]
        finally:
            upstream.close()
        path = urllib.parse.urlsplit(handler.path).path
        if status == 200 and path == "/api/v1/register":
            answer = self._rewrite(answer)
        handler.send_response(status)
        for key, value in answer_headers:
            handler.send_header(key, value)
        handler.send_header("Content-Length", str(len(answer)))
        handler.end_headers()
        if handler.command != "HEAD":
            handler.wfile.write(answer)

    def _rewrite(self, answer: bytes) -> bytes:
        try:
            register = json.loads(answer)
        except ValueError:
            return answer
        rewritten = add_entries(register, self.extra)
        if rewritten is register:
            return answer
        with self._lock:
            self.registers += 1
        return json.dumps(rewritten).encode()


def _request_body(handler: BaseHTTPRequestHandler) -> bytes | None:
    """The request's body, read whole (by length, or chunk by chunk)."""
    if handler.headers.get("Transfer-Encoding", "").lower() == "chunked":
        chunks = []
        while True:
            size = int(handler.rfile.readline().split(b";")[0].strip() or b"0", 16)
            if size == 0:
                while handler.rfile.readline() not in (b"\r\n", b"\n", b""):
                    pass
                return b"".join(chunks)
            chunks.append(handler.rfile.read(size))
            handler.rfile.readline()
    length = int(handler.headers.get("Content-Length") or 0)
    return handler.rfile.read(length) if length else None
