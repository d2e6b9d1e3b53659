"""Progress reporting for long computations: a caller's callback gets fractions in [0, 1], rising."""

from __future__ import annotations

from collections.abc import Callable

#: A callback taking the fraction done, in [0, 1].
Progress = Callable[[float], object]


class ProgressReporter:
    """Forwards progress in [start, stop] to the caller's callback: rising, in steps of at least 5%, ending at 1.

    Steps are coarse so that a progress bar in a page is redrawn a few dozen times, not thousands.
    """

    def __init__(
        self, callback: Progress | None, start: float = 0.0, stop: float = 1.0, last: list[float] | None = None
    ) -> None:
        if callback is not None and not callable(callback):
            raise TypeError(f"progress must be a callable taking a fraction in [0, 1], or None; got {callback!r}")
        self.callback = callback
        self.start = start
        self.stop = stop
        self.last = last if last is not None else [-1.0]  # shared by the parts of one task

    def __call__(self, fraction: float) -> None:
        value = self.start + (self.stop - self.start) * min(max(fraction, 0.0), 1.0)
        if self.callback is not None and (value >= self.last[0] + 0.05 or (value == 1.0 > self.last[0])):
            self.last[0] = value
            self.callback(value)

    def part(self, start: float, stop: float) -> ProgressReporter:
        """A reporter for a sub-task covering [start, stop] of this one."""
        span = self.stop - self.start
        return ProgressReporter(self.callback, self.start + span * start, self.start + span * stop, self.last)
