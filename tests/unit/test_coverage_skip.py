"""A missing browser or model server skips on a developer's machine and fails in CI."""

import pytest

from tests.helpers.coverage_skip import skip_or_fail_in_ci


def test_outside_ci_it_skips(monkeypatch):
    monkeypatch.delenv("CI", raising=False)
    with pytest.raises(pytest.skip.Exception, match="firefox-esr is not installed"):
        skip_or_fail_in_ci("firefox-esr is not installed")


def test_in_ci_it_fails_with_the_reason(monkeypatch):
    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception, match="in CI this is a failure, not a skip: no llama"):
        skip_or_fail_in_ci("no llama")
