"""The string catalogues of lesson_lib.i18n: one package per language, one module per area."""
