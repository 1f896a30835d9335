// What the side panel's composer attaches to a message: the selection on the page the user
// is on, read when they attach it, so the message carries exactly the text they saw in the chip.
// `runPageTool` is the service worker's page-tool runner, handed in by the caller.

export async function readSelection(runPageTool) {
  const reply = await runPageTool({ name: "get_selection", args: { context_chars: 0 } });
  if (!reply.ok) throw new Error(reply.error);
  const text = reply.result?.text ?? "";
  if (!text.trim()) throw new Error(`Nothing is selected on “${reply.title || reply.url}”: select some text on the page first.`);
  return { text, url: reply.result.url || reply.url, title: reply.title ?? "" };
}
