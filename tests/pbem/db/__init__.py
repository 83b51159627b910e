"""Tests of pbem.db."""
