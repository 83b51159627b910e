"""Luck: the dice each seat received against expectation, and the published test of fair dice."""
