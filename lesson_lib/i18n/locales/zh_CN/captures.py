"""lesson_lib.captures 的中文（抓包样本的 repr）。"""

STRINGS = {
    "captures.repr": "Capture({name}: {bytes} 字节, {contract}, 预期 {outcome})",
}
