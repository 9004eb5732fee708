"""Settings split by environment: base (shared), local (development), test, production."""
