"""The pure core of luck: what each roll was worth against expectation, and the fairness test."""
