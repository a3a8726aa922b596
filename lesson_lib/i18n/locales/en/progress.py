"""The opt-in progress records of check() and the instructor's view of them, in English
(lesson_lib.exercises.progress and progress_view)."""

STRINGS = {
    "progress.full": "the progress file {path} is full ({cap} bytes): this check was not recorded. Look at it with progress.recorded(), delete it with progress.forget(), or turn recording off with progress.disable().",
    "progress.not_written": "check() answered, but its progress record was not written: {reason}",
    "progress.view.learner": "learner",
    "progress.view.solved": "✓ {attempts}",
    "progress.view.stuck": "✗ {attempts} stuck",
    "progress.view.trying": "… {attempts}",
    "progress.view.opened": "·",
    "progress.view.torn": "{learner}: {torn} unreadable line(s) skipped",
    "progress.view.unreadable": "{learner}: the records could not be read ({reason})",
    "progress.view.empty": "no records",
    "progress.view.legend": "✓ n: solved in n attempts · … n: n attempts, not solved yet · ✗ n stuck: not solved, and {wrong_limit} or more attempts, or the first one {minutes} minutes ago or more · ·: opened, not answered",
}
