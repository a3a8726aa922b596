"""lesson_lib.net.http 的中文（一个响应的读取的 repr）。"""

STRINGS = {
    "http.repr.sync": "HTTPReads({status}, 目前 {reads} 次读取, {state})",
    "http.repr.async": "HTTPAReads({status}, 目前 {reads} 次读取, {state})",
    "http.state.open": "未关闭",
    "http.state.closed": "已关闭",
}
