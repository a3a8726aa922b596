"""The ``boundary-lab`` command (also ``python -m lesson_lib``): ``boundary-lab diagnose INPUT ...`` and
``boundary-lab faults ...``.

``diagnose``'s exit status: 0 only when the stream is proven complete (``StreamResult.is_final``); 1 for any
other outcome of a readable stream; 2 when the input cannot be read as a stream, with one line on standard
error naming the problem. No traceback: an unexpected failure (a bug) is one line too, naming its type
(exit status 2).

``faults`` serves the fault server (:mod:`lesson_lib.faults`) until Ctrl-C (exit status 130), ``--list``
prints the catalogue, ``--score module:function`` runs a client over it: exit status 0 if every verdict is
right, 1 otherwise, 2 with one line for a bad module, function or argument; never a traceback.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Callable, Sequence
from typing import Any

from .core.contracts import CONTRACTS
from .diagnose import FORMATS, InputError, diagnose, open_input, render_json, render_text

__all__ = ["build_parser", "main"]

PRIVACY = (
    "No stream content is printed, logged or stored by default: the report holds counts, offsets, byte "
    "classes and the framing's event types and IDs. --show-text adds the answer text, what the naive client "
    "showed, and the bytes around the cut."
)


def _entry(value: str) -> int:
    try:
        number = int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a HAR entry's index (0 or more), got {value!r}") from None
    if number < 0:
        raise argparse.ArgumentTypeError(f"must be a HAR entry's index (0 or more), got {value!r}")
    return number


def _port(value: str) -> int:
    try:
        number = int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a port number (0-65535), got {value!r}") from None
    if not 0 <= number <= 65535:
        raise argparse.ArgumentTypeError(f"must be a port number (0-65535), got {value!r}")
    return number


class _Parser(argparse.ArgumentParser):
    """argparse, but a usage error is one line on standard error and exit status 2."""

    def error(self, message: str) -> None:  # type: ignore[override]
        sys.stderr.write(f"{self.prog}: {message}\n")
        raise SystemExit(2)


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="boundary-lab", description="Boundary Lab's tools for your own streams.")
    commands = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    sub = commands.add_parser(
        "diagnose",
        help="what a capture of a streamed response proves, layer by layer",
        description="Diagnose one captured streamed response (a raw body, a `curl --trace` file, a HAR "
        "export): bytes, characters, lines, events, values, completion. "
        + PRIVACY
        + " Exit status: 0 only when the stream is proven complete, 1 for any other outcome, 2 when the "
        "input cannot be read as a stream.",
    )
    sub.add_argument("input", metavar="INPUT", help="a capture file, or - for standard input")
    sub.add_argument("--contract", metavar="NAME", help=f"the service's contract: {', '.join(CONTRACTS)}")
    sub.add_argument("--format", choices=["auto", *FORMATS], default="auto", help="the input's format")
    sub.add_argument("--entry", type=_entry, metavar="N", help="the HAR entry to read (0-based)")
    sub.add_argument("--json", action="store_true", help="one JSON object (lesson_lib/diagnose/schema.json)")
    sub.add_argument("--show-text", action="store_true", help="include the stream's content (off by default)")
    sub.add_argument("--rows", type=int, default=10, help=argparse.SUPPRESS)
    faults = commands.add_parser(
        "faults",
        help="a server that imitates each service's stream with one named fault per URL, and grades verdicts",
        description="Serve the fault catalogue: GET /faults lists it, each fault streams under "
        "/faults/<name>/<the service's own path>, POST /faults/<name>/verdict grades a client's verdict, "
        "GET /scoreboard tallies them. No body or verdict text is logged. Ctrl-C stops it (exit status "
        "130). With --score, exit status 0 if every verdict is right, 1 otherwise, 2 for a bad argument.",
    )
    faults.add_argument("--port", type=_port, default=0, help="the port (default: a free one)")
    faults.add_argument(
        "--host", default="127.0.0.1", help="the address to listen on (default 127.0.0.1; another is warned)"
    )
    faults.add_argument("--list", action="store_true", help="print the catalogue as a table; no server")
    faults.add_argument(
        "--score",
        metavar="MODULE:FUNCTION",
        help="run FUNCTION(entry) of MODULE (imported from this folder) on every fault, print the table",
    )
    faults.add_argument("--client", metavar="NAME", help="the client's name on the scoreboard (with --score)")
    faults.add_argument(
        "--log",
        action="store_true",
        help="an access log on standard error: method, route, fault, status, bytes (no content)",
    )
    return parser


def _faults_fail(message: str) -> int:
    sys.stderr.write(f"boundary-lab faults: {message}\n")
    return 2


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {text[0][:200]}" if text else type(exc).__name__


def _load_client(spec: str) -> Callable[[Any], object] | str:
    """The function ``module:function`` names (the module imported from the current folder first), or a
    one-line message saying why there is none."""
    module_name, sep, function_name = spec.partition(":")
    if not sep or not module_name or not function_name:
        return f"--score takes MODULE:FUNCTION, got {spec!r}"
    if os.getcwd() not in sys.path:
        sys.path.insert(0, os.getcwd())
    try:
        module = importlib.import_module(module_name)
    except Exception as exc:  # the user's module: whatever it raises is one line, no traceback
        return f"cannot import {module_name!r} ({_first_line(exc)})"
    function: Any = module
    for part in function_name.split("."):
        function = getattr(function, part, None)
        if function is None:
            return f"{module_name!r} has no {function_name!r}"
    if not callable(function):
        return f"{spec!r} is not a function (a {type(function).__name__})"
    return function


def _list_faults() -> int:
    from .faults import CATALOGUE

    header = ("name", "contract", "lesson", "expected", "description")
    rows = [(f.name, f.contract, f.lesson, f.expected.outcome, f.description) for f in CATALOGUE]
    widths = [max(len(row[i]) for row in (header, *rows)) for i in range(4)]
    for row in (header, *rows):
        sys.stdout.write("  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=False)))
        sys.stdout.write(f"  {row[4]}\n")
    sys.stdout.write(f"\n{len(rows)} faults\n")
    return 0


def _sdk_lines(url: str) -> list[str]:
    from .faults import CATALOGUE

    def first(contract: str, suffix: str) -> str | None:
        chosen = [f for f in CATALOGUE if f.contract == contract and f.service_path.endswith(suffix)]
        chosen.sort(key=lambda f: not f.name.endswith("control"))
        if not chosen:
            return None
        return f"{url}/faults/{chosen[0].name}{chosen[0].service_path.removesuffix(suffix)}"

    openai = first("openai-chat", "/chat/completions")
    anthropic = first("anthropic-messages", "/v1/messages")
    return [
        f'  OpenAI:     OpenAI(base_url="{openai}", api_key="unused")'
        if openai
        else "  OpenAI:     OpenAI(base_url=<an openai-chat entry's base_url>/v1)",
        f'  Anthropic:  Anthropic(base_url="{anthropic}", api_key="unused")'
        if anthropic
        else "  Anthropic:  Anthropic(base_url=<an anthropic-messages entry's base_url>): none listed yet",
    ]


def _serve_faults(args: argparse.Namespace) -> int:
    from .faults.server import FaultServer

    server = FaultServer(args.host, args.port, max_lifetime=None, access_log=sys.stderr if args.log else None)
    try:
        server.start()
    except (OSError, RuntimeError) as exc:
        return _faults_fail(f"cannot listen on {args.host}:{args.port} ({_first_line(exc)})")
    try:
        from .faults import CATALOGUE

        lines = [
            f"Boundary Lab fault server on {server.url} ({len(CATALOGUE)} faults)",
            f"  catalogue:  {server.url}/faults",
            f"  scoreboard: {server.url}/scoreboard",
            *_sdk_lines(server.url),
            f"  verdict:    POST {server.url}/faults/<name>/verdict"
            ' {"client": ..., "outcome": ..., "text": ...}',
            "Press Ctrl-C to stop.",
        ]
        sys.stdout.write("\n".join(lines) + "\n")
        sys.stdout.flush()
        while not server.wait(0.5):
            pass
        return 0
    finally:
        server.stop()


def _score_faults(args: argparse.Namespace) -> int:
    client = _load_client(args.score)
    if isinstance(client, str):
        return _faults_fail(client)
    from .faults.scoring import ScoreError, score
    from .faults.server import FaultServer

    server = FaultServer(args.host, args.port)
    try:
        server.start()
    except (OSError, RuntimeError) as exc:
        return _faults_fail(f"cannot listen on {args.host}:{args.port} ({_first_line(exc)})")
    try:
        name = args.client if args.client is not None else args.score.partition(":")[2]
        table = score(client, base_url=server.url, client_name=name)
    except (ValueError, TypeError) as exc:
        return _faults_fail(str(exc).splitlines()[0] if str(exc) else type(exc).__name__)
    except ScoreError as exc:
        return _faults_fail(str(exc))
    finally:
        server.stop()
    sys.stdout.write(table.render_text())
    sys.stdout.flush()
    return 0 if table.all_right else 1


def _faults(args: argparse.Namespace) -> int:
    if args.list and args.score:
        return _faults_fail("--list and --score do not go together")
    if args.client is not None and not args.score:
        return _faults_fail("--client names the client of --score")
    try:
        if args.list:
            return _list_faults()
        if args.score:
            return _score_faults(args)
        return _serve_faults(args)
    except KeyboardInterrupt:
        sys.stderr.write("boundary-lab faults: interrupted\n")
        return 130
    except BrokenPipeError:
        return 0
    except Exception as exc:  # a bug: one line naming its type
        return _faults_fail(f"internal error ({type(exc).__name__}); please report it")


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command; returns the exit status (``SystemExit`` for usage errors, as argparse does)."""
    args = build_parser().parse_args(argv)
    if args.command == "faults":
        return _faults(args)
    try:
        source = open_input(args.input, args.format, args.entry)
        diagnosis = diagnose(source, args.contract, show_text=args.show_text, rows=max(1, args.rows))
    except InputError as exc:
        sys.stderr.write(f"boundary-lab diagnose: {exc}\n")
        return 2
    except (OSError, MemoryError, RecursionError) as exc:
        sys.stderr.write(f"boundary-lab diagnose: cannot read the input ({type(exc).__name__})\n")
        return 2
    except KeyboardInterrupt:
        sys.stderr.write("boundary-lab diagnose: interrupted\n")
        return 130
    except Exception as exc:  # a bug here, not the input's fault: still one line (its type, no content)
        sys.stderr.write(f"boundary-lab diagnose: internal error ({type(exc).__name__}); please report it\n")
        return 2
    output = render_json(diagnosis) + "\n" if args.json else render_text(diagnosis)
    try:
        sys.stdout.write(output)
        sys.stdout.flush()
    except BrokenPipeError:
        pass
    return diagnosis.exit_status


def run() -> None:
    """The console script's entry point."""
    sys.exit(main())
