"""一个流的判定结果的文字说明（lesson_lib.core.completion：StreamResult.describe()）。timed_out 错误的
message 本身在任何语言下都保持英文，和异常消息一样；这里的中文只用于 describe()。"""

STRINGS = {
    "completion.count.byte.one": "{n} 字节",
    "completion.count.byte.other": "{n} 字节",
    "completion.count.read.one": "{n} 次读取",
    "completion.count.read.other": "{n} 次读取",
    "completion.count.event.one": "{n} 个事件",
    "completion.count.event.other": "{n} 个事件",
    "completion.count.text_delta.one": "{n} 个文本增量",
    "completion.count.text_delta.other": "{n} 个文本增量",
    "completion.count.heartbeat.one": "{n} 个心跳",
    "completion.count.heartbeat.other": "{n} 个心跳",
    "completion.count.character.one": "{n} 个字符",
    "completion.count.character.other": "{n} 个字符",
    "completion.count.more_event.one": "{n} 个事件",
    "completion.count.more_event.other": "{n} 个事件",
    "completion.count.more_byte.one": "{n} 字节",
    "completion.count.more_byte.other": "{n} 字节",
    "completion.count.tool_call.one": "{n} 个工具调用",
    "completion.count.tool_call.other": "{n} 个工具调用",
    "completion.name.contract": "这条 {contract} 流",
    "completion.name.plain": "这条流",
    "completion.reason.given": '已收到 finish_reason "{reason}"',
    "completion.reason.none": "没有收到 finish_reason",
    "completion.completed": (
        "{name}已完成：服务端的终止信号已经到达（{reason}），响应体也正常结束了，所以文本是最终结果。"
    ),
    "completion.completed_unverified": "按信号来看，{name}已完成（{reason}，响应体也正常结束了），但它的结尾无法验证：{why}一条恰好在那里被切断的流看起来也完全一样，所以文本不算最终结果。",
    "completion.why.events_after": "终止信号之后又来了 {events}。",
    "completion.why.signal_repeated": "同样的信号在更早的某个事件里就已出现过，而且之后还有别的事件。",
    "completion.incomplete_no_reason": "{name}结束了，但回答不完整：服务端声明已结束，却完全没有给出 finish_reason，没有任何信息能证明回答是完整的；应把文本当作可能被截断的回答。",
    "completion.incomplete": "{name}结束了，但回答不完整：服务端声明已结束（{reason}），可这个原因并不表示回答完整，所以文本是一个被截断的回答。",
    "completion.unverified_either": "它的结尾同样无法验证：{why}",
    "completion.cut.character": "断在一个 UTF-8 字符中间，解码器还暂存着它开头的几个字节",
    "completion.cut.line": "断在一行的中间",
    "completion.cut.event": "断在一个事件内部",
    "completion.cut.completion": "断在一个干净的边界上，但服务端自己的完成信号还没来",
    "completion.event_end.sse": "（它的字段已经到了，结束它的空行却始终没来）",
    "completion.event_end.json_array": "（一个数组元素的右括号始终没来）",
    "completion.event_end.ndjson": "（一行 JSON 的换行符始终没来）",
    "completion.event_end.unknown": "（它的结尾始终没来）",
    "completion.truncated": "{name}被截断了：{cut}；此前{reason}，所以文本只是暂定结果。",
    "completion.truncated_source": (
        "{name}被截断了：{cut}；此前{reason}；数据源抛出了 {kind}{where}，所以文本只是暂定结果。"
    ),
    "completion.service_error.type": "（类型 {type}）",
    "completion.service_error.message": "：{message}",
    "completion.service_error": "{name}因服务端的带内错误而中止{kind}{message}{where}；错误之前的文本只是暂定结果。",
    "completion.decode_error": "{name}遇到解码错误（{kind}）而停止{where}；其后的内容都没有使用，之前的文本只是暂定结果。",
    "completion.limit_exceeded": "{name}因为超出 {limit} 而停止{where}；数据源已关闭，文本只是暂定结果。",
    "completion.limit_exceeded_unknown": "{name}因为超出某个上限而停止{where}；数据源已关闭，文本只是暂定结果。",
    "completion.timed_out": "{name}超时：{message}{where}；连接已关闭，文本只是暂定结果。",
    "completion.timed_out_unknown": "{name}超时：某个时钟已到期{where}；连接已关闭，文本只是暂定结果。",
    "completion.timeout_message": "{clock}={limit} s 已到期：{meaning}{cause}",
    "completion.timeout_cause": "（这次读取因 {cause} 而结束）",
    "completion.clock.idle_timeout": "这么长时间里一个字节也没有收到",
    "completion.clock.progress_timeout": "这么长时间里没有收到任何文本或业务阶段（字节和心跳都不算）",
    "completion.clock.deadline": "整个回答花的时间超过了这个值",
    "completion.cancelled": "{name}在两次读取之间被调用方取消；文本只是暂定结果。",
    "completion.mcp_resume": (
        "MCP（2025-11-25 修订版）允许服务器提前关闭流：客户端用 GET 加上 Last-Event-ID: {last_event_id} 续传。"
    ),
    "completion.source_after_end": "随后数据源在流结束之后又抛出了 {kind}，这不影响结论。",
    "completion.stats": (
        "共 {bytes}，分 {reads}到达，携带 {events}（{deltas}、{heartbeats}、{unknown} 个未知事件），"
        "文本共 {characters}。"
    ),
    "completion.values.calls": "{calls}（服务端已关闭 {closed} 个，{open} 个仍未关闭）",
    "completion.values.calls_bad": "{calls}（服务端已关闭 {closed} 个，其中 {bad} 个的参数无法解析；{open} 个仍未关闭）",
    "completion.values.reasoning": "{characters}的推理内容，与文本分开存放",
    "completion.values.one": "它还携带了 {part}。",
    "completion.values.both": "它还携带了 {calls}，以及 {reasoning}。",
    "completion.after_terminal": "终止信号之后又到达了 {events}和 {bytes}；它们被检查过，但没有追加到文本里。",
    "completion.where.offset": "，位于字节偏移 {offset} 处",
    "completion.where.read_end": "，发生在截至字节 {offset} 的那次读取中",
    "completion.where.event": "（事件下标 {index}）",
    # -- issue 29：内容审核中止与累积式流（单独成块：上面的条目另有改动在进行） --
    "completion.withdraw": (
        "服务端文档说明，这个结束原因（{reason}）表示安全审核中止了回答：请决定是否撤回已经显示的文本，"
        "而不只是把它标为临时结果。"
    ),
}
