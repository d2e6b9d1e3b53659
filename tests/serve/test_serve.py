"""``make serve`` end to end: 20 tabs through nginx to 2 workers, each tab's state stays on its worker."""

from __future__ import annotations

import asyncio
import uuid

import pytest

from bench.stclient import Session, open_and_run
from tests.serve.test_load_client import run_apart

SESSIONS = 20


async def tab(url: str, scramble_route: bool) -> tuple[Session, list[bool], int, bool]:
    """A tab on Explain: first run, an upload, a widget change, then a dropped and resumed websocket.

    Returns the session, whether each run finished without exception, the upload's HTTP status, and whether
    the resumed websocket got the same session back with the changed value still in the page's URL.
    """
    session, first = await open_and_run(url, "explain")
    if scramble_route:  # the control: a route cookie of its own on every request, as if nothing were sticky
        session.cookies["bleu_route"] = uuid.uuid4().hex
    upload = await session.upload("hypotheses.txt", b"the cat sat on the mat\n")
    changed = await session.run(session.query_string, changes={"lowercase": True})
    session_id = session.session_id
    session.close()
    if scramble_route:
        session.cookies["bleu_route"] = uuid.uuid4().hex
    await session.connect(resume=True)
    resumed = await session.run(session.query_string)
    session.close()
    kept = session.session_id == session_id and "lowercase=1" in session.query_string
    runs = [r.finished and r.exceptions == 0 for r in (first, changed, resumed)]
    return session, runs, upload, kept


async def tabs(url: str, scramble_route: bool) -> list[tuple[Session, list[bool], int, bool]]:
    return await asyncio.gather(*(tab(url, scramble_route) for _ in range(SESSIONS)))


@pytest.mark.slow
def test_twenty_tabs_through_the_proxy_keep_their_worker(served: str) -> None:
    sticky = run_apart(tabs(served, scramble_route=False))
    assert all(all(runs) for _, runs, _, _ in sticky), [runs for _, runs, _, _ in sticky]
    assert [upload for _, _, upload, _ in sticky] == [204] * SESSIONS
    assert all(kept for *_, kept in sticky)
    assert len({session.cookies["bleu_route"] for session, *_ in sticky}) == SESSIONS
    # Without the cookie the same requests land on either worker: some uploads and resumes miss the session.
    # (The chance that all 20 land right by luck is 2**-20 for the uploads alone.)
    scrambled = run_apart(tabs(served, scramble_route=True))
    assert any(upload == 400 for _, _, upload, _ in scrambled)
    assert not all(kept for *_, kept in scrambled)
