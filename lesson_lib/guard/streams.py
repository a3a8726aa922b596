"""The guarded byte streams: a response's own stream, read through a :class:`~.watch.Watch`.

Every read is handed to the reader unchanged, after the watch has seen it. The watch raises instead of a
read only when that read proved the answer broken, and at the end (EOF, or the transport's error) when the
answer is not proven whole. Closing closes the transport's stream exactly once, whoever closes first.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator

import httpx2

from .watch import Watch

__all__ = ["AsyncGuardedStream", "GuardedStream"]


class GuardedStream(httpx2.SyncByteStream):
    """A sync response stream, judged as it is read."""

    def __init__(self, inner: httpx2.SyncByteStream, watch: Watch) -> None:
        self.inner = inner
        self.watch = watch
        self.open = True

    def __iter__(self) -> Iterator[bytes]:
        reads = iter(self.inner)
        while True:
            try:
                chunk = next(reads)
            except StopIteration:
                self._release()  # released before the verdict is raised into the reader
                self.watch.eof()
                return
            except Exception as exc:
                self._release()
                self.watch.failed(exc)  # raises unless the answer was already proven whole
                return
            try:
                self.watch.read(chunk)
            except BaseException:
                self._release()
                raise
            yield chunk

    def close(self) -> None:
        self.watch.closed()  # does nothing if the watch already ended
        self._release()

    def _release(self) -> None:
        if self.open:
            self.open = False
            self.inner.close()


class AsyncGuardedStream(httpx2.AsyncByteStream):
    """An async response stream, judged as it is read: the same steps as :class:`GuardedStream`."""

    def __init__(self, inner: httpx2.AsyncByteStream, watch: Watch) -> None:
        self.inner = inner
        self.watch = watch
        self.open = True

    async def __aiter__(self) -> AsyncIterator[bytes]:
        reads = aiter(self.inner)
        while True:
            try:
                chunk = await anext(reads)
            except StopAsyncIteration:
                await self._release()
                self.watch.eof()
                return
            except Exception as exc:
                await self._release()
                self.watch.failed(exc)
                return
            try:
                self.watch.read(chunk)
            except BaseException:
                await self._release()
                raise
            yield chunk

    async def aclose(self) -> None:
        self.watch.closed()
        await self._release()

    async def _release(self) -> None:
        if self.open:
            self.open = False
            await self.inner.aclose()
