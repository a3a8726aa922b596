"""lesson_lib.net.relay 的中文（中继服务器 repr 里的状态）。"""

STRINGS = {
    "relay.state.running": "运行中",
    "relay.state.stopped": "已停止",
    "relay.state.not_started": "未启动",
}
