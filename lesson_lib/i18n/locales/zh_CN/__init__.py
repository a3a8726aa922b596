"""The zh_CN catalogue: one module per area of lesson_lib (see lesson_lib.i18n)."""
