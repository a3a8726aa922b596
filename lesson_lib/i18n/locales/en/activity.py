"""English strings of lesson_lib.core.activity (what a watchdog's verdict says)."""

STRINGS = {
    "activity.idle_verdict": "{limit}: idle for {idle_for} s, limit {maximum} s",
}
