"""Writes made in a second thread while the caller goes on: the out-of-core shuffle's
output and bucket files are written while the next records are read and ordered.

A :class:`WriteBehind` takes ``(write, data)`` pairs and performs them in order,
one after another, in one helper thread.  At most ``limit`` bytes wait at a time
(the caller waits beyond that), so memory stays bounded.  The first write that
fails stops the helper; its exception is raised again in the caller, at its
next :meth:`~WriteBehind.put` or at :meth:`~WriteBehind.close`, and nothing
after it is written.  The data given must not change afterwards (the callers
give fresh arrays, or bytes).

>>> parts = []
>>> with WriteBehind(limit=4) as behind:
...     for piece in (b"ab", b"cd", b"e"):
...         behind.put(parts.append, piece)
>>> b"".join(parts)
b'abcde'
"""

from __future__ import annotations

import collections
import threading
from collections.abc import Callable
from types import TracebackType
from typing import Any

__all__ = ["WriteBehind"]


class WriteBehind:
    """Writes performed in order in one helper thread, with at most ``limit`` bytes waiting."""

    def __init__(self, *, limit: int) -> None:
        self.limit = max(1, limit)
        self._queue: collections.deque[tuple[Callable[[Any], object], Any, int]] = (
            collections.deque()
        )
        self._waiting = 0  # bytes queued and not yet written
        self._closed = False
        self._failure: BaseException | None = None
        self._changed = threading.Condition()
        self._thread = threading.Thread(target=self._run, name="croupier-write-behind", daemon=True)
        self._thread.start()

    def put(self, write: Callable[[Any], object], data: Any, nbytes: int | None = None) -> None:
        """Call ``write(data)`` in the helper thread, after every write put before it.

        ``nbytes`` is how many bytes it holds (by default ``data``'s size).
        """
        size = memoryview(data).nbytes if nbytes is None else nbytes
        with self._changed:
            while self._failure is None and self._waiting and self._waiting + size > self.limit:
                self._changed.wait()
            self._raise_failure()
            if self._closed:
                raise ValueError("this WriteBehind is closed")
            self._queue.append((write, data, size))
            self._waiting += size
            self._changed.notify_all()

    def close(self) -> None:
        """Wait until every write is made; raise the first write's failure, if one failed."""
        with self._changed:
            self._closed = True
            self._changed.notify_all()
        self._thread.join()
        with self._changed:
            self._raise_failure()

    def abandon(self) -> None:
        """Drop the writes not yet made and stop the helper (after a failure elsewhere)."""
        with self._changed:
            self._queue.clear()
            self._waiting = 0
            self._closed = True
            self._changed.notify_all()
        self._thread.join()

    def __enter__(self) -> WriteBehind:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        value: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        if kind is None:
            self.close()
        else:
            self.abandon()

    def _raise_failure(self) -> None:
        failure = self._failure
        if failure is not None:
            self._failure = None  # (raised once; the writes after it are dropped)
            self._closed = True
            raise failure

    def _run(self) -> None:
        while True:
            with self._changed:
                while not self._queue and not self._closed:
                    self._changed.wait()
                if not self._queue:
                    return
                write, data, size = self._queue.popleft()
            try:
                write(data)
            except BaseException as exc:  # (handed to the caller)
                with self._changed:
                    self._failure = exc
                    self._queue.clear()
                    self._waiting = 0
                    self._changed.notify_all()
                return
            del data
            with self._changed:
                self._waiting = max(0, self._waiting - size)
                self._changed.notify_all()
