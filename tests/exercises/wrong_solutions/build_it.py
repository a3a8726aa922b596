"""Plausible wrong line splitters, event assemblers and pipelines for build-it, and right variants."""
# ruff: noqa: E501

from __future__ import annotations

import re

from lesson_lib import Event, LineSplitter


class GoodSplitter:
    """The pattern most right answers follow: fragments of the unfinished line, and a pending CR."""

    def __init__(self):
        self._parts, self._after_cr = [], False

    def feed(self, text):
        if self._after_cr and text.startswith("\n"):
            text, self._after_cr = text[1:], False
        if not text:
            return []
        self._after_cr = text.endswith("\r")
        *lines, tail = re.split(r"\r\n|\r|\n", text)
        if lines:
            lines[0] = "".join(self._parts) + lines[0]
            self._parts = []
        if tail:
            self._parts.append(tail)
        return lines

    def close(self):
        if self._parts:
            raise ValueError("unfinished line")
        return []


class GoodAssembler:
    def __init__(self):
        self._data, self._type, self._id = [], "", ""

    def feed(self, lines):
        events = []
        for line in lines:
            if line == "":
                if self._data:
                    events.append(Event(self._type or "message", "\n".join(self._data), self._id))
                self._data, self._type = [], ""
            elif not line.startswith(":"):
                name, colon, value = line.partition(":")
                value = value[1:] if colon and value.startswith(" ") else value
                if name == "data":
                    self._data.append(value)
                elif name == "event":
                    self._type = value
                elif name == "id" and "\x00" not in value:
                    self._id = value
        return events

    def close(self):
        self._data, self._type = [], ""
        return []


# -- wrong splitters -------------------------------------------------------------------------------------


class SplitterForgettingACR(GoodSplitter):
    def feed(self, text):
        self._after_cr = False
        return super().feed(text)


class SplitterWithSplitlines(GoodSplitter):
    def feed(self, text):
        return [piece for line in super().feed(text) for piece in (line.splitlines() or [""])]


class SplitterThatNeverComplains(GoodSplitter):
    def close(self):
        return []


class SplitterResplittingItsBuffer:
    """Adds each piece to one string and re-splits the whole of it on every feed: quadratic."""

    def __init__(self):
        self._buffer, self._after_cr = "", False

    def feed(self, text):
        if not text:
            return []
        if self._after_cr and text.startswith("\n"):
            text = text[1:]
        self._after_cr = text.endswith("\r")
        self._buffer += text
        *lines, self._buffer = re.split(r"\r\n|\r|\n", self._buffer)
        return lines

    def close(self):
        if self._buffer:
            raise ValueError("unfinished line")
        return []


class SplitterSearchingFromTheStart:
    """A growing buffer, searched again from its start for a line ending on every feed."""

    def __init__(self):
        self._buffer, self._after_cr = "", False

    def feed(self, text):
        if not text:
            return []
        if self._after_cr and text.startswith("\n"):
            text = text[1:]
        self._after_cr = False
        self._buffer = self._buffer + text
        lines = []
        while True:
            ends = [i for i in (self._buffer.find("\r"), self._buffer.find("\n")) if i != -1]
            if not ends:
                return lines
            end = min(ends)
            if self._buffer[end] == "\r" and end + 1 == len(self._buffer):
                self._after_cr = True
            skip = 2 if self._buffer[end : end + 2] == "\r\n" else 1
            lines.append(self._buffer[:end])
            self._buffer = self._buffer[end + skip :]

    def close(self):
        if self._buffer:
            raise ValueError("unfinished line")
        return []


# -- right splitters -------------------------------------------------------------------------------------


class SplitterDelegatingToLessonLib:
    def __init__(self):
        self._inner = LineSplitter(max_line_chars=None)

    def feed(self, text):
        return self._inner.feed(text)

    def close(self):
        return self._inner.close()


class SplitterWithAStartIndex:
    """Scans each piece once from a start index; the unfinished line kept as fragments."""

    def __init__(self):
        self._parts, self._after_cr = [], False

    def feed(self, text):
        out, start = [], 0
        if self._after_cr and text[:1] == "\n":
            start = 1
        if text:
            self._after_cr = False
        i = start
        while i < len(text):
            if text[i] in "\r\n":
                self._parts.append(text[start:i])
                out.append("".join(self._parts))
                self._parts = []
                if text[i] == "\r":
                    if i + 1 < len(text):
                        i += text[i + 1] == "\n"
                    else:
                        self._after_cr = True
                start = i + 1
            i += 1
        if start < len(text):
            self._parts.append(text[start:])
        return out

    def close(self):
        if self._parts:
            raise ValueError("unfinished line")
        return []


class SplitterJoiningAtTheNewline(GoodSplitter):
    """The solution's shape with a generator inside: the list is built from it."""

    def feed(self, text):
        return list(self._lines(text))

    def _lines(self, text):
        yield from super().feed(text)


# -- wrong assemblers ------------------------------------------------------------------------------------


class AssemblerDispatchingAtEOF(GoodAssembler):
    def close(self):
        return self.feed([""])


class AssemblerForgettingBetweenReads(GoodAssembler):
    def feed(self, lines):
        self._data, self._type = [], ""
        return super().feed(lines)


class AssemblerJoiningWithNothingAndStripping(GoodAssembler):
    """Data lines joined with "" and values strip()ped."""

    def feed(self, lines):
        events = []
        for line in lines:
            if line == "":
                if self._data:
                    events.append(Event(self._type or "message", "".join(self._data), self._id))
                self._data, self._type = [], ""
            elif not line.startswith(":"):
                name, _, value = line.partition(":")
                value = value.strip()
                if name == "data":
                    self._data.append(value)
                elif name == "event":
                    self._type = value
                elif name == "id" and "\x00" not in value:
                    self._id = value
        return events


class AssemblerStrippingTheValue(GoodAssembler):
    """Joins with LF, but strip()s the value for "the space after the colon"."""

    def feed(self, lines):
        out = []
        for line in lines:
            name, colon, value = line.partition(":")
            out.append(f"{name}:{value.strip()}" if colon and name else line)
        return super().feed(out)


class AssemblerTakingTheIdAtTheFirstDataLine(GoodAssembler):
    """Reads the id when the event's first data line arrives: an id after the data is missed."""

    def feed(self, lines):
        events = []
        for line in lines:
            if line == "":
                if self._data:
                    events.append(Event(self._type or "message", "\n".join(self._data), self._event_id))
                self._data, self._type = [], ""
                continue
            if line.startswith("data") and not self._data:
                self._event_id = self._id
            super().feed([line])
        return events


class AssemblerTakingTheTypeAtTheFirstDataLine(GoodAssembler):
    def feed(self, lines):
        events = []
        for line in lines:
            if line == "":
                if self._data:
                    events.append(Event(self._event_type or "message", "\n".join(self._data), self._id))
                self._data, self._type = [], ""
                continue
            if line.startswith("data") and not self._data:
                self._event_type = self._type
            super().feed([line])
        return events


class AssemblerReturningTuples(GoodAssembler):
    def feed(self, lines):
        return [(e.type, e.data, e.last_event_id) for e in super().feed(lines)]


# -- right assemblers ------------------------------------------------------------------------------------


class AssemblerWithADictOfFields:
    """Fields kept in a dict, events built with a generator."""

    def __init__(self):
        self._fields = {"data": [], "event": ""}
        self._id = ""

    def feed(self, lines):
        return list(self._events(lines))

    def _events(self, lines):
        for line in lines:
            if not line:
                data, kind = self._fields["data"], self._fields["event"]
                self._fields = {"data": [], "event": ""}
                if data:
                    yield Event(kind or "message", "\n".join(data), self._id)
                continue
            name, colon, value = line.partition(":")
            if colon and value[:1] == " ":
                value = value[1:]
            if name == "data":
                self._fields["data"].append(value)
            elif name == "event":
                self._fields["event"] = value
            elif name == "id" and "\0" not in value:
                self._id = value

    def close(self):
        self._fields = {"data": [], "event": ""}
        return []


WRONG = [
    ("splitter", "SplitterForgettingACR", SplitterForgettingACR, ["checkers.build.splitter_hint.crlf"]),
    ("splitter", "SplitterWithSplitlines", SplitterWithSplitlines, ["checkers.build.splitter_case.not_endings"]),
    ("splitter", "SplitterThatNeverComplains", SplitterThatNeverComplains, ["checkers.build.close_unfinished"]),
    ("splitter", "SplitterResplittingItsBuffer", SplitterResplittingItsBuffer, ["checkers.build.cost_quadratic"]),
    ("splitter", "SplitterSearchingFromTheStart", SplitterSearchingFromTheStart, ["checkers.build.cost_quadratic"]),
    ("assembler", "AssemblerDispatchingAtEOF", AssemblerDispatchingAtEOF, ["checkers.build.assembler_case.ends_before_blank_line"]),
    ("assembler", "AssemblerForgettingBetweenReads", AssemblerForgettingBetweenReads, ["checkers.build.assembler_hint.inside_event"]),
    ("assembler", "AssemblerJoiningWithNothingAndStripping", AssemblerJoiningWithNothingAndStripping, ["checkers.build.assembler_case.two_data_lines"]),
    ("assembler", "AssemblerStrippingTheValue", AssemblerStrippingTheValue, ["checkers.build.assembler_case.one_space"]),
    ("assembler", "AssemblerTakingTheIdAtTheFirstDataLine", AssemblerTakingTheIdAtTheFirstDataLine, ["checkers.build.assembler_case.id_after_data"]),
    ("assembler", "AssemblerTakingTheTypeAtTheFirstDataLine", AssemblerTakingTheTypeAtTheFirstDataLine, ["checkers.build.assembler_case.event_after_data"]),
    ("assembler", "AssemblerReturningTuples", AssemblerReturningTuples, ["checkers.build.shape.not_event"]),
    ("pipeline", "pipeline_splitter_forgetting_a_cr", (SplitterForgettingACR, GoodAssembler), ["checkers.build.splitter_hint.crlf"]),
    ("pipeline", "pipeline_assembler_dispatching_at_eof", (GoodSplitter, AssemblerDispatchingAtEOF), ["checkers.build.assembler_case.ends_before_blank_line"]),
    ("pipeline", "pipeline_assembler_id_at_first_data", (GoodSplitter, AssemblerTakingTheIdAtTheFirstDataLine), ["checkers.build.assembler_case.id_after_data"]),
    ("pipeline", "pipeline_splitter_with_splitlines", (SplitterWithSplitlines, GoodAssembler), ["checkers.build.assembler_case.not_line_endings"]),
]

PHRASES: dict[str, list[str]] = {}

RIGHT = [
    ("splitter", "SplitterDelegatingToLessonLib", SplitterDelegatingToLessonLib),
    ("splitter", "SplitterWithAStartIndex", SplitterWithAStartIndex),
    ("splitter", "SplitterJoiningAtTheNewline", SplitterJoiningAtTheNewline),
    ("assembler", "AssemblerWithADictOfFields", AssemblerWithADictOfFields),
    ("pipeline", "pipeline_lesson_lib_splitter_dict_assembler", (SplitterDelegatingToLessonLib, AssemblerWithADictOfFields)),
    ("pipeline", "pipeline_start_index_splitter", (SplitterWithAStartIndex, GoodAssembler)),
]
