"""The shipped seed and the local logins of `make run`: writers above every other app.

The importer writes pages, papers and translations and batches the API cache's staleness, so it
sits on top, as the sync worker does.
"""
