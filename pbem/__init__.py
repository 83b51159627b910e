"""pbem: a play-by-email turn server for the Martian dice games.

One sub-package per capability, arrows pointing down only: `web` and `cli` on top; then
`tournaments` and `ratings`; `play` (the service layer); `mail`; `present`; `log` (the
hash-chained game log); and the leaves (`models`, `db`, `links`, `clock`, `context`,
`config`, `errors`, `text`, and `games`, the server side of each game). The rules of the
games live apart, in the pure `engine` package.
"""

from importlib import metadata

try:
    # One version, written once in pyproject.toml, read from the installed package.
    __version__ = metadata.version("pbem")
except metadata.PackageNotFoundError:  # a checkout run without installing it
    __version__ = "0+unknown"
