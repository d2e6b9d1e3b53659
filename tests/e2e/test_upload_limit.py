"""The upload limit (server.maxUploadSize = 50 MB, stated next to every uploader): a file at the limit is scored,
one above it is refused by Streamlit with a message.

The browser side of Streamlit 1.67 counts megabytes in powers of ten (50 MB = 50,000,000 bytes) while its server
counts them in powers of two, so the effective limit is the smaller, decimal one; a file of exactly 50,000,000 bytes
is accepted and one byte more is refused.
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

from playwright.sync_api import expect

from tests.e2e.test_corpus_browser import upload
from tests.e2e.test_hostile_and_load import settle

ROOT = Path(__file__).resolve().parents[2]


def limit_bytes() -> int:
    config = tomllib.loads((ROOT / ".streamlit" / "config.toml").read_text(encoding="utf-8"))
    return int(config["server"]["maxUploadSize"]) * 1_000_000


def write_text_file(path: Path, size: int) -> None:
    """A text file of exactly ``size`` bytes: lines of words."""
    line = ("the cat sat on the mat " * 8).strip() + "\n"
    count, rest = divmod(size, len(line))
    with path.open("w", encoding="utf-8") as handle:
        handle.write(line * count)
        handle.write("x" * (rest - 1) + "\n" if rest else "")
    assert path.stat().st_size == size


def test_file_at_the_limit_is_scored_and_one_above_is_refused(server: str, page: Any, tmp_path: Path) -> None:
    limit = limit_bytes()
    at_limit = tmp_path / "at-limit.txt"
    write_text_file(at_limit, limit)
    above = tmp_path / "above-limit.txt"
    write_text_file(above, limit + 1)

    page.goto(f"{server}/corpus")
    settle(page)
    page.get_by_text("Upload files").click()
    expect(page.get_by_text(f"up to {limit // 1_000_000} MB per file")).to_be_visible(timeout=30_000)
    region = page.get_by_role("region", name="Hypothesis")
    region.locator('input[type="file"]').set_input_files(str(above))
    expect(region).to_contain_text("must be", timeout=30_000)
    expect(page.get_by_text("Upload the hypothesis (system output) file.")).to_be_visible()

    page.goto(f"{server}/corpus")
    settle(page)
    page.get_by_text("Upload files").click()
    upload(page, "Hypothesis", str(at_limit))
    upload(page, "References", str(at_limit))
    expect(page.locator('[data-testid="stMetric"]').filter(has_text="BLEU ×100")).to_contain_text(
        "100.00", timeout=240_000
    )
    expect(page.get_by_text("is identical to the reference")).to_be_visible()
    assert page.dialogs == []
