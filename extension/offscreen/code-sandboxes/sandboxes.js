// One sandbox per agent of a conversation, so the variables a CodeAgent made in one step
// (and one turn) are there in the next, and no conversation sees another's. A few are kept;
// the least recently used is closed when a new one is needed (its variables are lost).

import { WHY_NO_CODE_SANDBOX } from "../../platform/chrome/code-sandbox.js";
import { CodeSandbox } from "./code-sandbox.js";

const KEEP = 4;

export class Sandboxes {
  constructor({ keep = KEEP } = {}) {
    this.keep = keep;
    this.hosts = new Map(); // "conversation/agent" -> CodeSandbox, least recently used first
  }

  // (Where the browser has no sandbox for it, the model's code is refused before it exists.)
  forAgent(conversationId, agentName) {
    if (WHY_NO_CODE_SANDBOX) throw new Error(WHY_NO_CODE_SANDBOX);
    const key = `${conversationId}/${agentName}`;
    let host = this.hosts.get(key);
    if (host) {
      this.hosts.delete(key);
    } else {
      host = new CodeSandbox();
      while (this.hosts.size >= this.keep) this.#evictOldestIdle();
    }
    this.hosts.set(key, host);
    return host;
  }

  #evictOldestIdle() {
    for (const [key, host] of this.hosts) {
      if (host.current) continue; // never close a sandbox in the middle of a run
      host.close();
      this.hosts.delete(key);
      return;
    }
    // All busy: the oldest goes from the list now and closes as soon as its run ends.
    const [key, host] = this.hosts.entries().next().value;
    this.hosts.delete(key);
    host.closeWhenDone();
  }
}
