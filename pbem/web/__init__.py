"""The web: the app factory, request helpers, one blueprint per audience, and the JSON API.

`app` builds the Flask app (`create_app`); `helpers` holds what every view needs (the
signed-in player, CSRF) and `listing` the rows of game lists. The blueprints: `games`
(lobby, new games, spectator and player pages), `play` (the move link), `history`
(history, audit, the log export), `rules` (each game's rules and the docs), `luck`, `ratings`,
`director` (a game's director), `tournaments` and `tournament_director`, `auth` (sign-in
and settings), `devmail` (the local mailbox), and the JSON APIs `api` and `tournament_api`.
A game's own boards and words come from its folder through `pbem.games`, never from here.
"""
