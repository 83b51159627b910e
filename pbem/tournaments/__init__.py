"""Tournaments: round robins, Swiss, rolling Swiss, knockouts and installed formats.

`core/` is the pure core: the fold of a tournament's event log, scoring, tie-breaks and
standings, pairing and seating, the Format contract and the registry of formats
(`core/formats/`: the built-ins, and installed packages' `pbem.formats` entry points),
verify and the results export. It does no I/O, reads no clock and draws no randomness, so
the same log gives the same pairings on any machine. The modules beside it are the server
side: the service that stores the log and starts the games (`service`, `log`), the
director's actions, mails, words and exports for pages and commands, duplicate boards and
the simulator. They call into the core; the core never calls them.
"""
