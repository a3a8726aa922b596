"""What each proxy configuration of lesson_lib.net.proxies is (ProxySetting.describe()), in Chinese."""

STRINGS = {
    "proxies.nginx.defaults": (
        "nginx 作反向代理，除了 proxy_pass 什么都不设：用它自己的默认值（proxy_buffering on、proxy_read_timeout 60s、gzip off、proxy_http_version 1.0）。"
    ),
    "proxies.nginx.buffering_off": (
        "nginx 设了 proxy_buffering off：上游每次读取一到就转发，除非上游用 X-Accel-Buffering: yes 把缓冲重新打开（其余默认值不变：proxy_read_timeout 60s、gzip off）。"
    ),
    "proxies.nginx.gzip": (
        "nginx 压缩 text/event-stream：gzip on，gzip_types 里列出了它（照抄来的“全部压缩”配置块）；这对一条流有什么影响，测量结果在 docs/proxy_matrix.md。"
    ),
    "proxies.nginx.gzip_default_types": (
        "nginx 设了 gzip on 但没有 gzip_types：只压缩 text/html（nginx 默认的 gzip_types），所以 text/event-stream 响应不压缩、原样通过；这对一条流有什么影响，测量结果在 docs/proxy_matrix.md。"
    ),
    "proxies.nginx.read_timeout_1s": (
        "nginx 设了 proxy_read_timeout 1s：上游两次读取之间静默满 1 秒，nginx 就结束响应（默认 60 秒，比某些模型输出第一个 token 之前要等的时间还短）。"
    ),
    "proxies.nginx.two_hops_gzip": (
        "两层 nginx：客户端连外层服务器，外层对 text/event-stream 做 gzip 并代理到内层，内层再代理到上游。内层遵守上游的 X-Accel-Buffering: no，但不把这个头转发出去：外层根本看不到它。"
    ),
    "proxies.nginx.gzip_buffering_off": (
        "nginx 压缩 text/event-stream，同时 proxy_buffering off：gzip on，gzip_types 里列出了它（与 gzip 那份配置相同），并且对所有响应都关闭缓冲。"
    ),
    "proxies.nginx.gzip_ignore_header": (
        "nginx 压缩 text/event-stream，并忽略 X-Accel-Buffering：gzip on，gzip_types 里列出了它（与 gzip 那份配置相同），proxy_ignore_headers 里列出了这个头。"
    ),
    "proxies.caddy.defaults": (
        "Caddy 的 reverse_proxy，除了上游什么都不设：用它自己的默认值。全局配置块只关掉测试机器用不上的东西（admin 端点、自动 HTTPS）。"
    ),
    "proxies.caddy.flush_interval_-1": (
        "Caddy 的 reverse_proxy 设了 flush_interval -1：每次写入之后都立即刷出（flush）给客户端。"
    ),
    "proxies.mitmproxy.defaults": (
        "mitmdump 以反向代理模式运行，用默认值（不设 stream_large_bodies）。模式、地址和端口由 lesson_lib.net.proxies 在命令行上给出。"
    ),
    "proxies.mitmproxy.stream_large_bodies_1": (
        "mitmdump 设了 stream_large_bodies 1：大于 1 字节的响应体都流式转发，而不是读完整个再转发。"
    ),
    # 第 10 课代理用例和矩阵里的类别词（lesson_lib.exercises.class_label）。
    "proxies.class.streamed": "流式到达",
    "proxies.class.at_once": "一次到达",
    "proxies.class.cut_after_one_read": "一次读取后被切断",
    "proxies.class.nothing": "什么也没收到",
    "proxies.class.clean_end": "正常结束",
    "proxies.class.error": "出错",
    "proxies.class.no_stream": "没有流",
    "proxies.class.completes": "正常发完",
    "proxies.class.drops": "中途断开",
    "proxies.class.pauses": "中途停顿",
    "proxies.class.pauses_before_first_token": "首 token 前停顿",
    "proxies.class.pauses_then_drops": "停顿后断开",
    "proxies.class.whole": "完整发完",
    "proxies.class.cut_in_character": "切在字符内部",
    "proxies.class.drop": "断开",
    "proxies.class.stall": "停滞",
    "proxies.class.heartbeats": "心跳",
    "proxies.class.client_leaves": "客户端离开",
    "proxies.class.slow_reader": "读得慢",
    "proxies.class.upstream_paused": "上游被暂停",
    "proxies.class.proxy_buffered": "代理缓冲",
}
