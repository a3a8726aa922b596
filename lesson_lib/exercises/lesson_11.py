"""Lesson 11's check-your-understanding questions: your own stream, diagnosed and guarded.

The prose (prompt, hints, explanation) is in the catalogues, ``questions.11.*`` in
``lesson_lib/i18n/locales/<language>/questions.py``; what is registered here is the same in every language."""

from . import register

register(
    "11.exit_status",
    "choice",
    "007682f699426809d914f41b87a54f5a55eb4dd024a8860e50c87d696f12e97d",
    hints=("A", "C"),
    aliases={"A": ("0", "exit status 0"), "B": ("1", "exit status 1"), "C": ("2", "exit status 2")},
    zh_aliases={
        "A": ("退出状态 0", "退出状态为 0"),
        "B": ("退出状态 1", "退出状态为 1"),
        "C": ("退出状态 2", "退出状态为 2"),
    },
)
register(
    "11.raw_reads",
    "bool",
    "96a2745e168e8650026358b4a792a3d061e2bd24c62f0d73d8e290597704088b",
)
register(
    "11.capture",
    "choice",
    "007682f699426809d914f41b87a54f5a55eb4dd024a8860e50c87d696f12e97d",
    hints=("A", "C", "D"),
    aliases={
        "A": ("the HAR again", "export the HAR again", "Preserve log"),
        "B": (
            "curl --trace",
            "curl -N --trace-time --trace",
            "curl -N --trace-time --trace FILE",
            "the same request with curl -N --trace-time --trace FILE",
            "a curl trace",
        ),
        "C": ("a screenshot", "screenshot"),
        "D": ("the headers", "the response headers"),
    },
    zh_aliases={
        "A": ("保留日志", "重新导出 HAR", "重新导出同一个 HAR"),
        "B": ("curl 跟踪", "用 curl 跟踪"),
        "C": ("截图",),
        "D": ("响应头", "只要响应头"),
    },
)
register(
    "11.guarded_length",
    "choice",
    "007682f699426809d914f41b87a54f5a55eb4dd024a8860e50c87d696f12e97d",
    hints=("A", "C", "D"),
    aliases={
        "A": ("the SDK returns the text", "returns the text"),
        "B": ("UnprovenStreamError", "it raises UnprovenStreamError"),
        "C": ("APIError", "openai.APIError"),
        "D": ("it retries", "the guard retries the request", "retry"),
    },
    zh_aliases={
        "A": ("返回文本",),
        "B": ("抛出 UnprovenStreamError", "抛出异常"),
        "D": ("重试", "守卫重试", "守卫重新发送请求"),
    },
)
