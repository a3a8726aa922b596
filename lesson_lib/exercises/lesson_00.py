"""Lesson 00's check-your-understanding questions.

The prose (prompt, hints, explanation) is in the catalogues, ``questions.00.*`` in
``lesson_lib/i18n/locales/<language>/questions.py``; what is registered here is the same in every language."""

from . import register

register(
    "00.held_layer",
    "choice",
    "007682f699426809d914f41b87a54f5a55eb4dd024a8860e50c87d696f12e97d",
    hints=("A",),
    aliases={
        "A": ("chunks", "chunk layer", "chunk boundary", "read", "reads"),
        "B": ("characters", "character layer", "character boundary", "the UTF-8 decoder", "decoder"),
        "C": ("lines", "line layer", "line boundary"),
        "D": ("events", "event layer", "event boundary"),
        "E": ("values", "value layer", "value boundary"),
        "F": ("completion layer", "completion boundary", "business completion"),
    },
    zh_aliases={
        "A": ("分块层", "分块边界"),
        "B": ("字符层", "字符边界", "UTF-8 解码器", "解码器"),
        "C": ("行层", "行边界"),
        "D": ("事件层", "事件边界"),
        "E": ("值层", "值边界"),
        "F": ("业务完成层", "业务完成边界"),
    },
)
register(
    "00.closed_socket",
    "bool",
    "cbc78c2f695cf0a5b3b61d178907a93eceb1a56c58be85283f8ae795e39b4c39",
)
register(
    "00.openai_done",
    "literal",
    "6a5938c7a54e52a081cc9c3091d12ad86effc89128f46bcda6e95d4052b7eb5a",
    hints={"data: [DONE]": "data_line", "DONE": "DONE"},
    folded_digest="1e0076deb50cd4a56f969a6220f111de4ea4412f3305b80986cacae9279724c2",
)
