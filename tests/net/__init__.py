"""Tests of lesson_lib.net: the replay server, the HTTP clients and resumption, the relay."""
