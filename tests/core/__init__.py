"""Tests of lesson_lib.core: the sans-IO parser, its layers and consume()."""
