"""Importing this module registers every built-in scorer."""
