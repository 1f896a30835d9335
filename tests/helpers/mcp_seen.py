"""What the MCP unit tests look at: a server's tools as settings show them, and what the model
was sent (whether a server's words reached it only inside the untrusted marking)."""

from tabagent.app.mcp_settings import check_server


async def shown_in_settings(server, name="lab") -> dict:
    """The server's tools as settings' Test connection shows them, by name (with the
    fingerprint a policy chosen there is stored with)."""
    checked = await check_server({"id": name, "name": name, "url": server.url}, {})
    return {tool["name"]: tool for tool in checked["tools"]}


def only_inside_marking(text: str, words: str) -> bool:
    """Whether every place `words` occurs in `text` is inside an untrusted marking."""
    found = [i for i in range(len(text)) if text.startswith(words, i)]
    return bool(found) and all(text.rfind("<page_content source=", 0, i) > text.rfind("</page_content>", 0, i)
                               and text.find("</page_content>", i) > i for i in found)


def everything_read(model, call=1) -> str:
    return "\n".join(str(m.get("content")) for m in model.calls[call]["messages"])
