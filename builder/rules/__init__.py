"""The embedded rules core: pure functions over catalog and list models."""
