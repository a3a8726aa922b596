"""lesson_lib.net.replay 的中文（回放服务器的 repr）。"""

STRINGS = {
    "replay.repr": "ReplayServer({bytes} 字节, 分 {pieces} 段, {state})",
    "replay.state.running": "运行中",
    "replay.state.stopped": "已停止",
    "replay.state.not_started": "未启动",
}
