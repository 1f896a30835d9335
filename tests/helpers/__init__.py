"""Helpers shared by the test suites (HTTP page server, ...)."""
