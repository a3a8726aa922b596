"""The official SDKs read one answer from a ReplayServer: the text they yielded and what they raised.

The same calls as tests/net/test_sdks.py and test_async_sdks.py (lessons 06 and 08), with an optional
``http_client`` (the guard's). The exception is returned, not raised, so a test can compare both runs.
"""

from __future__ import annotations

from typing import Any

import anthropic
import openai

CONTRACTS = ("openai-chat", "openai-responses", "anthropic-messages")
MESSAGES = [{"role": "user", "content": "你好"}]


def _options(url: str, http_client: Any) -> dict[str, Any]:
    options: dict[str, Any] = {"api_key": "test-key", "base_url": url, "max_retries": 0, "timeout": 10}
    if http_client is not None:
        options["http_client"] = http_client
    return options


def _text_of(contract: str, item: Any) -> str:
    if contract == "openai-chat":
        return "".join(choice.delta.content or "" for choice in item.choices)
    if contract == "openai-responses":
        return item.delta if item.type == "response.output_text.delta" else ""
    if item.type == "content_block_delta" and item.delta.type == "text_delta":
        return str(item.delta.text)
    return ""


def _create(sdk: Any, contract: str) -> Any:
    if contract == "openai-chat":
        return sdk.chat.completions.create(model="replay", messages=MESSAGES, stream=True)
    if contract == "openai-responses":
        return sdk.responses.create(model="replay", input="hi", stream=True)
    return sdk.messages.create(model="replay", max_tokens=64, messages=MESSAGES, stream=True)


def _sdk(contract: str, url: str, http_client: Any, asynchronous: bool = False) -> Any:
    if contract.startswith("openai"):
        return (openai.AsyncOpenAI if asynchronous else openai.OpenAI)(**_options(url, http_client))
    return (anthropic.AsyncAnthropic if asynchronous else anthropic.Anthropic)(**_options(url, http_client))


def read(contract: str, url: str, http_client: Any = None) -> tuple[str, BaseException | None]:
    """The SDK's sync stream, iterated to its end (or its exception), the SDK's client closed."""
    parts: list[str] = []
    try:
        with _sdk(contract, url, http_client) as sdk, _create(sdk, contract) as stream:
            for item in stream:
                parts.append(_text_of(contract, item))
    except Exception as exc:
        return "".join(parts), exc
    return "".join(parts), None


async def aread(contract: str, url: str, http_client: Any = None) -> tuple[str, BaseException | None]:
    """The same with the async SDK."""
    parts: list[str] = []
    try:
        async with _sdk(contract, url, http_client, asynchronous=True) as sdk:
            stream = await _create(sdk, contract)
            async with stream:
                async for item in stream:
                    parts.append(_text_of(contract, item))
    except Exception as exc:
        return "".join(parts), exc
    return "".join(parts), None
