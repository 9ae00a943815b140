"""Headless preview: the API endpoint that serves an editor's unpublished draft."""
