"""The pure core of tournaments: no database, no web, no clock, no I/O.

Everything here is a function of a tournament's log (and, for pairing, of the time and of
who is away), so the same log gives the same standings and pairings on any machine.
"""
