"""The pure core of ratings: finished games folded into openskill ratings, read and drawn."""
