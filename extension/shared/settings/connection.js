// Talks to the configured endpoint from the settings page: the model list and a clear
// verdict for "Test connection". The key goes in the Authorization header to that endpoint
// and nowhere else.

import { t, tn } from "../ui/i18n.js";

function modelsUrl(endpoint) {
  return `${endpoint.replace(/\/+$/, "").replace(/\/chat\/completions$/, "")}/models`;
}

function verdictForStatus(status, url) {
  if (status === 401 || status === 403) return t("connKey", status, url);
  if (status === 404) return t("connNoList", url);
  if (status === 429) return t("connRateLimited", url);
  return t("connStatus", url, status);
}

// Returns { ok, models, message }.
export async function fetchModels(endpoint, apiKey) {
  if (!endpoint) return { ok: false, models: [], message: t("connNoBaseUrl") };
  let url;
  try {
    url = modelsUrl(new URL(endpoint).href);
  } catch {
    return { ok: false, models: [], message: t("connNotUrl", endpoint) };
  }
  let response;
  try {
    response = await fetch(url, {
      headers: apiKey ? { Authorization: `Bearer ${apiKey}` } : {},
      credentials: "omit", // the key is the credential; no cookie of the user's for that host
      signal: AbortSignal.timeout(10000),
    });
  } catch (error) {
    const why = t(error.name === "TimeoutError" ? "connTimeout" : "connRefused");
    return { ok: false, models: [], message: t("connUnreachable", url, why) };
  }
  if (!response.ok) return { ok: response.status === 404, models: [], message: verdictForStatus(response.status, url) };
  try {
    const body = await response.json();
    const models = (body.data ?? body.models ?? []).map((m) => m.id ?? m.name).filter(Boolean).sort();
    return { ok: true, models, message: tn("connected", models.length) };
  } catch {
    return { ok: false, models: [], message: t("connNotAList", url) };
  }
}
