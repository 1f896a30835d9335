"""The pages the browser tests serve: TabAgent's own test pages, and the hostile site's."""

from pathlib import Path

E2E = Path(__file__).resolve().parents[1] / "e2e"
OWN_PAGES = E2E / "pages"
RED_TEAM_PAGES = E2E / "red_team_pages"
