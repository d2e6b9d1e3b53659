"""The About page names every way into the app, presentation and exercise mode included (a mode no one can
reach does not exist), and the links open those modes."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import parse_qs

from streamlit.testing.v1 import AppTest

APP = str(Path(__file__).resolve().parents[2] / "app.py")


def about() -> AppTest:
    at = AppTest.from_file(APP, default_timeout=120)
    at.run()
    at.switch_page("pages/home.py").run()
    assert not at.exception, at.exception
    return at


def test_about_links_to_presentation_and_exercise_mode() -> None:
    links = {link.proto.label: parse_qs(link.proto.query_string) for link in about().get("page_link")}
    assert {"present": ["1"]} in links.values() and {"exercise": ["1"]} in links.values()
    assert any(label.startswith("Exercise mode") for label in links)
    assert any(label.startswith("Presentation mode") for label in links)


def test_the_exercise_link_opens_exercise_mode() -> None:
    at = AppTest.from_file(APP, default_timeout=120)
    at.query_params["exercise"] = "1"
    at.run()
    assert not at.exception, at.exception
    assert "exercise number (seed)" in [box.label for box in at.number_input]
