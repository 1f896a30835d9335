// Calls between the offscreen document and the worker that owns the agent's Python
// (worker.js), over postMessage. Either side calls the other's handlers by name: a
// call carries an id and its reply (a value, or an error in words) comes back with it; a
// notice is a call that wants no reply (an event of the turn, a stop). What crosses is
// structured-cloned, so both sides pass JSON text, plain values and ids, never objects with
// methods; a ReadableStream in a reply is transferred (the built-in model's answer).
//
// A turn's events are gathered: all those made in one go (the tokens of one network read,
// which holds many when the model is fast or the machine busy) cross as one message, once
// the code that made them yields. Every other message posts what was gathered first, so the
// other side still sees everything in the order it was sent.

export class Rpc {
  constructor(port, handlers) {
    this.port = port; // a Worker, or the worker's own global scope
    this.handlers = handlers;
    this.nextId = 1;
    this.pending = new Map(); // call id -> { resolve, reject }
    this.broken = null; // the worker failed: every call fails with this
    this.gathered = null; // { method, key, values } of notices not posted yet
    port.addEventListener("message", (event) => this.#receive(event.data));
  }

  request(method, ...args) {
    if (this.broken) return Promise.reject(this.broken);
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.#post({ id, method, args });
    });
  }

  notify(method, ...args) {
    if (!this.broken) this.#post({ id: 0, method, args });
  }

  // A notice method(key, values) of every `value` given for that method and key until the
  // code giving them yields (a microtask later) or another message goes out.
  notifyGathered(method, key, value) {
    if (this.gathered && (this.gathered.method !== method || this.gathered.key !== key)) this.#postGathered();
    if (!this.gathered) {
      this.gathered = { method, key, values: [] };
      queueMicrotask(() => this.#postGathered());
    }
    this.gathered.values.push(value);
  }

  // What was gathered goes out now (an event that must not wait for Python to yield).
  flushGathered() {
    this.#postGathered();
  }

  #postGathered() {
    const gathered = this.gathered;
    this.gathered = null;
    if (gathered && !this.broken) this.port.postMessage({ id: 0, method: gathered.method, args: [gathered.key, gathered.values] });
  }

  #post(message, transfer = []) {
    this.#postGathered();
    this.port.postMessage(message, transfer);
  }

  // The other side is gone (its script failed): no reply will come.
  fail(error) {
    this.broken = error;
    for (const { reject } of this.pending.values()) reject(error);
    this.pending.clear();
  }

  #receive(message) {
    if (message?.reply) {
      const waiting = this.pending.get(message.reply);
      this.pending.delete(message.reply);
      if (message.ok) waiting?.resolve(message.value);
      else waiting?.reject(new Error(message.error));
    } else if (typeof message?.method === "string") {
      this.#answer(message);
    }
  }

  async #answer({ id, method, args }) {
    try {
      const handler = Object.hasOwn(this.handlers, method) ? this.handlers[method] : null;
      if (!handler) throw new Error(`no such call: ${method}`);
      const value = await handler(...args);
      if (id) this.#post({ reply: id, ok: true, value }, value instanceof ReadableStream ? [value] : []);
    } catch (error) {
      if (id) this.#post({ reply: id, ok: false, error: String(error?.message ?? error) });
      else console.warn(`TabAgent: the notice ${method} failed:`, error?.message ?? error);
    }
  }
}
