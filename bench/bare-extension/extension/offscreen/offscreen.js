// Says it listens as soon as it runs, as TabAgent's offscreen document does (before Python).
chrome.runtime.sendMessage({ type: "offscreen-listening", documentStarted: Math.round(performance.timeOrigin) });
