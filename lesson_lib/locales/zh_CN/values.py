"""lesson_lib.values 的中文（临时解析结果的 repr）。"""

STRINGS = {
    "values.provisional.repr": "临时解析（仅供显示，基于前 {chars} 个字符）：{shown}",
    "values.provisional.nothing": "暂无",
}
