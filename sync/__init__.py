"""The sync worker: keeps each Paper in step with public bibliographic sources."""
