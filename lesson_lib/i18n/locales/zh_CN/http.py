"""lesson_lib.net.http 的中文（一个响应的读取的 repr）。"""

STRINGS = {
    "http.repr.sync": "HTTPReads({status}, 目前 {reads} 次读取, {state})",
    "http.repr.async": "HTTPAReads({status}, 目前 {reads} 次读取, {state})",
    "http.state.open": "未关闭",
    "http.state.closed": "已关闭",
    "http.resume.end_of_body": "响应体结束",
    "http.resume.no_event_id": "没有可以从中恢复的事件 ID",
    "http.resume.no_sequence_number": "没有可以从中恢复的序号",
    "http.resume.cannot_repair": "{ended}：重新连接也修复不了",
}
