"""Ratings, leaderboards and charts rebuilt from finished game logs.

The modules here are a pure core: they do no I/O, read no clock and know nothing of the
database or the pages. The server turns each finished game's log into a `games.RatedGame`
record; `fold.rebuild` folds every record in finish order into a `fold.Ratings` (one
openskill Plackett-Luce rating per game kind and an overall one), `fold.apply` adds one
more game with exactly the same figures, `queries` reads leaderboards, head-to-head records
and recent games from the result, and `chart` draws a player's rating history as SVG.
Nothing computed here is stored as truth: after an adjudication or an annulment the
server simply rebuilds from the start.
"""
