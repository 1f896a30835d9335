// Acting on the page: click, type_text, select_option, check, press_key, hover, scroll, and
// describe_action, which says exactly what one of them would do, for the confirmation the
// user sees before it runs. Each acts only on an element that is visible, enabled and not
// covered by another (the covering one is named), with the events a person's action sends.
//
// Each action is planned first (find the element, check it can be acted on, describe the
// outcome in words) and performed second; describe_action runs only the plan, so what the
// user confirms is what then happens.
//
// Consent binds to what the user saw: describe_action holds the element it described by
// reference, under a plan id; the action, given that id, is done only on that very element,
// still in the page and described exactly as before. A page that swaps what a locator
// names between the question and the click ("Subscribe" confirmed, "Delete account"
// clicked) gets nothing done, and the model is told why.
(() => {
  const page = (globalThis.TabAgentPage ??= {});
  const held = (page.heldPlans ??= new Map()); // plan id -> { name, args, el, described }
  const HELD_AT_MOST = 20;

  function actionable(locator, verb) {
    const el = page.locators.findOne(locator);
    const what = page.describe(el).summary;
    if (!page.isVisible(el)) throw new page.PageToolError(`The ${what} is hidden on the page, so it cannot be ${verb}.`);
    if (el.disabled || el.getAttribute("aria-disabled") === "true") throw new page.PageToolError(`The ${what} is disabled, so it cannot be ${verb}.`);
    const cover = coveredBy(el);
    if (cover) throw new page.PageToolError(`The ${what} is covered by the ${page.describe(cover).summary}, so it cannot be ${verb}; close or move that first.`);
    return el;
  }

  // What the user would hit instead, pressing the middle of `el` where it is on screen: the
  // element on top there, when it is neither `el`, inside it, nor its label. An element out of
  // view is judged once it is scrolled to (when the action is done).
  function coveredBy(el) {
    const rect = el.getBoundingClientRect();
    const view = el.ownerDocument.defaultView;
    const [x, y] = [rect.left + rect.width / 2, rect.top + rect.height / 2];
    if (x < 0 || y < 0 || x >= view.innerWidth || y >= view.innerHeight) return null;
    let hit = el.ownerDocument.elementFromPoint(x, y);
    while (hit?.shadowRoot) {
      const inner = hit.shadowRoot.elementFromPoint(x, y);
      if (!inner || inner === hit) break;
      hit = inner;
    }
    // Not covered: the element itself, what it holds (a link's image), what holds it (an
    // element that lets clicks through to its box), or its own label drawn over it.
    if (!hit || hit === el || el.contains(hit) || hit.contains(el)) return null;
    if (el.labels && [...el.labels].some((label) => label === hit || label.contains(hit))) return null;
    return hit;
  }

  // Where a click would take the browser: a link's URL, or a submit button's form action.
  function destination(el) {
    const link = el.closest("a[href], area[href]");
    if (link && !/^\s*javascript:/i.test(link.getAttribute("href"))) return link.href;
    const isSubmit = (el.localName === "button" && (el.type || "submit") === "submit") || (el.localName === "input" && ["submit", "image"].includes(el.type));
    return isSubmit && el.form ? el.form.action : null;
  }

  function editable(el) {
    const textInput = el.localName === "input" && ["", "text", "search", "email", "url", "tel", "password", "number"].includes(el.getAttribute("type") || "");
    if ((textInput || el.localName === "textarea") && el.readOnly) {
      throw new page.PageToolError(`The ${page.describe(el).summary} is read-only: a person cannot type into it either (it may be filled by a picker beside it).`);
    }
    if (textInput || el.localName === "textarea" || el.isContentEditable) return el;
    const what = page.describe(el).summary;
    throw new page.PageToolError(`The ${what} is not a text field, so text cannot be typed into it.`);
  }

  const currentText = (el) => (el.isContentEditable ? el.innerText : el.value);
  const quoted = (text, max = 200) => `“${page.truncate(text, max).text}”`;

  const planners = {
    click({ locator }) {
      const el = actionable(locator, "clicked");
      const url = destination(el);
      const newTab = el.closest("a")?.target === "_blank" ? " in a new tab" : "";
      return { el, url, summary: `Click the ${page.describe(el).summary}${url ? `, which opens ${url}${newTab}` : ""}.` };
    },
    type_text({ locator, text, clear, submit }) {
      const el = editable(actionable(locator, "typed into"));
      const current = currentText(el);
      const replacing = clear && current ? `, replacing ${quoted(current)}` : !clear && current ? ", after the text already there" : "";
      const form = el.form || el.closest("form");
      const then = submit ? (form ? `, then submit the form (to ${form.action})` : ", then press Enter") : "";
      return { el, text, url: submit && form ? form.action : null, summary: `Type ${quoted(text, 1000)} into the ${page.describe(el).summary}${replacing}${then}.` };
    },
    select_option({ locator, option }) {
      const el = actionable(locator, "chosen from");
      const wanted = (Array.isArray(option) ? option : [option]).map(String);
      const { options, current, multiple } = choicesOf(el);
      const chosen = wanted.map((want) => matchOption(options, want, el));
      if (chosen.length > 1 && !multiple) throw new page.PageToolError(`The ${page.describe(el).summary} takes one choice, not ${chosen.length}.`);
      const names = chosen.map((o) => quoted(optionText(o))).join(", ");
      const was = current.length ? `, in place of ${current.map((o) => quoted(optionText(o))).join(", ")}` : "";
      return { el, chosen, summary: `Choose ${names} in the ${page.describe(el).summary}${was}.` };
    },
    check({ locator, checked }) {
      const el = actionable(locator, checked ? "checked" : "unchecked");
      if (!isCheckable(el)) throw new page.PageToolError(`The ${page.describe(el).summary} is not a check box, radio button or switch.`);
      if (el.type === "radio" && !checked) throw new page.PageToolError(`A radio button cannot be unchecked: choose another one of its group.`);
      const already = isChecked(el) === checked;
      const verb = checked ? "Check" : "Uncheck";
      return { el, checked, already, summary: already ? `Leave the ${page.describe(el).summary} ${checked ? "checked" : "unchecked"}, as it already is.` : `${verb} the ${page.describe(el).summary}.` };
    },
    press_key({ locator, key }) {
      const el = locator ? actionable(locator, "given a key") : (document.activeElement ?? document.body);
      const keys = parseKeys(key);
      const where = locator || el !== document.body ? ` in the ${page.describe(el).summary}` : " on the page";
      return { el: locator ? el : null, target: el, keys, summary: `Press ${keys.label}${where}.` };
    },
    hover({ locator }) {
      const el = actionable(locator, "hovered over");
      return { el, summary: `Move the mouse over the ${page.describe(el).summary}.` };
    },
    scroll({ to }) {
      const target = scroller();
      const screen = Math.round(target.clientHeight * 0.9);
      const bottom = target.scrollHeight - target.clientHeight;
      const named = { top: [0, "to the top of the page"], bottom: [bottom, "to the bottom of the page"],
        down: [target.scrollTop + screen, "down by one screen"], up: [target.scrollTop - screen, "up by one screen"] };
      if (typeof to === "number") return { target, top: to, summary: `Scroll to ${Math.round(to)} pixels from the top of the page.` };
      if (typeof to === "string" && Object.hasOwn(named, to)) return { target, top: named[to][0], summary: `Scroll ${named[to][1]}.` };
      if (typeof to !== "string") throw new page.PageToolError('scroll: “to” should be "top", "bottom", "up", "down", a number of pixels, or a locator.');
      const el = page.locators.findOne(to);
      return { el, summary: `Scroll the ${page.describe(el).summary} into view.` };
    },
  };

  // The element that scrolls the page: the document, or for apps that scroll an inner
  // panel instead, the largest scrollable element.
  function scroller() {
    const root = document.scrollingElement || document.documentElement;
    if (root.scrollHeight > root.clientHeight + 1) return root;
    let best = root;
    let bestArea = 0;
    for (const el of document.body?.querySelectorAll("*") ?? []) {
      if (el.scrollHeight <= el.clientHeight + 1 || !/auto|scroll|overlay/.test(getComputedStyle(el).overflowY)) continue;
      const area = el.clientWidth * el.clientHeight;
      if (area > bestArea) [best, bestArea] = [el, area];
    }
    return best;
  }

  // --- choosing: native <select>, and ARIA listboxes and comboboxes -------------------------

  const optionText = (o) => page.squash(o.label ?? o.textContent);

  function choicesOf(el) {
    if (el.localName === "select") return { options: [...el.options], current: [...el.selectedOptions], multiple: el.multiple };
    const role = el.getAttribute("role");
    if (role !== "listbox" && role !== "combobox") throw new page.PageToolError(`The ${page.describe(el).summary} is not a list to choose from.`);
    const list = role === "listbox" ? el : listOf(el);
    const options = list ? [...list.querySelectorAll('[role="option"]')] : [];
    return { options, current: options.filter((o) => o.getAttribute("aria-selected") === "true"),
      multiple: list?.getAttribute("aria-multiselectable") === "true" };
  }

  // A combobox's list: the element it names (aria-controls / aria-owns), or one inside it.
  function listOf(combobox) {
    const ids = `${combobox.getAttribute("aria-controls") ?? ""} ${combobox.getAttribute("aria-owns") ?? ""}`.trim().split(/\s+/).filter(Boolean);
    return ids.map((id) => combobox.ownerDocument.getElementById(id)).find(Boolean) ?? combobox.querySelector('[role="listbox"]');
  }

  function matchOption(options, want, el) {
    const wanted = page.squash(want).toLowerCase();
    const found = options.find((o) => optionText(o).toLowerCase() === wanted) ??
      options.find((o) => (o.value ?? o.getAttribute("data-value") ?? "").toLowerCase() === wanted);
    if (found) return found;
    const some = options.slice(0, 12).map((o) => quoted(optionText(o), 40)).join(", ");
    throw new page.PageToolError(`The ${page.describe(el).summary} has no option “${want}”; it has ${some || "none"}${options.length > 12 ? ", …" : ""}.`);
  }

  function choose(el, chosen) {
    el.scrollIntoView({ block: "center", behavior: "instant" });
    if (el.localName === "select") {
      el.focus({ preventScroll: true });
      for (const option of el.options) option.selected = chosen.includes(option);
      el.dispatchEvent(new Event("input", { bubbles: true }));
      el.dispatchEvent(new Event("change", { bubbles: true }));
      return;
    }
    if (el.getAttribute("role") === "combobox" && el.getAttribute("aria-expanded") !== "true") click(el);
    for (const option of chosen) click(option);
  }

  // --- checking ---------------------------------------------------------------------------

  const CHECKABLE_ROLES = new Set(["checkbox", "radio", "switch", "menuitemcheckbox", "menuitemradio"]);
  const isCheckable = (el) => (el.localName === "input" && ["checkbox", "radio"].includes(el.type)) || CHECKABLE_ROLES.has(el.getAttribute("role"));
  const isChecked = (el) => (el.localName === "input" ? el.checked : el.getAttribute("aria-checked") === "true");

  // --- keys: "Enter", "Escape", "Tab", "ArrowDown", "Control+a", "Shift+Tab" ---------------

  const KEY_CODES = { Enter: 13, Escape: 27, Tab: 9, Backspace: 8, Delete: 46, " ": 32, ArrowUp: 38, ArrowDown: 40,
    ArrowLeft: 37, ArrowRight: 39, Home: 36, End: 35, PageUp: 33, PageDown: 34 };
  const MODIFIERS = { control: "ctrlKey", ctrl: "ctrlKey", shift: "shiftKey", alt: "altKey", meta: "metaKey", cmd: "metaKey" };

  function parseKeys(text) {
    const parts = String(text).split("+").map((p) => p.trim());
    const key = parts.pop();
    if (!key) throw new page.PageToolError(`press_key: “${text}” names no key (try "Enter", "Escape", "Tab", "ArrowDown" or "Control+a").`);
    const held = {};
    for (const part of parts) {
      const name = MODIFIERS[part.toLowerCase()];
      if (!name) throw new page.PageToolError(`press_key: “${part}” is not a modifier (Control, Shift, Alt, Meta).`);
      held[name] = true;
    }
    const named = key.length === 1 ? key : Object.keys(KEY_CODES).find((k) => k.toLowerCase() === key.toLowerCase()) ?? key;
    return { key: named, held, label: String(text) };
  }

  function pressKey(el, { key, held }) {
    const code = KEY_CODES[key] ?? key.toUpperCase().charCodeAt(0);
    const init = { bubbles: true, cancelable: true, composed: true, key, keyCode: code, which: code, ...held };
    const proceed = el.dispatchEvent(new KeyboardEvent("keydown", init));
    if (key.length === 1 && !held.ctrlKey && !held.metaKey) el.dispatchEvent(new KeyboardEvent("keypress", init));
    el.dispatchEvent(new KeyboardEvent("keyup", init));
    if (!proceed) return; // the page handled it
    // What the browser itself would do, for the keys whose default a page relies on.
    if (key === "Tab") moveFocus(el, held.shiftKey ? -1 : 1);
    if (key === "Enter" && (el.form || el.closest?.("form")) && el.localName === "input") (el.form || el.closest("form")).requestSubmit();
  }

  function moveFocus(from, step) {
    const focusable = [...document.querySelectorAll('a[href], button, input:not([type="hidden"]), select, textarea, [tabindex]')]
      .filter((el) => !el.disabled && el.tabIndex >= 0 && page.isVisible(el));
    const next = focusable[(focusable.indexOf(from) + step + focusable.length) % focusable.length];
    next?.focus();
  }

  function hover(el) {
    el.scrollIntoView({ block: "center", inline: "center", behavior: "instant" });
    const rect = el.getBoundingClientRect();
    const at = { bubbles: true, cancelable: true, composed: true, clientX: rect.left + rect.width / 2, clientY: rect.top + rect.height / 2 };
    el.dispatchEvent(new PointerEvent("pointerover", { ...at, pointerType: "mouse" }));
    el.dispatchEvent(new MouseEvent("mouseover", at));
    // A pointer that arrives enters the element and each box around it: menus listen there.
    const entered = [];
    for (let node = el; node && node.nodeType === 1; node = node.parentElement ?? node.getRootNode().host) entered.unshift(node);
    for (const node of entered) {
      node.dispatchEvent(new PointerEvent("pointerenter", { ...at, bubbles: false, pointerType: "mouse" }));
      node.dispatchEvent(new MouseEvent("mouseenter", { ...at, bubbles: false }));
    }
    el.dispatchEvent(new PointerEvent("pointermove", { ...at, pointerType: "mouse" }));
    el.dispatchEvent(new MouseEvent("mousemove", at));
  }

  // What an action changed that the model should know: a field's value and its validation
  // message, a box's state, a dialog that opened.
  function outcome(el) {
    const out = {};
    if (el && "value" in el && el.localName !== "button") out.value = el.type === "password" ? "•••" : page.truncate(String(el.value), 1000).text;
    if (el && isCheckable(el)) out.checked = isChecked(el);
    if (el?.localName === "select") out.selected = [...el.selectedOptions].map(optionText);
    if (el?.validationMessage) out.validation_message = el.validationMessage;
    // A form that would not submit says why: its first field the browser finds wrong.
    const refusing = el?.form?.querySelector?.(":invalid");
    if (refusing && refusing !== el && refusing.validationMessage) {
      out.form_invalid = `${page.describe(refusing).summary}: ${refusing.validationMessage}`;
    }
    const dialog = [...document.querySelectorAll('dialog[open], [role="dialog"], [role="alertdialog"]')].find((d) => page.isVisible(d));
    if (dialog) out.dialog = page.describe(dialog).summary;
    return out;
  }

  function click(el) {
    el.scrollIntoView({ block: "center", inline: "center", behavior: "instant" });
    const cover = coveredBy(el);
    if (cover) throw new page.PageToolError(`Nothing was done: the ${page.describe(el).summary} is covered by the ${page.describe(cover).summary}; close or move that first.`);
    const rect = el.getBoundingClientRect();
    const at = { bubbles: true, cancelable: true, composed: true, button: 0, clientX: rect.left + rect.width / 2, clientY: rect.top + rect.height / 2 };
    // Pages that act on mousedown (menus, custom buttons) need the whole press, not just "click".
    el.dispatchEvent(new PointerEvent("pointerdown", { ...at, pointerType: "mouse", isPrimary: true }));
    el.dispatchEvent(new MouseEvent("mousedown", at));
    el.focus?.({ preventScroll: true });
    el.dispatchEvent(new PointerEvent("pointerup", { ...at, pointerType: "mouse", isPrimary: true }));
    el.dispatchEvent(new MouseEvent("mouseup", at));
    // click() also runs the default action: follow the link, toggle the box, submit the form.
    if (typeof el.click === "function") el.click();
    else el.dispatchEvent(new MouseEvent("click", at));
  }

  function typeText(el, text, clear, submit) {
    const doc = el.ownerDocument;
    el.scrollIntoView({ block: "center", behavior: "instant" });
    el.focus({ preventScroll: true });
    if (el.isContentEditable) {
      const range = doc.createRange();
      range.selectNodeContents(el);
      if (!clear) range.collapse(false);
      doc.getSelection().removeAllRanges();
      doc.getSelection().addRange(range);
    }
    const before = currentText(el);
    const limit = el.maxLength > 0 ? el.maxLength : Infinity;
    const wanted = ((clear ? "" : before) + text).slice(0, limit);
    if (!el.isContentEditable) {
      // The prototype's setter, not el.value = ...: frameworks that wrap the property on the
      // element (React) must still see the change as user input.
      const setValue = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(el), "value").set;
      if (clear) setValue.call(el, "");
      try { el.setSelectionRange(el.value.length, el.value.length); } catch { /* no caret in this input type */ }
      // insertText is typing as far as the page can tell: beforeinput, input, undo history.
      if (!doc.execCommand("insertText", false, text) || el.value !== wanted) {
        setValue.call(el, wanted);
        el.dispatchEvent(new InputEvent("input", { bubbles: true, inputType: "insertText", data: text }));
      }
      el.dispatchEvent(new Event("change", { bubbles: true }));
    } else if (!doc.execCommand("insertText", false, text)) {
      el.textContent = wanted;
      el.dispatchEvent(new InputEvent("input", { bubbles: true, inputType: "insertText", data: text }));
    }
    if (!submit) return;
    const form = el.form || el.closest("form");
    if (form) form.requestSubmit();
    else for (const type of ["keydown", "keypress", "keyup"]) el.dispatchEvent(new KeyboardEvent(type, { bubbles: true, cancelable: true, key: "Enter", code: "Enter", keyCode: 13, which: 13 }));
  }

  function position() {
    const target = scroller();
    const max = Math.max(0, target.scrollHeight - target.clientHeight);
    const y = Math.round(target.scrollTop);
    return { scroll_y: y, max_scroll_y: max, viewport_height: target.clientHeight, at_top: y <= 0, at_bottom: y >= max - 1 };
  }

  // What describe_action returns, and what each action returns along with its outcome.
  function describePlan(name, plan) {
    const out = { action: name, summary: plan.summary, page_url: location.href };
    if (plan.el) out.element = { locator: page.locators.locatorFor(plan.el), ...page.describe(plan.el) };
    if (plan.text != null) out.text = plan.text;
    if (plan.url) out.url = plan.url;
    return out;
  }

  function hold(name, args, plan, described) {
    const id = crypto.randomUUID();
    held.set(id, { name, args: JSON.stringify(args), el: plan.el ?? null, described: JSON.stringify(described) });
    while (held.size > HELD_AT_MOST) held.delete(held.keys().next().value);
    return id;
  }

  // The plan the user confirmed, checked unchanged now: same action and arguments, the same
  // element (the node itself, still in the page), described in the same words.
  function confirmedPlan(name, args, planId) {
    const promised = held.get(planId);
    held.delete(planId);
    if (!promised || promised.name !== name || promised.args !== JSON.stringify(args)) {
      throw new page.PageToolError("Nothing was done: this is not the action the user confirmed (the page was reloaded since, or the action differs).");
    }
    const was = JSON.parse(promised.described);
    let plan;
    try {
      plan = planners[name](args);
    } catch (error) {
      if (!(error instanceof page.PageToolError)) throw error;
      throw new page.PageToolError(`Nothing was done: the page changed since the user confirmed “${was.summary}”: ${error.message}`);
    }
    const same = promised.el === (plan.el ?? null) && (!plan.el || plan.el.isConnected);
    const now = describePlan(name, plan);
    if (!same || JSON.stringify(now) !== promised.described) {
      const what = same ? `it would now be “${now.summary}”` : "the element the user saw has been replaced or moved";
      throw new page.PageToolError(`Nothing was done: the page changed what the user confirmed. They allowed “${was.summary}”; ${what}.`);
    }
    return plan;
  }

  const perform = {
    click(plan) {
      click(plan.el);
      return outcome(plan.el.localName === "input" ? plan.el : null);
    },
    type_text(plan, { text, clear, submit }) {
      typeText(plan.el, text, clear, submit);
      const value = plan.el.type === "password" ? "•".repeat(plan.el.value.length) : currentText(plan.el);
      return { value: page.truncate(value, 1000).text, submitted: submit };
    },
    select_option(plan) {
      choose(plan.el, plan.chosen);
      return outcome(plan.el);
    },
    check(plan) {
      if (!plan.already) click(plan.el);
      return outcome(plan.el);
    },
    press_key(plan) {
      pressKey(plan.target, plan.keys);
      return outcome(plan.target);
    },
    hover(plan) {
      hover(plan.el);
      return outcome(null);
    },
    scroll(plan) {
      if (plan.el) plan.el.scrollIntoView({ block: "center", behavior: "instant" });
      else plan.target.scrollTo({ top: plan.top, behavior: "instant" });
      return position();
    },
  };

  const params = {
    click: { locator: page.arg("string") },
    type_text: { locator: page.arg("string"), text: page.arg("string"), clear: page.arg("boolean", true), submit: page.arg("boolean", false) },
    scroll: { to: page.arg("any") },
    select_option: { locator: page.arg("string"), option: page.arg("any") },
    check: { locator: page.arg("string"), checked: page.arg("boolean", true) },
    press_key: { locator: page.arg("string", null), key: page.arg("string") },
    hover: { locator: page.arg("string") },
  };
  for (const name of Object.keys(planners)) {
    page.tools[name] = {
      params: params[name],
      // With a plan id (every action the agent does), only what describe_action held.
      run(args, { planId } = {}) {
        const plan = planId ? confirmedPlan(name, args, planId) : planners[name](args);
        return { ...describePlan(name, plan), ...perform[name](plan, args) };
      },
    };
  }

  page.tools.describe_action = {
    params: { name: page.arg("string"), args: page.arg("object", null) },
    run({ name, args }) {
      if (!Object.hasOwn(planners, name)) {
        throw new page.PageToolError(`describe_action describes ${Object.keys(planners).join(", ")}; “${name}” is not one of them.`);
      }
      const actionArgs = page.readArgs(name, params[name], args);
      const plan = planners[name](actionArgs);
      const described = describePlan(name, plan);
      return { ...described, plan_id: hold(name, actionArgs, plan, described) };
    },
  };
})();
