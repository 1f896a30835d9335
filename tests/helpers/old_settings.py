"""A settings object as an older TabAgent stored it (extension/shared/settings/settings.js wrote every
default in camelCase, with the user's choices over them), written out by hand, and what it
is under wire.py's names: what settings-migration.js must make of it, nothing lost."""

# What settings.js stored before: every default in camelCase, with the user's choices over them.
OLD_SHAPE = {
    "provider": "ollama", "baseUrl": "http://localhost:11434/v1", "model": "qwen3:4b", "agent": "tool_calling",
    "maxSteps": 7, "codeTimeout": 45, "idleCloseMinutes": 3, "team": [{"name": "helper", "agent": "code"}],
    "contextWindow": 16384, "systemPrompt": "Answer in French.", "temperature": 0.4, "maxOutputTokens": 900,
    "showSteps": True, "customPrompts": "tldr: Summarize {{selection}}", "siteRules": "shop.example: allow",
    "requestTimeout": 60, "maxRetries": 1, "modelSeesImages": "no", "toolSet": "compact", "pageTools": False,
    "ownTab": True, "mcpClients": False, "holdReplies": "never",
}
NEW_SHAPE = {
    "provider": "ollama", "base_url": "http://localhost:11434/v1", "model": "qwen3:4b", "agent": "tool_calling",
    "max_steps": 7, "code_timeout": 45, "idle_close_minutes": 3, "team": [{"name": "helper", "agent": "code"}],
    "context_window": 16384, "system_prompt": "Answer in French.", "temperature": 0.4, "max_output_tokens": 900,
    "show_steps": True, "custom_prompts": "tldr: Summarize {{selection}}", "site_rules": "shop.example: allow",
    "request_timeout": 60, "max_retries": 1, "model_sees_images": "no", "tool_set": "compact", "page_tools": False,
    "own_tab": True, "mcp_clients": False, "hold_replies": "never",
}
