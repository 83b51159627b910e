"""Tests of pbem.web."""
