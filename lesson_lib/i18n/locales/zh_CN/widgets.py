"""探索控件（lesson_lib.teach.widgets）里的中文：标签、按钮、提示、图旁边的 HTML，以及每个控件的 repr（静态阅读时
看到的内容）。有些模板含 HTML：填进去的字段由代码先转义。"""

STRINGS = {
    # 共用
    "widgets.count.byte.one": "{n} 字节",
    "widgets.count.byte.other": "{n} 字节",
    "widgets.count.read.one": "{n} 次读取",
    "widgets.count.read.other": "{n} 次读取",
    "widgets.count.event.one": "{n} 个事件",
    "widgets.count.event.other": "{n} 个事件",
    "widgets.count.line.one": "{n} 行",
    "widgets.count.line.other": "{n} 行",
    "widgets.count.more_character.one": "{n} 个字符",
    "widgets.count.more_character.other": "{n} 个字符",
    "widgets.count.more_byte.one": "{n} 字节",
    "widgets.count.more_byte.other": "{n} 字节",
    "widgets.code": "代码：<code>{code}</code>",
    "widgets.where.cut": "在偏移 {cuts} 处切开",
    "widgets.where.uncut": "未切分",
    "widgets.none": "无",
    "widgets.stored_view.notice": (
        "<b>这是保存下来的画面。</b>运行本单元格之后控件才能操作；它上面的单元格要先运行"
        "（Run ▸ Run All Cells，或一路按 Shift+Enter 到这里）。"
    ),
    "widgets.yes": "是",
    "widgets.no": "否",
    "widgets.capture": "抓包样本",
    "widgets.cutoff_slider": "截断点（字节）",
    "widgets.part_separator": "；",
    "widgets.list_separator": "，",
    # 切分控制
    "widgets.cut_controls.add": "添加切分",
    "widgets.cut_controls.add_tooltip": "把最长的一次读取切成两半",
    "widgets.cut_controls.code": "代码",
    "widgets.cut_controls.code_tooltip": "以 Python 代码表示的切点；修改后按回车",
    "widgets.cut_controls.slider": "切分位置（字节）",
    "widgets.cut_controls.remove": "删除切分",
    # CutExplorer
    "widgets.cut_explorer.title": "<b>把字节切成多次读取。</b>拖动切点；橙色的切点落在某个字符内部。左边：每次读取单独解码；右边：整个流共用一个增量解码器。",
    "widgets.cut_explorer.sweep": "逐一尝试每个切分",
    "widgets.cut_explorer.sweep_tooltip": "标出所有只切一刀就会破坏逐块解码的切点位置",
    "widgets.cut_explorer.identical": "完全相同：没有切点落在字符内部",
    "widgets.cut_explorer.differs": "第一处差异在字符下标 {index} 处（已标出）",
    "widgets.cut_explorer.head_replace": "每次读取单独解码（errors=&quot;replace&quot;）",
    "widgets.cut_explorer.head_incremental": "一个增量解码器",
    "widgets.cut_explorer.replacements": "{n} 个 U+FFFD",
    "widgets.cut_explorer.reads": "{verdict}；{reads} 次读取：[{pieces}]",
    "widgets.cut_explorer.sweep_none": "在 {total} 个切点位置中，只切一刀就会破坏逐块解码的有 {corrupting} 个",
    "widgets.cut_explorer.sweep_marked": "在 {total} 个切点位置中，只切一刀就会破坏逐块解码的有 {corrupting} 个（图中的 ▲）：{shown}",
    "widgets.cut_explorer.repr_identical": "{n} 个 U+FFFD，两者相同",
    "widgets.cut_explorer.repr_differs": "{n} 个 U+FFFD，第一处差异在字符下标 {index} 处",
    "widgets.cut_explorer.repr": "CutExplorer: {source}（{size}），{where} -> 逐块 replace 解码 {replaced}（{diff}）；增量解码 {incremental}",
    "widgets.cut_explorer.repr_sweep": "；有 {corrupting} 个切点位置只切一刀就会破坏 replace 解码",
    # 逐次读取的探索控件
    "widgets.reads.step": "已读取次数",
    "widgets.reads.step_text": "第 {step} 次读取后（共 {reads} 次）",
    "widgets.reads.then_close": "然后 close()：{what}",
    "widgets.reads.close.not_reached": "没有执行到：某次读取已经失败",
    "widgets.reads.close.raises": "抛出异常：{error}",
    "widgets.reads.close.ended_mid.character": "流在一个字符中间结束；尚未完成的部分被丢弃",
    "widgets.reads.close.ended_mid.line": "流在一行的中间结束；尚未完成的部分被丢弃",
    "widgets.reads.close.ended_mid.event": "流在一个事件中间结束；尚未完成的部分被丢弃",
    "widgets.reads.close.clean": "正常结束：没有未完成的内容",
    "widgets.reads.error": "，错误：{error}",
    "widgets.layer_inspector.intro": (
        "<b>逐次读取，看每一层。</b>每一行是解析器在一次读取之后的状态：未完成字符已收到的字节、"
        "未完成的行（以及等待 LF 的 CR）、事件目前已收到的字段，以及这次读取完成的事件。"
    ),
    "widgets.layer_inspector.state": (
        "暂存字节 {held}，未完成的行 {line}{cr}，目前的事件 {event}，本次读取派发 {dispatched}{last_id}"
    ),
    "widgets.layer_inspector.repr": "LayerInspector: {bytes} 字节，{where} -> {reads}，派发了 {events}；{step}：{state}",
    "widgets.event_explorer.intro": (
        "<b>字段陆续到达，空行触发派发。</b>每一行是一次读取；事件的字段不断累积，"
        "直到一个空行结束这个事件，这时它才被派发。"
    ),
    "widgets.event_explorer.repr": "EventExplorer: {bytes} 字节，{where} -> {reads}，派发了 {events}；{step}：目前的事件 {event}，本次读取派发 {dispatched}{last_id}",
    "widgets.line_explorer.intro": (
        "<b>跨读取的行结束符。</b>CR、LF 和 CRLF 各自结束一行。当一次读取以 CR 结尾时，"
        "分行器会记住它（<code>after_cr</code>）：下一次读取开头的 LF 属于同一个行结束符，"
        "不会多出一个空行。"
    ),
    "widgets.line_explorer.repr": "LineExplorer: {text}（{size}），{where} -> {reads}，{lines}；{step}：未完成的行 {line}，after_cr {after_cr}，已完成的行 {done}",
    # CompletionExplorer
    "widgets.cutoffs.one": "截断点 {start}",
    "widgets.cutoffs.range": "截断点 {start}-{last}",
    "widgets.completion_explorer.title": (
        "<b>流停在了哪里？</b>移动截断点：响应体就在那里结束，就像连接断了一样。"
        "只有服务端自己的终止信号加上正常的结尾，才能说明回答是完整的。"
    ),
    "widgets.completion_explorer.map": "画出所有截断点的结果",
    "widgets.completion_explorer.map_tooltip": "响应体在每个字节之后停止时的判定结果",
    "widgets.completion_explorer.range": "区间",
    "widgets.completion_explorer.previous": "上一个区间",
    "widgets.completion_explorer.next": "下一个区间",
    "widgets.completion_explorer.map_title": "{capture}：响应体在每个字节之后停止时的判定结果",
    "widgets.completion_explorer.range_option": "区间 {number}/{ranges}：{cutoffs}，{label}",
    "widgets.completion_explorer.more_text": "文本还多 {characters}",
    "widgets.completion_explorer.no_more_text": "文本没有再增加",
    "widgets.completion_explorer.hidden_end": (
        "但这份抓包样本后面还有 {rest}（{added}）：consume 只看到这些字节，而它们和一个真正结束的流一模一样"
    ),
    "widgets.completion_explorer.summary": (
        '判定结果 <b style="color:{colour}">{outcome}</b>，end_verified <code>{end_verified}</code>，'
        "truncated_at <code>{truncated_at}</code>，finish_reason <code>{finish_reason}</code> —— "
        "<code>{capture}</code>（{contract}）共 {total} 字节，取前 {cutoff} 字节"
    ),
    "widgets.completion_explorer.note_sentence": "{note}。",
    "widgets.completion_explorer.text_so_far": "目前的文本：{text}",
    "widgets.completion_explorer.repr": "CompletionExplorer: {capture}（{contract}，{bytes} 字节）只取前 {cutoff} 字节 -> 判定结果 {outcome}，end_verified {end_verified}，truncated_at {truncated_at}，finish_reason {finish_reason}；文本 {text}",
    "widgets.completion_explorer.repr_note": "；{note}",
    "widgets.completion_explorer.repr_map": "；所有截断点上：{counts}",
    "widgets.completion_explorer.map_count": "{label}：{n} 个",
    # ValueExplorer
    "widgets.value_explorer.title": "<b>工具调用什么时候才算一个值？</b>移动截断点：参数文本一个片段一个片段地变长，但只有服务端关闭调用，它才是完整的。暂定解析只是供显示用的猜测。",
    "widgets.value_explorer.call": "调用",
    "widgets.value_explorer.no_call": "没有工具调用",
    "widgets.value_explorer.track_call": "调用 {number}：{name}",
    "widgets.value_explorer.track_reasoning": "推理内容",
    "widgets.value_explorer.track_text": "回答文本",
    "widgets.value_explorer.picture_title": "{capture}：调用、片段和关闭",
    "widgets.value_explorer.status.not_started": "尚未开始",
    "widgets.value_explorer.status.open": "未关闭：服务端还没有关闭它，还没有值",
    "widgets.value_explorer.status.not_json": "已关闭，但不是 JSON：{error}",
    "widgets.value_explorer.status.closed": "已被服务端关闭：文本完整，已解析",
    "widgets.value_explorer.summary": (
        "判定结果 <b>{outcome}</b>，truncated_at <code>{truncated_at}</code> —— "
        "<code>{capture}</code> 共 {total} 字节，取前 {cutoff} 字节"
    ),
    "widgets.value_explorer.call_status": "调用 {number}：{status}",
    "widgets.value_explorer.call_line": '调用 {number} <code>{name}</code>：<b style="color:{colour}">{status}</b>',
    "widgets.value_explorer.arguments_text": "arguments_text（{chars} 个字符）：<code>{text}</code>",
    "widgets.value_explorer.arguments": "arguments：<code>{arguments}</code>",
    "widgets.value_explorer.provisional": "暂定解析，仅供显示：<code>{shown}</code>",
    "widgets.value_explorer.naive_head": "<b>对每个片段单独调用 json.loads</b>（朴素的逐事件解析）：",
    "widgets.value_explorer.no_fragment": "还没有片段",
    "widgets.value_explorer.naive_ok": "成功：{value}",
    "widgets.value_explorer.naive_fails": "失败：{error}（字符位置 {position}）",
    "widgets.value_explorer.reasoning_head": "<b>推理内容</b>（不属于回答）：",
    "widgets.value_explorer.text_head": "<b>回答文本</b>：",
    "widgets.value_explorer.repr": "ValueExplorer: {capture}（{contract}，{bytes} 字节）只取前 {cutoff} 字节 -> 判定结果 {outcome}，truncated_at {truncated_at}",
    "widgets.value_explorer.repr_call": (
        "调用 {number} {name}：已到 {arrived}/{total} 个片段，arguments_text {text}；{status}；"
        "arguments {arguments}"
    ),
    "widgets.value_explorer.repr_naive": "逐片段 json.loads：{total} 个中 {failed} 个失败",
    "widgets.value_explorer.repr_reasoning": (
        "推理内容 {reasoning}（{reasoning_chars} 个字符）与文本 {text}（{text_chars} 个字符）分开存放"
    ),
    "widgets.json_error.expecting_value": "这里应当是一个 JSON 值",
    "widgets.json_error.extra_data": "一个值之后还有多余的数据",
    "widgets.json_error.unterminated_string": "从这里开始的字符串没有结束",
    "widgets.json_error.invalid_unicode_escape": "无效的 \\uXXXX 转义",
    "widgets.json_error.expecting_property_name": "这里应当是带双引号的属性名",
    "widgets.json_error.expecting_colon": "这里应当是分隔符 ':'",
    "widgets.json_error.expecting_comma": "这里应当是分隔符 ','",
    "widgets.json_error.control_character": "字符串里有未转义的控制字符",
    "widgets.json_error.invalid_escape": "无效的转义",
}
