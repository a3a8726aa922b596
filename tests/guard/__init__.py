"""Tests of lesson_lib.guard: the official SDKs over ReplayServer, alone and through the guard's clients."""
