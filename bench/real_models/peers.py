"""The peers a user would pick instead of TabAgent, on one task of the real-model bench: run in
the peers' own environment (.venv-peers, bench/requirements-peers.txt; browser-use pins versions
TabAgent's test tools do not share), one process a task, by bench/bench_real_models.py:

    .venv-peers/bin/python bench/real_models/peers.py PEER BASE_URL MODEL JOB.json

PEER: smolagents-code, smolagents-tool (smolagents' CodeAgent and ToolCallingAgent with its
own page-fetching tool, VisitWebpageTool) or browser-use (its Agent on Debian's Chromium, the
browser TabAgent runs in). JOB: {"sentence", "max_steps", "max_tokens", "timeout"}. Prints one
line of JSON: {"answer", "steps", "error"}.

Each peer is set up as its documentation says for an OpenAI-compatible local server, and only
where llama-cpp-python's server refuses its defaults is one changed, said where it is.
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
import tempfile

CHROMIUM = "/usr/bin/chromium"


def smolagents_run(kind: str, base_url: str, model: str, job: dict) -> dict:
    from smolagents import CodeAgent, OpenAIServerModel, ToolCallingAgent, VisitWebpageTool
    from smolagents.memory import ActionStep

    # flatten_messages_as_text: smolagents sends content as a list of parts by default, which
    # the GGUF chat templates (Qwen's: `message.content` joined as a string) cannot render.
    served = OpenAIServerModel(model_id=model, api_base=base_url, api_key="none", temperature=0,
                               max_tokens=job["max_tokens"], flatten_messages_as_text=True,
                               client_kwargs={"timeout": job["timeout"], "max_retries": 0})
    agent_class = CodeAgent if kind == "code" else ToolCallingAgent
    agent = agent_class(tools=[VisitWebpageTool()], model=served, max_steps=job["max_steps"], verbosity_level=0)
    answer, error = "", None
    try:
        answer = agent.run(job["sentence"])
    except Exception as failure:  # the agent gave up: no answer
        error = f"{type(failure).__name__}: {failure}"[:300]
    actions = [step for step in agent.memory.steps if isinstance(step, ActionStep)]
    did = [call.name for step in actions for call in (step.tool_calls or [])]
    return {"answer": "" if answer is None else str(answer), "steps": len(actions), "error": error, "did": did}


async def browser_use_run(base_url: str, model: str, job: dict) -> dict:
    from browser_use import Agent, BrowserProfile, BrowserSession
    from browser_use.llm import ChatOpenAI

    # The models take no pictures: use_vision=False. Timeouts: a 1.5B model on two shared cores
    # reads a long prompt for minutes, past browser-use's defaults (a step's 180 s).
    llm = ChatOpenAI(model=model, base_url=base_url, api_key="none", temperature=0,
                     max_completion_tokens=job["max_tokens"], timeout=job["timeout"], max_retries=0)
    with tempfile.TemporaryDirectory(prefix="browser-use-") as profile:
        session = BrowserSession(browser_profile=BrowserProfile(
            executable_path=CHROMIUM, headless=True, user_data_dir=profile, chromium_sandbox=False,
            enable_default_extensions=False))  # its default fetches ad-blocking extensions from the web
        agent = Agent(task=job["sentence"], llm=llm, browser_session=session, use_vision=False,
                      llm_timeout=job["timeout"], step_timeout=job["timeout"])
        answer, error, did = "", None, []
        try:
            history = await agent.run(max_steps=job["max_steps"])
            did = [name for action in history.model_actions() for name in action if name != "interacted_element"]
            answer = history.final_result() or ""
            errors = [e for e in history.errors() if e]
            error = errors[-1][:300] if errors and not history.is_done() else None
        except Exception as failure:
            error = f"{type(failure).__name__}: {failure}"[:300]
        finally:
            await session.kill()
    return {"answer": answer, "steps": agent.state.n_steps - 1, "error": error, "did": did}  # its history also holds the opening navigation


def main() -> None:
    peer, base_url, model, job_file = sys.argv[1:5]
    job = json.loads(open(job_file).read())
    os.environ.setdefault("ANONYMIZED_TELEMETRY", "false")  # nothing leaves the machine
    os.environ.setdefault("BROWSER_USE_CLOUD_SYNC", "false")
    if peer == "browser-use":
        result = asyncio.run(browser_use_run(base_url, model, job))
    else:
        result = smolagents_run(peer.removeprefix("smolagents-"), base_url, model, job)
    print(json.dumps(result))


if __name__ == "__main__":
    main()
