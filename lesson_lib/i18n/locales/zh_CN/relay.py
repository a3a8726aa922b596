"""lesson_lib.net.relay 的中文（中继服务器 repr 里的状态）。"""

STRINGS = {
    "relay.state.running": "运行中",
    "relay.state.stopped": "已停止",
    "relay.state.not_started": "未启动",
    "relay.variant.correct": "跨读取严格按 UTF-8 解码，行和事件都跨读取拼接；上游每个完整单元转发为一个事件；"
    "最后发出 outcome 事件",
    "relay.variant.per-chunk-decode": "每次上游读取单独有损解码（errors='replace'）：读取在字符中间结束处出现 "
    "U+FFFD（api7/aisix 111、musistudio/claude-code-router PR 1672）",
    "relay.variant.regex-split": "每次读取用正则按空行切分，读取之间不保留缓冲：跨读取的事件被拆坏"
    "（这个缺陷在行层面的形式：pickle-com/glass PR 228）",
    "relay.variant.raw-rewrite": "上游每次读取原样转发，在原始读取里改写文本：跨读取的匹配会漏掉，"
    "客户端拿到的是上游的切分，包括切在字符中间的",
    "relay.variant.drop-terminal": "转发事件，却吞掉服务的终止事件，也不发 outcome：客户端只看到响应体"
    "正常结束",
    "relay.variant.invent-finish": "把被截断的上游报告为已结束：补上一个结束原因为 'stop' 的终止事件，"
    "并报告 completed（BerriAI/litellm issue 33404：上游连接被重置，变成了 finish_reason stop 和 [DONE]）",
    "relay.variant.no-disconnect": "与 correct 相同的处理流程，但没有人监听客户端断开：客户端走后，上游请求照样运行到结束"
    "（并照样计费）",
}
