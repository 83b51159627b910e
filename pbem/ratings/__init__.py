"""Ratings, leaderboards and charts rebuilt from finished game logs.

`core/` is pure: it does no I/O, reads no clock and knows nothing of the database or the
pages. `core.fold.rebuild` folds `core.games.RatedGame` records in finish order into a
`core.state.Ratings` (one openskill Plackett-Luce rating per game kind and an overall one),
`core.fold.apply` adds one more game with exactly the same figures, `core.queries` reads
leaderboards, head-to-head records and recent games, and `core.chart` draws a player's
rating history as SVG. The server side turns each finished game's log into a row
(`records`, which asks the game's tournament whether it counts) and keeps the ratings of
each database up to date in each process (`current`). Nothing here is stored as truth:
after an adjudication or an annulment the server rebuilds from the start.
"""
