"""``deploy/serve.py``'s folders and logs: it changes no folder it did not create, and its logs (which hold what
students type: it travels in the pages' links) are 0600 in a 0700 folder. No server is started here."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import deploy.serve


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def run_main(monkeypatch: pytest.MonkeyPatch, *arguments: str) -> Path:
    """``python -m deploy.serve ARGUMENTS`` up to the point where it would start serving; returns its run folder."""
    given: list[Path] = []

    def serve(workers: int, host: str, port: int, worker_port: int, run: Path) -> int:
        given.append(run)
        return 0

    monkeypatch.setattr(deploy.serve, "serve", serve)
    monkeypatch.setattr(sys, "argv", ["deploy.serve", "--workers", "1", *arguments])
    assert deploy.serve.main() == 0
    return given[0]


def test_an_existing_sticky_world_writable_run_dir_keeps_its_mode(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    shared = tmp_path / "shared"
    shared.mkdir()
    shared.chmod(0o1777)  # like /tmp: anyone writes, only owners delete
    run = run_main(monkeypatch, "--run-dir", str(shared))
    assert run == shared.resolve()
    assert mode(shared) == 0o1777
    assert mode(shared / "logs") == 0o700


def test_an_existing_run_dir_of_any_mode_keeps_it(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    for given in (0o700, 0o750, 0o2775):
        folder = tmp_path / f"run-{given:o}"
        folder.mkdir()
        folder.chmod(given)
        run_main(monkeypatch, "--run-dir", str(folder))
        assert mode(folder) == given


def test_a_run_dir_it_makes_is_closed_to_other_users(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    run = run_main(monkeypatch, "--run-dir", str(tmp_path / "new" / "run"))
    assert (mode(run), mode(run / "logs")) == (0o700, 0o700)
    default = run_main(monkeypatch)  # a temporary folder
    try:
        assert (mode(default), mode(default / "logs")) == (0o700, 0o700)
    finally:
        (default / "logs").rmdir()
        default.rmdir()


def test_a_logs_folder_an_earlier_run_left_open_is_refused_not_changed(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    (tmp_path / "run" / "logs").mkdir(parents=True)
    (tmp_path / "run" / "logs").chmod(0o755)
    with pytest.raises(SystemExit, match="open to other users"):
        run_main(monkeypatch, "--run-dir", str(tmp_path / "run"))
    assert mode(tmp_path / "run" / "logs") == 0o755


def test_worker_logs_are_0600(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    started: list[dict[str, Any]] = []

    class Started:
        def __init__(self, command: list[str], **options: Any) -> None:
            started.append(options)

    monkeypatch.setattr(subprocess, "Popen", Started)
    run = deploy.serve.prepare_run(tmp_path / "run")
    old = run / "logs" / "worker-8602.log"
    old.write_text("an earlier run's log, left 0644\n")
    old.chmod(0o644)
    deploy.serve.start_worker(8601, run)
    deploy.serve.start_worker(8602, run)
    for options in started:
        options["stdout"].close()
    assert sorted(path.name for path in (run / "logs").iterdir()) == ["worker-8601.log", "worker-8602.log"]
    assert {mode(path) for path in (run / "logs").iterdir()} == {0o600}
    assert old.read_text() == "an earlier run's log, left 0644\n"  # appended to, not replaced


def test_nginx_keeps_request_bodies_in_a_folder_of_its_own() -> None:
    temp = deploy.serve.make_nginx_temp()
    try:
        # Root's nginx runs its worker as another user, which passes through (and only that); else 0700.
        assert mode(temp) == (0o711 if os.geteuid() == 0 else 0o700)
        assert not any(temp.iterdir())
    finally:
        temp.rmdir()
