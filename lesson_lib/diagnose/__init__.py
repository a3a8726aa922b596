"""``boundary-lab diagnose``: what a capture of one streamed response proves, layer by layer.

The modules, one boundary each: :mod:`.inputs` (a raw body, a ``curl --trace`` file, a HAR export, as the
body's reads), :mod:`.detect` (the framing and the service, with the evidence), :mod:`.events` (the bounded
events table), :mod:`.report` (the :class:`Diagnosis`, built in one pass through
:func:`~lesson_lib.core.completion.stream_updates`), :mod:`.render` (the text report and the JSON object,
whose schema is ``schema.json`` here). The command line is :mod:`lesson_lib.cli`.
"""

from .detect import URL_HINTS, Detection, detect_contract, register_url_hint
from .errors import InputError
from .inputs import FORMATS, ChunkedDecoder, HTTPFacts, Read, Source, detect_format, open_input
from .render import render_json, render_text
from .report import Diagnosis, diagnose, stopped_layer

__all__ = [
    "FORMATS",
    "URL_HINTS",
    "ChunkedDecoder",
    "Detection",
    "Diagnosis",
    "HTTPFacts",
    "InputError",
    "Read",
    "Source",
    "detect_contract",
    "detect_format",
    "diagnose",
    "open_input",
    "register_url_hint",
    "render_json",
    "render_text",
    "stopped_layer",
]
