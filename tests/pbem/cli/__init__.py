"""Tests of pbem.cli."""
