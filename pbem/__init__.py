"""pbem: a play-by-email turn server for the Martian dice games.

One sub-package per capability, arrows pointing down only: `web` and `cli` on top; then
`tournaments` and `ratings`; `play` (the service layer); `mail`; `present`; `log` (the
hash-chained game log); and the leaves (`models`, `db`, `links`, `clock`, `context`,
`config`, `errors`, `text`). The rules of the games live apart, in the pure `engine` package.
"""

__version__ = "0.2.0"
