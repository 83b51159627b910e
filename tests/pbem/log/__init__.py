"""Tests of pbem.log."""
