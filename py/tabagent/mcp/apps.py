"""MCP Apps (the `io.modelcontextprotocol/ui` extension, SEP-1865, stable 2026-01-26): a tool
whose definition names a `ui://` resource (`_meta.ui.resourceUri`) has its result shown as that
resource's HTML, an app, which may call the server's tools back through the host.

What this module knows is the protocol's: which tool names an app, who may call a tool (its
`_meta.ui.visibility`: the model, the app, or both), and what a `resources/read` of an app
holds once checked (its HTML, and the network it declares: `_meta.ui.csp`). Everything in it is
the server's word: a declared origin is kept only in the one shape a CSP source may take here,
so that nothing a server writes can widen the policy the app frame builds from it.
"""

from __future__ import annotations

import base64
import binascii
import json
import re

EXTENSION = "io.modelcontextprotocol/ui"
MIME_TYPE = "text/html;profile=mcp-app"
# What a client offers in its capabilities, so that servers register their app tools.
OFFERED = {EXTENSION: {"mimeTypes": [MIME_TYPE]}}
MAX_HTML_BYTES = 2 * 1024 * 1024  # an app's page; the bundled apps people ship are well under
MAX_DOMAINS = 20  # of each kind an app may declare
MAX_RESULT_BYTES = 256 * 1024  # of a result handed to an app (its structured content is dropped past it)
# A CSP source an app may declare: scheme://host[:port], the host maybe "*."-prefixed. No path,
# no quote, no space, no ';': nothing that would read as a second source or directive.
DOMAIN = re.compile(r"^(https?|wss?)://(\*\.)?[a-z0-9-]+(\.[a-z0-9-]+)*(:[0-9]{1,5})?$", re.I)
DECLARED = ("connectDomains", "resourceDomains")  # frames and base URIs are never granted


def shown_result(result: dict) -> dict:
    """A tools/call result as the app gets it: content, structured content, error flag; the
    structured part left out, then the content, when it is too large to keep in a step."""
    kept = {key: result[key] for key in ("content", "structuredContent", "isError") if key in result}
    if len(json.dumps(kept, ensure_ascii=False)) > MAX_RESULT_BYTES:
        kept.pop("structuredContent", None)
    if len(json.dumps(kept, ensure_ascii=False)) > MAX_RESULT_BYTES:
        kept["content"] = [{"type": "text", "text": "(the result was too large to show in the app)"}]
    return kept


class NotAnApp(ValueError):
    """What a server sent as an app is not one TabAgent will show (the reason in words)."""


def app_uri(definition: dict) -> str | None:
    """The `ui://` resource a tool's results are shown with, or None (also the deprecated flat key)."""
    meta = definition.get("_meta") if isinstance(definition.get("_meta"), dict) else {}
    ui = meta.get("ui") if isinstance(meta.get("ui"), dict) else {}
    uri = ui.get("resourceUri", meta.get("ui/resourceUri"))
    return uri if isinstance(uri, str) and uri.startswith("ui://") and len(uri) <= 2000 else None


def visible_to(definition: dict, who: str) -> bool:
    """Whether "model" or "app" may call the tool: both, unless `_meta.ui.visibility` says otherwise."""
    meta = definition.get("_meta") if isinstance(definition.get("_meta"), dict) else {}
    ui = meta.get("ui") if isinstance(meta.get("ui"), dict) else {}
    visibility = ui.get("visibility")
    if not isinstance(visibility, list):
        return True
    return who in visibility


def declared_domains(csp: object) -> dict:
    """The origins an app declares, each kind kept only in a CSP source's one safe shape."""
    csp = csp if isinstance(csp, dict) else {}
    kept = {}
    for kind in DECLARED:
        given = csp.get(kind) if isinstance(csp.get(kind), list) else []
        kept[kind] = [d for d in given if isinstance(d, str) and DOMAIN.match(d)][:MAX_DOMAINS]
    return kept


def app_page(read: dict, uri: str) -> dict:
    """From a `resources/read` of `uri`: {"html", "csp", "prefers_border"}, or NotAnApp."""
    contents = [c for c in read.get("contents") or [] if isinstance(c, dict) and c.get("uri") == uri]
    if not contents:
        raise NotAnApp(f"the server answered no content for {uri}")
    content = contents[0]
    if str(content.get("mimeType", "")).replace(" ", "").lower() != MIME_TYPE:
        raise NotAnApp(f"{uri} is {content.get('mimeType')!r}, not an MCP App ({MIME_TYPE})")
    html = _html(content)
    if len(html.encode("utf-8")) > MAX_HTML_BYTES:
        raise NotAnApp(f"{uri} is larger than {MAX_HTML_BYTES // (1024 * 1024)} MB")
    meta = content.get("_meta") if isinstance(content.get("_meta"), dict) else {}
    ui = meta.get("ui") if isinstance(meta.get("ui"), dict) else {}
    return {"html": html, "csp": declared_domains(ui.get("csp")), "prefers_border": ui.get("prefersBorder") is not False}


def _html(content: dict) -> str:
    if isinstance(content.get("text"), str):
        return content["text"]
    try:
        return base64.b64decode(str(content.get("blob") or ""), validate=True).decode("utf-8")
    except (binascii.Error, UnicodeDecodeError):
        raise NotAnApp("the app's page is neither text nor base64 UTF-8") from None
