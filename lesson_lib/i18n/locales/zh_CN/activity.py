"""lesson_lib.core.activity 的中文（看门狗的判定）。"""

STRINGS = {
    "activity.idle_verdict": "{limit}：已空闲 {idle_for} s，上限 {maximum} s",
}
