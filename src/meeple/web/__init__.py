"""The browser client: server-rendered pages (Jinja2) and one small script, served beside the game server's API.

``create_web_app(config)`` is the server's app (``meeple.server.create_app``) plus the pages: the lobby, the invite
page, a table, its board (a fragment the script reloads after each WebSocket ``state`` frame) and the replay viewer.
Nothing comes from a CDN and nothing is built: the templates and ``static/`` ship in the package. docs/web.md.
"""

from meeple.web.app import create_web_app

__all__ = ["create_web_app"]
