"""extension/offscreen/python/rpc.js: the notices Python's worker gathers (a turn's events) cross as
one message for all those given in one go, and never overtake or fall behind any other message:
the offscreen document sees everything in the order the worker sent it. Run in Node, with a
port that records what is posted."""

from __future__ import annotations

import json
import shutil
import subprocess

from tests.helpers.browser import ROOT

# Each case: what the worker does in one go, then what was posted, as [method, args] (replies
# as ["reply"]), read once the microtasks have run.
CASES = r"""
import { Rpc } from "./extension/offscreen/python/rpc.js";

function recording(handlers) {
  const posted = [];
  const port = {
    addEventListener: (_, listener) => { port.receive = listener; },
    postMessage: (message) => posted.push(message.reply ? ["reply"] : [message.method, message.args]),
  };
  return { rpc: new Rpc(port, handlers), posted, port };
}

async function after(work) {
  const { rpc, posted } = recording({});
  work(rpc);
  await new Promise((resolve) => setTimeout(resolve, 0));
  return posted;
}

// A call answered here (a turn run): the events its handler gave go out before its reply.
async function answered() {
  let rpc;
  const recorded = recording({ runTurn: async () => { rpc.notifyGathered("emit", 7, "done"); return "result"; } });
  rpc = recorded.rpc;
  recorded.port.receive({ data: { id: 5, method: "runTurn", args: [] } });
  await new Promise((resolve) => setTimeout(resolve, 0));
  return recorded.posted;
}

const results = {
  oneGo: await after((rpc) => { for (const n of [1, 2, 3]) rpc.notifyGathered("emit", 7, n); }),
  callBetween: await after((rpc) => {
    rpc.notifyGathered("emit", 7, 1);
    rpc.request("page", 7, "confirm", "c1");
    rpc.notifyGathered("emit", 7, 2);
  }),
  noticeBetween: await after((rpc) => {
    rpc.notifyGathered("emit", 7, 1);
    rpc.notify("model", 7, "abort", "r1");
    rpc.notifyGathered("emit", 7, 2);
  }),
  otherKey: await after((rpc) => { rpc.notifyGathered("emit", 7, 1); rpc.notifyGathered("emit", 8, 2); rpc.notifyGathered("emit", 7, 3); }),
  flushed: await after((rpc) => { rpc.notifyGathered("emit", 7, 1); rpc.flushGathered(); rpc.notifyGathered("emit", 7, 2); }),
  answered: await answered(),
};
console.log(JSON.stringify(results));
"""


def run_cases() -> dict:
    node = shutil.which("node")
    assert node, "node is not on PATH: install Node.js 20"
    out = subprocess.run([node, "--input-type=module", "-e", CASES], cwd=ROOT, capture_output=True, text=True, timeout=20)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


def test_what_is_given_in_one_go_crosses_as_one_message_and_nothing_is_reordered():
    results = run_cases()
    assert results["oneGo"] == [["emit", [7, [1, 2, 3]]]]
    assert results["callBetween"] == [["emit", [7, [1]]], ["page", [7, "confirm", "c1"]], ["emit", [7, [2]]]]
    assert results["noticeBetween"] == [["emit", [7, [1]]], ["model", [7, "abort", "r1"]], ["emit", [7, [2]]]]
    assert results["otherKey"] == [["emit", [7, [1]]], ["emit", [8, [2]]], ["emit", [7, [3]]]]
    assert results["flushed"] == [["emit", [7, [1]]], ["emit", [7, [2]]]]
    assert results["answered"] == [["emit", [7, ["done"]]], ["reply"]]
