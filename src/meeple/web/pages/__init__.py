"""The browser pages, one FastAPI ``APIRouter`` per subject (issue #42, item 4), included by ``create_web_app``.

- :mod:`.lobby`: the lobby, its create-table form, quick match, joining a waiting table.
- :mod:`.tables`: a table's page, its board fragment, a seat's new invite link, the moves played back.
- :mod:`.replays`: the replay viewer of a finished game.
- :mod:`.rules`: a game's rules summary and its stylesheet.
- :mod:`.people`: profiles, leaderboards, my tables.
- :mod:`.accounts`: the account forms (sign up, log in, log out, password, log out everywhere).
- :mod:`.common`: what several pages share (the reader's language, rendering a page, the table and seat a request
  opens).

Every handler reaches the server through ``services: ServicesDep`` and calls the same use cases as the REST routes
(:class:`meeple.server.lobby.Lobby`); docs/architecture.md lists which router holds which page.
"""
