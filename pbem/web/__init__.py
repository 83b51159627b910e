"""The web: the app factory, request helpers, one blueprint per audience, and the JSON API.

`app` builds the Flask app (`create_app`); `helpers` holds what every view needs (the
signed-in player, CSRF); `games` (lobby, new games, spectator and player pages),
`history` (history, audit, the log export), `play` (the move link), `auth` (sign-in and
settings), `api` (JSON for bots) and `devmail` (the local mailbox) are the blueprints.
"""
