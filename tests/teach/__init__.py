"""Tests of lesson_lib.teach: the pictures (viz) and the widgets."""
