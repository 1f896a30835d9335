// The user's saved workflows, at the top of the Tools view: each one's Python to read and edit
// before it runs, the sites it acts on (each with a box: act there without asking each time,
// unchecked until the user checks it), Save, Export as a .py file, Delete; and Import of a .py
// file, which allows no site. A workflow runs from the composer as "/name" (or "/name value"),
// and the agent may call it as a tool in any turn.

import { h } from "../shared/ui/dom.js";
import { t } from "../shared/ui/i18n.js";
import { shown } from "../shared/import-checks/unseen-text.js";
import { deleteWorkflow, loadWorkflows, storeWorkflow } from "../shared/storage/workflows.js";

export class WorkflowsView {
  constructor(section, { onRun }) {
    this.list = section.querySelector(".workflows-list");
    this.onRun = onRun;
    section.querySelector(".import-workflow").addEventListener("change", (event) => this.importFile(event.target));
  }

  // `open`: the name of one to show unfolded (the one just saved from a turn).
  async refresh(open = null) {
    const workflows = Object.values(await loadWorkflows());
    this.list.replaceChildren(...workflows.map((workflow) => this.item(workflow, workflow.name === open)));
    if (!workflows.length) this.list.replaceChildren(h("li", { class: "empty" }, t("noWorkflows")));
    this.list.querySelector("details[open]")?.scrollIntoView({ block: "start" });
  }

  item(workflow, open) {
    const code = h("textarea", { class: "workflow-source", rows: 14, spellcheck: "false", "aria-label": t("workflowCode", workflow.name) });
    code.value = workflow.source;
    const boxes = workflow.sites.map((site) => h("input", { type: "checkbox", value: site, checked: workflow.allowedSites.includes(site) }));
    const said = h("p", { class: "workflow-said", role: "status" });
    const save = async () => {
      const allowedSites = boxes.filter((box) => box.checked).map((box) => box.value);
      await storeWorkflow({ ...workflow, source: code.value, allowedSites });
      said.textContent = t("workflowSaved");
    };
    const button = (label, name, onclick) => h("button", { type: "button", class: `workflow-${name}`, onclick }, label);
    return h("li", { "data-workflow": workflow.name }, h("details", { open },
      h("summary", {}, h("span", { class: "tool-name" }, `/${workflow.name}`), " ", h("span", { class: "tool-description" }, shown(workflow.sites.join(", ")))),
      h("p", { class: "workflow-hint" }, t("workflowHint")),
      code,
      ...boxes.map((box) => h("label", { class: "workflow-site" }, box, " ", t("workflowAllowSite", shown(box.value)))),
      h("div", { class: "message-actions" },
        button(t("workflowSave"), "save", save),
        button(t("workflowRun"), "run", () => this.onRun(workflow.name)),
        button(t("workflowExport"), "export", () => exportFile(workflow.name, code.value)),
        button(t("delete"), "delete", async () => {
          await deleteWorkflow(workflow.name);
          await this.refresh();
        })),
      said));
  }

  // A .py file from elsewhere: its code is kept to be read like any other, and allowed nowhere.
  async importFile(input) {
    const [file] = input.files;
    input.value = "";
    if (!file) return;
    const name = file.name.replace(/\.py$/i, "").replace(/[^\p{L}\p{N}_]+/gu, "_").replace(/^(?=\p{N})/u, "workflow_");
    await storeWorkflow({ name, source: await file.text(), sites: [], allowedSites: [] });
    await this.refresh(name);
  }
}

function exportFile(name, source) {
  const url = URL.createObjectURL(new Blob([source], { type: "text/x-python" }));
  const link = h("a", { href: url, download: `${name}.py` });
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
