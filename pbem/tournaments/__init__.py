"""Tournaments: round robins, Swiss, rolling Swiss and knockouts, rebuilt from their own logs.

The package holds the pure core for now: the fold of a tournament's event log, scoring,
tie-breaks and standings, schedules, pairing and seating, the per-format planner, the
fairness figures and the results export. It does no I/O, reads no clock and draws no
randomness, so the same log gives the same pairings on any machine. The service that
stores the log, the pages, the mail and the CLI will join it here and call into this core.
"""
