"""Tests of pbem.mail."""
