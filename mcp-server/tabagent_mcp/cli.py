"""tabagent-mcp: with no command, the MCP server over stdio (what an MCP client starts);
`host`, the native messaging host (what the browser starts); `register`, the one command that
makes Chrome, Chromium and Firefox know the host."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path


def parser() -> argparse.ArgumentParser:
    parse = argparse.ArgumentParser(prog="tabagent-mcp", description=__doc__)
    commands = parse.add_subparsers(dest="command")
    commands.add_parser("serve", help="the MCP server over stdio (the default)")
    # The browser adds its own arguments (the extension's origin; Firefox, the manifest's path too).
    commands.add_parser("host", help="the native messaging host (the browser starts it)").add_argument("browser_args", nargs="*")
    register = commands.add_parser("register", help="register the native host with Chrome, Chromium and Firefox")
    register.add_argument("--chrome-extension-id", action="append", default=[],
                          help="the id chrome://extensions shows for TabAgent (may be given more than once)")
    register.add_argument("--extension-dir", help="the folder TabAgent is loaded unpacked from (its id follows)")
    register.add_argument("--chrome-profile", action="append", default=[],
                          help="a Chrome user data folder to register in (default: Chrome's and Chromium's own)")
    register.add_argument("--socket-dir", help="the folder the host and server meet in (default: /tmp/tabagent-mcp-<uid>)")
    return parse


def main(argv: list[str] | None = None) -> None:
    args = parser().parse_args(argv)
    if args.command == "host":
        from .host import run
        run()
    elif args.command == "register":
        from .register import register
        written = register(Path.home(), chrome_extension_ids=args.chrome_extension_id, extension_dir=args.extension_dir,
                           chrome_profiles=args.chrome_profile, socket_dir=args.socket_dir)
        for path in written:
            print(f"wrote {path}")
        if not written:
            sys.exit("No browser folder found: give --chrome-profile, or start Chrome or Firefox once first.")
    else:
        from .server import build
        build().run("stdio")
