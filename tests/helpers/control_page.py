"""A page of controls in Python, answering the page bridge as the content scripts do
(find_control, list_controls, describe_action with or without a workflow's place, and the actions on an element), for tests and benchmarks of
saved workflows that need no browser. Each control is (role, name, landmark, landmark_name);
its "ta-<n>" locators start at `first_locator`, so two pages can number the same controls apart.
The places it gives follow extension/content/places.js: nth of `of` controls of the same role
and name in the same landmark, `count` of them on the page.
"""

from __future__ import annotations

import asyncio
import itertools

URL = "http://127.0.0.1:8000/shop"


class ControlPage:
    def __init__(self, controls, first_locator=1, decisions=None, url=URL, delay=0.0):
        self.controls = [dict(zip(("role", "name", "landmark", "landmark_name"), c)) for c in controls]
        for n, control in enumerate(self.controls, first_locator):
            control["locator"] = f"ta-{n}"
        self.url, self.delay = url, delay
        self.decisions = list(decisions or [])  # the user's answers, in order; "once" when none left
        self.done: list[tuple] = []             # (action, control's (role, name, landmark), args)
        self.asked: list[str] = []
        self.calls: list[str] = []
        self.plans = itertools.count(1)

    def place(self, control: dict) -> dict:
        same = [c for c in self.controls if (c["role"], c["name"]) == (control["role"], control["name"])]
        mates = [c for c in same if (c["landmark"], c["landmark_name"]) == (control["landmark"], control["landmark_name"])]
        return {"role": control["role"], "name": control["name"], "landmark": control["landmark"],
                "landmark_name": control["landmark_name"], "nth": mates.index(control) + 1, "of": len(mates),
                "count": len(same)}

    def element(self, locator: str) -> dict | None:
        return next((c for c in self.controls if c["locator"] == locator), None)

    async def run_page_tool(self, name, args, tab_id=None, expect_url=None) -> dict:
        self.calls.append(name)
        if self.delay:
            await asyncio.sleep(self.delay)
        if name == "find_control":
            found = [{"locator": c["locator"], **self.place(c)} for c in self.controls
                     if (c["role"], c["name"]) == (args["role"], args["name"])]
            return self._ok({"url": self.url, "count": len(found), "candidates": found})
        if name == "list_controls":  # one line a control, as content/controls.js lists them
            lines = [f"{c['locator']} {c['role']} “{c['name']}”" for c in self.controls]
            return self._ok({"url": self.url, "count": len(lines), "page": 1, "pages": 1, "controls": "\n".join(lines)})
        if name == "describe_action":
            return self._describe(args["name"], self._at(args["args"], args.get("at")))
        return self._act(name, args)

    def _at(self, args: dict, at: dict | None) -> dict | None:
        """describe_action's `at` (a workflow's recorded place), as content/places.js finds it:
        the one control there as the action's target, or None when there is not exactly one."""
        if at is None:
            return args
        same = [c for c in self.controls if (c["role"], c["name"]) == (at["role"], at["name"])]
        there = [c for c in same if self.place(c) == at]
        if len(same) != at["count"] or len(there) != 1:
            self.not_at_place = {"count": len(same), "there": len(there)}
            return None
        return {**args, "locator": there[0]["locator"]}

    def _describe(self, action: str, args: dict | None) -> dict:
        if args is None:
            return self._ok({"action": action, "page_url": self.url, "not_at_place": self.not_at_place})
        described = {"action": action, "summary": f"Do {action}.", "page_url": self.url, "plan_id": f"p{next(self.plans)}"}
        if action in ("navigate", "open_tab"):
            return self._ok({**described, "url": args["url"]})
        control = self.element(args.get("locator") or "")
        if control is None:
            return {"ok": False, "error": f"No element matches {args.get('locator')!r}.", "from_page": True}
        element = {"locator": control["locator"], "role": control["role"], "name": control["name"],
                   "summary": f"{control['role']} “{control['name']}”", "place": self.place(control)}
        return self._ok({**described, "element": element})

    def _act(self, action: str, args: dict) -> dict:
        args = {k: v for k, v in args.items() if k != "plan_id"}
        if action in ("navigate", "open_tab", "go_back", "go_forward"):
            self.done.append((action, None, args))
            return self._ok({"action": action, "asked_for": args.get("url")})
        control = self.element(args.pop("locator"))
        self.done.append((action, (control["role"], control["name"], control["landmark"]), args))
        return self._ok({"action": action, "page_url": self.url,
                         "element": {"locator": control["locator"], "role": control["role"], "name": control["name"],
                                     "place": self.place(control)}, **args})

    def _ok(self, result: dict) -> dict:
        return {"ok": True, "result": result, "tab_id": 7, "url": self.url, "title": "Shop"}

    async def confirm(self, id, tool, message, details) -> str:
        self.asked.append(tool)
        return self.decisions.pop(0) if self.decisions else "once"
