"""lesson_lib.core.values 的中文（暂定解析结果的 repr）。"""

STRINGS = {
    "values.provisional.repr": "暂定解析（仅供显示，基于前 {chars} 个字符）：{shown}",
    "values.provisional.nothing": "暂无",
}
