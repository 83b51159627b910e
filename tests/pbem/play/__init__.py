"""Tests of pbem.play."""
