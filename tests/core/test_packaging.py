"""The package builds as a wheel with one version and a working ``bleu-core`` console script."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from bleu_core.version import __version__

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The wheel built from this checkout, installed (without dependencies) into a folder of its own."""
    where = tmp_path_factory.mktemp("wheel")
    source = where / "source"  # a copy, so the build leaves nothing in the checkout
    shutil.copytree(ROOT / "bleu_core", source / "bleu_core", ignore=shutil.ignore_patterns("__pycache__"))
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, source / name)
    build = [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--no-build-isolation", str(source), "-w"]
    subprocess.run([*build, str(where / "dist")], check=True, cwd=where)
    (wheel,) = (where / "dist").glob("*.whl")
    site = where / "site"
    pip_install = [sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--target", str(site), str(wheel)]
    subprocess.run(pip_install, check=True, cwd=where)
    return site


def test_wheel_holds_the_library_and_one_version(installed: Path) -> None:
    (info,) = installed.glob("bleu_explorer-*.dist-info")
    assert info.name == f"bleu_explorer-{__version__}.dist-info"
    assert (installed / "bleu_core" / "py.typed").exists()
    assert not (installed / "pages").exists() and not (installed / "tests").exists()
    entry = (info / "entry_points.txt").read_text()
    assert "bleu-core = bleu_core.__main__:main" in entry


def test_console_script_runs_the_cli(installed: Path, tmp_path: Path) -> None:
    ref, hyp = tmp_path / "ref.txt", tmp_path / "hyp.txt"
    ref.write_text("the cat sat on the mat\n")
    hyp.write_text("the cat sat on a mat\n")
    env = {**os.environ, "PYTHONPATH": str(installed)}
    script = [sys.executable, str(installed / "bin" / "bleu-core")]

    def run(command: list[str]) -> subprocess.CompletedProcess[str]:
        return subprocess.run(command, capture_output=True, text=True, env=env, cwd=tmp_path)

    assert run([*script, "--version"]).stdout.strip() == f"bleu_core {__version__}"
    by_script = run([*script, str(ref), "-i", str(hyp), "-b"])
    by_module = run([sys.executable, "-m", "bleu_core", str(ref), "-i", str(hyp), "-b"])
    assert by_script.returncode == 0, by_script.stderr
    assert by_script.stdout == by_module.stdout
    assert float(by_script.stdout) > 0


def test_wheel_is_a_zip_of_sources_only(installed: Path) -> None:
    wheels = list(installed.parent.glob("dist/*.whl"))
    names = zipfile.ZipFile(wheels[0]).namelist()
    assert all(name.startswith(("bleu_core/", "bleu_explorer-")) for name in names)
