"""A headless Streamlit client: the messages a browser tab sends and reads on ``/_stcore/stream``.

A browser tab first loads the page's HTML (which sets the XSRF cookie, and behind ``make serve`` the
``bleu_route`` cookie that pins the tab to one worker), then opens the websocket with the subprotocol
``streamlit`` and sends a ``rerun_script`` BackMsg: a ClientState naming the page (``page_name`` is the
page's URL path, ``""`` for the default page), the query string and the widget values. The server answers
with ForwardMsgs: ``new_session`` (carrying the session id), deltas (elements, among them exceptions),
and ``script_finished`` when the run is over. A widget change is one more ``rerun_script`` whose
``widget_states`` carry the new value under the widget's id, which the client reads off the deltas.
"""

from __future__ import annotations

import asyncio
import time
import urllib.parse
from dataclasses import dataclass, field
from http.cookies import SimpleCookie

from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg
from streamlit.proto.WidgetStates_pb2 import WidgetState
from tornado.httpclient import AsyncHTTPClient, HTTPClientError, HTTPRequest
from tornado.websocket import WebSocketClientConnection, websocket_connect

#: Tornado's HTTP client queues past 10 requests at once; a hundred tabs load their pages together.
AsyncHTTPClient.configure(None, max_clients=256)

#: Seconds one run may take before the client counts it as dropped.
RUN_TIMEOUT = 120.0


@dataclass
class RunResult:
    """One script run as a tab saw it: wall seconds to ``script_finished``, exceptions shown, and status."""

    seconds: float
    exceptions: int
    finished: bool
    status: str


@dataclass
class Session:
    """One tab: its cookies, websocket, Streamlit session id, its checkboxes and text boxes (label -> id), the
    values it set, and the query string the server last gave its URL."""

    base_url: str
    page: str
    cookies: dict[str, str] = field(default_factory=dict)
    connection: WebSocketClientConnection | None = None
    session_id: str = ""
    widgets: dict[str, str] = field(default_factory=dict)
    values: dict[str, bool | str] = field(default_factory=dict)
    query_string: str = ""

    def cookie_header(self) -> str:
        return "; ".join(f"{name}={value}" for name, value in self.cookies.items())

    def remember_cookies(self, set_cookie_headers: list[str]) -> None:
        for header in set_cookie_headers:
            jar: SimpleCookie = SimpleCookie()
            jar.load(header)
            self.cookies.update({name: morsel.value for name, morsel in jar.items()})

    async def load_html(self) -> None:
        """GET the page, then the health route, as a browser does first; keeps the cookies they set."""
        path = "" if self.page == "explain" else self.page
        for url in (f"{self.base_url}/{path}", f"{self.base_url}/_stcore/health"):
            request = HTTPRequest(url, headers={"Cookie": self.cookie_header()})
            response = await AsyncHTTPClient().fetch(request)
            self.remember_cookies(response.headers.get_list("Set-Cookie"))

    async def connect(self, resume: bool = False) -> None:
        """Open the websocket; ``resume`` asks for this tab's session back, as a browser does after a drop."""
        ws_url = self.base_url.replace("http", "ws", 1) + "/_stcore/stream"
        request = HTTPRequest(ws_url, headers={"Cookie": self.cookie_header()}, request_timeout=RUN_TIMEOUT)
        # The subprotocol list carries (protocol, XSRF token, session id to resume).
        protocols = ["streamlit"]
        if resume:
            protocols += [self.cookies.get("_streamlit_xsrf", "-"), self.session_id]
        self.connection = await websocket_connect(request, subprotocols=protocols)

    async def run(self, query: str = "", changes: dict[str, bool | str] | None = None) -> RunResult:
        """Send one ``rerun_script`` and read until ``script_finished``; ``changes`` maps widget labels to values
        (a bool for a checkbox, a str for a text box, as typed or pasted)."""
        if self.connection is None:
            raise RuntimeError("connect() before run()")
        message = BackMsg()
        state = message.rerun_script
        state.query_string = query
        state.page_name = "" if self.page == "explain" else self.page
        self.values.update(changes or {})  # a browser sends every value it holds, not only the changed one
        for label, value in self.values.items():
            if isinstance(value, str):
                state.widget_states.widgets.append(WidgetState(id=self.widgets[label], string_value=value))
            else:
                state.widget_states.widgets.append(WidgetState(id=self.widgets[label], bool_value=value))
        started = time.perf_counter()
        await self.connection.write_message(message.SerializeToString(), binary=True)
        exceptions = 0
        while True:
            try:
                raw = await _read(self.connection, started)
            except TimeoutError:
                return RunResult(time.perf_counter() - started, exceptions, False, "timeout")
            if raw is None:
                return RunResult(time.perf_counter() - started, exceptions, False, "dropped")
            forward = ForwardMsg()
            forward.ParseFromString(raw if isinstance(raw, bytes) else raw.encode())
            kind = forward.WhichOneof("type")
            if kind == "new_session":
                self.session_id = forward.new_session.initialize.session_id
            elif kind == "page_info_changed":
                self.query_string = forward.page_info_changed.query_string
            elif kind == "delta":
                exceptions += self._read_element(forward)
            elif kind == "script_finished":
                status = ForwardMsg.ScriptFinishedStatus.Name(forward.script_finished)
                if status == "FINISHED_EARLY_FOR_RERUN":
                    continue
                return RunResult(time.perf_counter() - started, exceptions, status == "FINISHED_SUCCESSFULLY", status)

    def _read_element(self, forward: ForwardMsg) -> int:
        """Remember checkbox and text box ids by label; 1 if the delta shows an exception."""
        if forward.delta.WhichOneof("type") != "new_element":
            return 0
        element = forward.delta.new_element
        kind = element.WhichOneof("type")
        if kind in ("checkbox", "text_input", "text_area"):
            widget = getattr(element, kind)
            self.widgets[widget.label] = widget.id
        return int(kind == "exception")

    async def upload(self, name: str, content: bytes) -> int:
        """PUT one file to this session's upload URL as the browser's uploader does; the HTTP status."""
        url = f"{self.base_url}/_stcore/upload_file/{self.session_id}/{urllib.parse.quote(name)}"
        boundary = "bleu-load-boundary"
        body = (
            (
                f'--{boundary}\r\nContent-Disposition: form-data; name="file"; filename="{name}"\r\n'
                f"Content-Type: text/plain\r\n\r\n"
            ).encode()
            + content
            + f"\r\n--{boundary}--\r\n".encode()
        )
        headers = {
            "Cookie": self.cookie_header(),
            "X-Xsrftoken": self.cookies.get("_streamlit_xsrf", ""),
            "Content-Type": f"multipart/form-data; boundary={boundary}",
        }
        try:
            response = await AsyncHTTPClient().fetch(HTTPRequest(url, method="PUT", headers=headers, body=body))
        except HTTPClientError as error:
            return error.code
        return response.code

    def close(self) -> None:
        if self.connection is not None:
            self.connection.close()
            self.connection = None


async def _read(connection: WebSocketClientConnection, started: float) -> str | bytes | None:
    remaining = RUN_TIMEOUT - (time.perf_counter() - started)
    if remaining <= 0:
        raise TimeoutError
    return await asyncio.wait_for(connection.read_message(), remaining)


async def open_and_run(base_url: str, page: str, query: str = "") -> tuple[Session, RunResult]:
    """A new tab on ``page``: HTML, websocket, first run. A failed connection counts as dropped."""
    session = Session(base_url, page)
    try:
        await session.load_html()
        await session.connect()
    except (OSError, HTTPClientError) as error:
        return session, RunResult(0.0, 0, False, f"dropped: {error}")
    return session, await session.run(query)
