// Pings the worker as soon as it runs, as TabAgent's panel does.
chrome.runtime.sendMessage({ target: "background", type: "ping" });
