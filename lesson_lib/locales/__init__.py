"""Shared catalogue strings."""
