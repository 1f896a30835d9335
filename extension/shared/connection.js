// Talks to the configured endpoint from the settings page: the model list and a clear
// verdict for "Test connection". The key goes in the Authorization header to that endpoint
// and nowhere else.

function modelsUrl(baseUrl) {
  return `${baseUrl.replace(/\/+$/, "").replace(/\/chat\/completions$/, "")}/models`;
}

function verdictForStatus(status, url) {
  if (status === 401 || status === 403) return `${status} from ${url}: check the API key.`;
  if (status === 404) return `The endpoint answered, but offers no model list at ${url}; type the model name yourself.`;
  if (status === 429) return `${url} is rate limiting this key (429): try again in a moment.`;
  return `${url} answered ${status}.`;
}

// Returns { ok, models, message }.
export async function fetchModels(baseUrl, apiKey) {
  if (!baseUrl) return { ok: false, models: [], message: "Set a base URL first." };
  let url;
  try {
    url = modelsUrl(new URL(baseUrl).href);
  } catch {
    return { ok: false, models: [], message: `“${baseUrl}” is not a URL.` };
  }
  let response;
  try {
    response = await fetch(url, {
      headers: apiKey ? { Authorization: `Bearer ${apiKey}` } : {},
      signal: AbortSignal.timeout(10000),
    });
  } catch (error) {
    const why = error.name === "TimeoutError" ? "no answer within 10 s" : "connection refused or no such host";
    return { ok: false, models: [], message: `Could not reach ${url} (${why}). Is the server running?` };
  }
  if (!response.ok) return { ok: response.status === 404, models: [], message: verdictForStatus(response.status, url) };
  try {
    const body = await response.json();
    const models = (body.data ?? body.models ?? []).map((m) => m.id ?? m.name).filter(Boolean).sort();
    return { ok: true, models, message: `Connected: ${models.length} model${models.length === 1 ? "" : "s"} available.` };
  } catch {
    return { ok: false, models: [], message: `${url} did not answer with a model list (not an OpenAI-compatible endpoint?).` };
  }
}
