"""The read path's foundation: the headless API's plumbing, naming no page model and no cms app.

The apps above plug their endpoints in through the `register_api_endpoint` hook (router.py).
"""
