"""The game log: every game is an append-only, hash-chained list of events.

`chain` computes and checks the hash chain; `store` appends and reads events; `snapshots`
caches rebuilt states (snapshot rows and in-process caches by head, all deletable at will);
`windows` reads a few events of a long log with the state before them; `dice` draws
committed, auditable chance events and `tally` keeps the running totals of revealed ones;
`games` loads a game and its state; `audit` verifies a log against the rules and the
revealed seed; `export` writes and reads the public JSON-lines form and imports it.
"""
