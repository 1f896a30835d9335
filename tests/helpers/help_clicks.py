"""Counting the user's presses of the Help button of controls.html, in the page itself."""

HELP_CLICKS = "return window.helpClicks ?? 0"
COUNT_HELP_CLICKS = "window.helpClicks = 0; document.querySelector('[aria-label=Help]').addEventListener('click', () => window.helpClicks++)"
