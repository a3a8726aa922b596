"""Tests of lesson_lib.diagnose and the boundary-lab command: every format, outcome and exit status."""
