"""The preview's web server: starlette routes, a folder watcher, and server-sent events.

Read-only: every route is a GET; nothing the page sends changes a file. The watcher
(watchfiles) hands each batch of saved files to PreviewState in a worker thread, and every
open page hears what changed.
"""

from __future__ import annotations

import asyncio
import json
import socket
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response, StreamingResponse
from starlette.routing import Route

from pnp.preview.page import PAGE
from pnp.preview.state import PreviewState

__all__ = ["LOOPBACK", "Hub", "bind", "make_app", "watch_filter"]

LOOPBACK = ("127.0.0.1", "localhost", "::1")
KEEP_ALIVE = 15.0  # seconds between comments on an idle event stream


class Hub:
    """The open event streams: each page gets every update from the moment it connects."""

    def __init__(self) -> None:
        self.queues: set[asyncio.Queue] = set()

    def join(self) -> asyncio.Queue:
        queue: asyncio.Queue = asyncio.Queue()
        self.queues.add(queue)
        return queue

    def leave(self, queue: asyncio.Queue) -> None:
        self.queues.discard(queue)

    def publish(self, message: dict[str, Any]) -> None:
        for queue in list(self.queues):
            queue.put_nowait(message)


def watch_filter(folder: Path):
    """watchfiles' default filter (editor swap files, .git, caches), and no hidden file or
    folder of the game (.schemas, pnp's own temporary files)."""
    from watchfiles import DefaultFilter

    default = DefaultFilter()
    root = folder.resolve()

    def keep(change, path: str) -> bool:
        if not default(change, path):
            return False
        try:
            parts = Path(path).resolve().relative_to(root).parts
        except ValueError:
            return True
        return not any(p.startswith((".", "~$")) or p.endswith("~") for p in parts)

    return keep


async def watch(state: PreviewState, hub: Hub, stop: asyncio.Event) -> None:
    """Refresh on every batch of saved files: the edited cards first (the fast path), then the
    whole game again (diagnostics, everything else), then the slower kinds."""
    from watchfiles import awatch

    async for changes in awatch(state.folder, stop_event=stop, watch_filter=watch_filter(
            state.folder), debounce=400, step=20, rust_timeout=1000):
        paths = {Path(p) for _, p in changes}
        quick = await run_in_threadpool(state.quick, paths)
        if quick is not None and quick.items:
            hub.publish(quick.to_json())
        update = await run_in_threadpool(state.refresh, paths)
        hub.publish(update.to_json())
        pages = await run_in_threadpool(state.refresh_pages, paths)
        if pages.items or pages.removed:
            hub.publish(pages.to_json())


def make_app(state: PreviewState, host: str = "127.0.0.1", watching: bool = True) -> Starlette:
    """The preview app for a state that has been refreshed once."""
    hub = Hub()

    async def page(request: Request) -> Response:
        return HTMLResponse(PAGE, headers={"Cache-Control": "no-store"})

    async def api_state(request: Request) -> Response:
        return JSONResponse(await run_in_threadpool(state.state_json))

    async def image(request: Request) -> Response:
        png, reported = await run_in_threadpool(state.image, request.path_params["item"])
        if png is None:
            return Response("no such item", status_code=404, media_type="text/plain")
        if reported:
            hub.publish({"diagnostics": state.diagnostics_json()})
        return Response(png, media_type="image/png", headers={"Cache-Control": "no-cache"})

    async def events(request: Request) -> Response:
        queue = hub.join()

        async def stream():
            try:
                yield "retry: 1000\n\n"
                while True:
                    try:
                        message = await asyncio.wait_for(queue.get(), KEEP_ALIVE)
                    except TimeoutError:
                        yield ": still here\n\n"
                        continue
                    yield f"event: update\ndata: {json.dumps(message)}\n\n"
            finally:
                hub.leave(queue)

        return StreamingResponse(stream(), media_type="text/event-stream",
                                 headers={"Cache-Control": "no-cache"})

    @asynccontextmanager
    async def lifespan(app):
        stop = asyncio.Event()
        tasks = []
        if watching:
            tasks.append(asyncio.create_task(watch(state, hub, stop)))

        async def first_pages() -> None:
            update = await run_in_threadpool(state.refresh_pages, None)
            if update.items:
                hub.publish(update.to_json())

        tasks.append(asyncio.create_task(first_pages()))
        try:
            yield
        finally:
            stop.set()
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)

    # a page on another site must not read the preview through a name that points here
    hosts = ["127.0.0.1", "localhost", "[::1]", "::1"] if host in LOOPBACK else ["*"]
    return Starlette(routes=[Route("/", page), Route("/api/state", api_state),
                             Route("/img/{item:path}", image), Route("/events", events)],
                     middleware=[Middleware(TrustedHostMiddleware, allowed_hosts=hosts)],
                     lifespan=lifespan)


def bind(host: str, port: int) -> socket.socket:
    """A listening socket on host:port (port 0: a free one, which the OS picks)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, port))
    sock.listen(64)
    return sock
