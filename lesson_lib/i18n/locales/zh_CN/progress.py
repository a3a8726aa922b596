"""check() 的自愿进度记录和讲师的总览，中文（lesson_lib.exercises.progress 与 progress_view）。"""

STRINGS = {
    "progress.full": "进度文件 {path} 已满（{cap} 字节）：这次检查没有记录。用 progress.recorded() 查看，用 progress.forget() 删除，或用 progress.disable() 关闭记录。",
    "progress.not_written": "check() 已经回答，但进度记录没有写入：{reason}",
    "progress.view.learner": "学员",
    "progress.view.solved": "✓ {attempts}",
    "progress.view.stuck": "✗ {attempts} 卡住",
    "progress.view.trying": "… {attempts}",
    "progress.view.opened": "·",
    "progress.view.torn": "{learner}：跳过了 {torn} 行无法读取的内容",
    "progress.view.unreadable": "{learner}：记录无法读取（{reason}）",
    "progress.view.empty": "没有记录",
    "progress.view.legend": "✓ n：用 n 次答对 · … n：试了 n 次，还没答对 · ✗ n 卡住：没答对，且试了 {wrong_limit} 次或更多，或第一次尝试已在 {minutes} 分钟或更久以前 · ·：打开过，没有作答",
}
