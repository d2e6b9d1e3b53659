"""Numbers for people: signed changes never read -0.000."""

from __future__ import annotations

from pages.shared import views


def test_signed_changes_never_show_minus_zero() -> None:
    assert [views.signed(v) for v in (-0.0001, 0.0, 0.1254, -0.02)] == ["0.000", "0.000", "+0.125", "-0.020"]
