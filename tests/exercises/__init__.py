"""Tests of lesson_lib.exercises: the checkers, the answers and the corpus of wrong solutions."""
