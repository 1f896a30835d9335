// One sandbox per agent of a conversation, so the variables a CodeAgent made in one step
// (and one turn) are there in the next, and no conversation sees another's. A few are kept;
// the least recently used is closed when a new one is needed (its variables are lost).

import { SandboxHost } from "./sandbox-host.js";

const KEEP = 4;

export class Sandboxes {
  constructor() {
    this.hosts = new Map(); // "conversation/agent" -> SandboxHost, least recently used first
  }

  forAgent(conversationId, agentName) {
    const key = `${conversationId}/${agentName}`;
    let host = this.hosts.get(key);
    if (host) {
      this.hosts.delete(key);
    } else {
      host = new SandboxHost();
      while (this.hosts.size >= KEEP) this.#evictOldestIdle();
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
    this.hosts.delete(this.hosts.keys().next().value); // all busy: forget the oldest, it closes when done
  }
}
